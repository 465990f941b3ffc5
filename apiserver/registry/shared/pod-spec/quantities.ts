/**
 * Quantities as pod specs use them (api/quantity.ts does the arithmetic): lenient reads for validation
 * (a malformed quantity is refused earlier, while defaulting, as Kubernetes' decoder refuses it) and the
 * resource-list normalization of SetDefaults_ResourceList.
 */
import type { ApiObject } from '../../../api/object.js';
import * as status from '../../../api/status.js';
import { type Quantity, QuantityParseError, formatQuantity, quantityFrom, quantitySign, scaledValue } from '../../../api/quantity.js';

/** The quantity a value denotes, or undefined when it is not one. */
export function readQuantity(value: unknown): Quantity | undefined {
  try {
    return quantityFrom(value);
  } catch {
    return undefined;
  }
}

export function isNegativeQuantity(value: unknown): boolean {
  const q = readQuantity(value);
  return q !== undefined && quantitySign(q) < 0;
}

export function isZeroQuantity(value: unknown): boolean {
  const q = readQuantity(value);
  return q !== undefined && quantitySign(q) === 0;
}

/** Quantity.String() of a value (the value itself when it is not a quantity). */
export function canonicalQuantity(value: unknown): string {
  const q = readQuantity(value);
  return q === undefined ? String(value) : formatQuantity(q);
}

/** Quantity.RoundUp(-3): finer than milli rounds away from zero to milli. */
function roundUpToMilli(q: Quantity): Quantity {
  return q.scale >= -3 ? q : { unscaled: scaledValue(q, -3), scale: -3, format: q.format };
}

/**
 * The decode error of an object whose quantity does not parse:
 * `<Kind> in version "<v>" cannot be handled as a <Kind>: <parse error>` (400).
 */
function quantityDecodeError(obj: Pick<ApiObject, 'apiVersion' | 'kind'>, err: QuantityParseError): status.ApiError {
  const version = (obj.apiVersion ?? '').split('/').pop() ?? '';
  return status.badRequest(`${obj.kind} in version "${version}" cannot be handled as a ${obj.kind}: ${err.message}`);
}

/**
 * Reads a quantity field as the decoder would: the canonical text, or a 400 for a malformed value.
 * `resourceList` values are also rounded up to milli precision (SetDefaults_ResourceList).
 */
export function decodeQuantity(obj: Pick<ApiObject, 'apiVersion' | 'kind'>, value: unknown, resourceList: boolean): string {
  try {
    const q = quantityFrom(value);
    return formatQuantity(resourceList ? roundUpToMilli(q) : q);
  } catch (err) {
    if (err instanceof QuantityParseError) throw quantityDecodeError(obj, err);
    throw err;
  }
}

/** Normalizes every value of a resource list in place (see decodeQuantity). */
export function decodeResourceList(obj: Pick<ApiObject, 'apiVersion' | 'kind'>, list: Record<string, unknown> | undefined): void {
  for (const [name, value] of Object.entries(list ?? {})) list![name] = decodeQuantity(obj, value, true);
}
