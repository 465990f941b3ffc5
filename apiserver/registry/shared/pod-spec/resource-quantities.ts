/**
 * Quantity checks of the storage and cluster kinds (ValidateNonnegativeQuantity,
 * ValidatePositiveQuantityValue, validateBasicResource) and resource-list iteration. Malformed values
 * never get here: defaulting refuses them with a 400, as Kubernetes' decoder does (pod-spec/quantities.ts).
 */
import type { FieldError, FieldPath, FieldRef } from '../../../api/field-errors.js';
import { invalid } from '../../../api/field-errors.js';
import type { Quantity } from '../../../api/quantity.js';
import { formatQuantity, quantitySign, scaledValue } from '../../../api/quantity.js';
import { readQuantity } from './quantities.js';
import { IS_NEGATIVE_ERROR_MSG } from './value-checks.js';

/** ValidateNonnegativeQuantity. */
export function validateNonnegativeQuantity(q: Quantity, path: FieldRef): FieldError[] {
  return quantitySign(q) < 0 ? [invalid(path, formatQuantity(q), IS_NEGATIVE_ERROR_MSG)] : [];
}

/** ValidatePositiveQuantityValue. */
export function validatePositiveQuantityValue(q: Quantity, path: FieldRef): FieldError[] {
  return quantitySign(q) <= 0 ? [invalid(path, formatQuantity(q), 'must be greater than zero')] : [];
}

/** validateBasicResource: the integer value may not be negative. */
export function validateBasicResource(q: Quantity, path: FieldRef): FieldError[] {
  return quantitySign(q) < 0 ? [invalid(path, Number(scaledValue(q, 0)), 'must be a valid resource quantity')] : [];
}

/** The entries of a resource list (`{cpu: "1", ...}`) with their paths and quantities. */
export function resourceListEntries(
  list: Record<string, unknown> | undefined,
  pathOf: (name: string) => FieldPath,
): { name: string; path: FieldPath; quantity: Quantity }[] {
  return Object.entries(list ?? {}).flatMap(([name, raw]) => {
    const quantity = readQuantity(raw);
    return quantity ? [{ name, path: pathOf(name), quantity }] : [];
  });
}
