/**
 * Resource lists ({cpu: "100m", memory: "1Gi"}) as exact quantities: sum, difference, comparison and
 * equality by value, for LimitRanger, ResourceQuota and RuntimeClass.
 */
import { compareQuantities, formatQuantity, type Quantity, quantityFrom } from '../api/quantity.js';

export type ResourceList = Record<string, string>;

function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

export function addQuantities(a: Quantity, b: Quantity): Quantity {
  const scale = Math.min(a.scale, b.scale);
  return {
    unscaled: a.unscaled * pow10(a.scale - scale) + b.unscaled * pow10(b.scale - scale),
    scale,
    // As Kubernetes' Quantity.Add: a zero takes the other's format.
    format: a.unscaled === 0n ? b.format : a.format,
  };
}

export function negate(q: Quantity): Quantity {
  return { ...q, unscaled: -q.unscaled };
}

export function q(value: string | number | undefined): Quantity {
  return quantityFrom(value ?? '0');
}

export function cmp(a: string | number, b: string | number): -1 | 0 | 1 {
  return compareQuantities(q(a), q(b));
}

/** a + b for every resource in either. */
export function addLists(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = formatQuantity(addQuantities(q(out[k]), q(v)));
  return out;
}

/** a - b for every resource in either. */
export function subtractLists(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = formatQuantity(addQuantities(q(out[k]), negate(q(v))));
  return out;
}

/** The same resources with equal values. */
export function listsEqual(a: ResourceList | undefined, b: ResourceList | undefined): boolean {
  const ka = Object.keys(a ?? {});
  const kb = Object.keys(b ?? {});
  if (ka.length !== kb.length) return false;
  return ka.every((k) => b?.[k] !== undefined && cmp(a![k], b[k]) === 0);
}
