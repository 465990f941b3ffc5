/**
 * Int-or-percent values of rollout and disruption budgets (maxUnavailable, maxSurge, minAvailable):
 * apps validation's ValidatePositiveIntOrPercent, IsNotMoreThan100Percent and getIntOrPercentValue.
 */
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { invalid } from '../../../api/field-errors.js';
import type { IntOrString } from '../../../api/generated/types.js';
import { isValidPercent, validateNonnegative } from '../pod-spec/value-checks.js';

/** ValidatePositiveIntOrPercent: a non-negative integer or a percent string. */
export function validatePositiveIntOrPercent(value: IntOrString | undefined, path: FieldPath): FieldError[] {
  if (typeof value === 'string') return isValidPercent(value).map((m) => invalid(path, value, m));
  return validateNonnegative(value ?? 0, path);
}

/** The percentage of a valid percent string. */
function percentValue(value: IntOrString | undefined): number | undefined {
  return typeof value === 'string' && isValidPercent(value).length === 0 ? Number(value.slice(0, -1)) : undefined;
}

/** getIntOrPercentValue: the number or the percentage (0 for anything else, like Go's IntValue of a bad string). */
export function intOrPercentValue(value: IntOrString | undefined): number {
  if (typeof value === 'number') return value;
  const percent = percentValue(value);
  if (percent !== undefined) return percent;
  const n = typeof value === 'string' && /^[+-]?\d+$/.test(value) ? Number(value) : 0;
  return Number.isFinite(n) ? n : 0;
}

/** IsNotMoreThan100Percent. */
export function validateNotMoreThan100Percent(value: IntOrString | undefined, path: FieldPath): FieldError[] {
  const percent = percentValue(value);
  return percent !== undefined && percent > 100 ? [invalid(path, value, 'must not be greater than 100%')] : [];
}
