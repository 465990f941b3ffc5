/** A pod's QoS class (qos.GetPodQOS), computed once at creation and kept in status.qosClass. */
import { compareQuantities, type Quantity, ZERO_QUANTITY } from '../../../api/quantity.js';
import { readQuantity } from '../../shared/pod-spec/quantities.js';
import type { PodSpec } from '../../../api/generated/types.js';

export type QOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

const QOS_RESOURCES = ['cpu', 'memory'];

function add(a: Quantity, b: Quantity): Quantity {
  const scale = Math.min(a.scale, b.scale);
  const unscaled = a.unscaled * 10n ** BigInt(a.scale - scale) + b.unscaled * 10n ** BigInt(b.scale - scale);
  return { unscaled, scale, format: a.format };
}

/** The positive cpu/memory quantities of a list, added into `totals`; returns the names found. */
function accumulate(list: Record<string, string> | undefined, totals: Map<string, Quantity>): Set<string> {
  const found = new Set<string>();
  for (const [name, value] of Object.entries(list ?? {})) {
    const q = readQuantity(value);
    if (!QOS_RESOURCES.includes(name) || q === undefined || compareQuantities(q, ZERO_QUANTITY) <= 0) continue;
    found.add(name);
    const total = totals.get(name);
    totals.set(name, total ? add(total, q) : q);
  }
  return found;
}

/**
 * GetPodQOS: BestEffort without cpu/memory requests and limits; Guaranteed when every container (and
 * init container) limits both and the summed requests equal the summed limits; Burstable otherwise.
 */
export function podQOSClass(spec: PodSpec): QOSClass {
  const requests = new Map<string, Quantity>();
  const limits = new Map<string, Quantity>();
  let guaranteed = true;
  for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
    accumulate(c.resources?.requests, requests);
    const limited = accumulate(c.resources?.limits, limits);
    if (!limited.has('cpu') || !limited.has('memory')) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name);
      if (!lim || compareQuantities(lim, req) !== 0) guaranteed = false;
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
