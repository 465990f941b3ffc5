/**
 * LimitRange: container items get default limits from max and default requests from the default limit
 * or min (SetDefaults_LimitRangeItem); ValidateLimitRange checks types, resource names and
 * min ≤ defaultRequest ≤ default ≤ max, maxLimitRequestRatio ≥ 1 and within max/min.
 */
import type { ObjectMeta } from '../../../api/object-meta.js';
import { type Strategy, type StrategyContext, typedStrategy } from '../../../api/strategy.js';
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { duplicate, fieldPath, forbidden, invalid, required } from '../../../api/field-errors.js';
import { isQualifiedName } from '../../../api/validation/names.js';
import type { Quantity } from '../../../api/quantity.js';
import { compareQuantities, formatQuantity, parseQuantity, scaledValue } from '../../../api/quantity.js';
import { resourceListEntries } from '../../shared/pod-spec/resource-quantities.js';
import { validateResourceName } from '../resourcequota/resource-names.js';
import { ResourceNames } from '../../shared/pod-spec/resources.js';
import { decodeResourceList } from '../../shared/pod-spec/quantities.js';

type ResourceList = Record<string, unknown>;

/** core/v1 LimitRangeItem. */
interface LimitRangeItem {
  type?: string;
  max?: ResourceList;
  min?: ResourceList;
  default?: ResourceList;
  defaultRequest?: ResourceList;
  maxLimitRequestRatio?: ResourceList;
}

/** core/v1 LimitRange, its quantities as decoded JSON (normalized by applyDefaults). */
interface LimitRange {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec?: { limits?: LimitRangeItem[] };
}

const LIMIT_TYPES = ['Pod', 'Container', 'PersistentVolumeClaim'];
const ONE = parseQuantity('1');
/** resource.MaxMilliValue: above it, ratios are computed on whole values. */
const MAX_MILLI_VALUE = (2n ** 63n - 1n) / 1000n;

const QUANTITY_LISTS = ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'] as const;

const items = (obj: LimitRange): LimitRangeItem[] => obj.spec?.limits ?? [];

function applyItemDefaults(item: LimitRangeItem): void {
  if (item.type !== 'Container') return;
  const defaults: ResourceList = { ...(item.default ?? {}) };
  const requests: ResourceList = { ...(item.defaultRequest ?? {}) };
  for (const [k, v] of Object.entries(item.max ?? {})) if (!Object.hasOwn(defaults, k)) defaults[k] = v;
  for (const [k, v] of Object.entries(defaults)) if (!Object.hasOwn(requests, k)) requests[k] = v;
  for (const [k, v] of Object.entries(item.min ?? {})) if (!Object.hasOwn(requests, k)) requests[k] = v;
  if (Object.keys(defaults).length > 0) item.default = defaults;
  if (Object.keys(requests).length > 0) item.defaultRequest = requests;
}

/** validateLimitRangeTypeName: a qualified name; unprefixed ones must be a standard type. */
function validateTypeName(type: string, path: FieldPath): FieldError[] {
  const errors = isQualifiedName(type).map((m) => invalid(path, type, m));
  if (errors.length === 0 && !type.includes('/') && !LIMIT_TYPES.includes(type)) {
    errors.push(invalid(path, type, 'must be a standard limit type or fully qualified'));
  }
  return errors;
}

/** Go's %f. */
function formatFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  return n.toFixed(6);
}

/** The ratio check of maxLimitRequestRatio against max/min, in milli-units unless a value is too large. */
function ratioExceedsMaxOverMin(ratio: Quantity, min: Quantity, max: Quantity): { exceeds: boolean; limit: number } {
  let ratioValue = Number(scaledValue(ratio, 0));
  let minValue = scaledValue(min, 0);
  let maxValue = scaledValue(max, 0);
  if (scaledValue(ratio, 0) < MAX_MILLI_VALUE && minValue < MAX_MILLI_VALUE && maxValue < MAX_MILLI_VALUE) {
    ratioValue = Number(scaledValue(ratio, -3)) / 1000;
    minValue = scaledValue(min, -3);
    maxValue = scaledValue(max, -3);
  }
  const limit = Number(maxValue) / Number(minValue);
  return { exceeds: ratioValue > limit, limit };
}

/** One item; `seenTypes` collects the types so far, each allowed once. */
function validateItem(item: LimitRangeItem, path: FieldPath, seenTypes: Set<string>, names: ResourceNames): FieldError[] {
  const type = item.type ?? '';
  const errors = validateTypeName(type, path.child('type'));
  if (seenTypes.has(type)) errors.push(duplicate(path.child('type'), type));
  seenTypes.add(type);
  const checkName = (name: string, p: FieldPath) =>
    type === 'Pod' || type === 'Container' ? names.validateContainerResourceName(name, p) : validateResourceName(name, p);
  const read = (field: keyof Omit<LimitRangeItem, 'type'>): Map<string, Quantity> => {
    const p = path.child(field);
    const entries = resourceListEntries(item[field], (n) => p.key(n));
    for (const { name } of entries) errors.push(...checkName(name, p.key(name)));
    return new Map(entries.map((e) => [e.name, e.quantity]));
  };
  const max = read('max');
  const min = read('min');
  let defaults = new Map<string, Quantity>();
  let defaultRequests = new Map<string, Quantity>();
  if (type === 'Pod') {
    if (Object.keys(item.default ?? {}).length > 0)
      errors.push(forbidden(path.child('default'), "may not be specified when `type` is 'Pod'"));
    if (Object.keys(item.defaultRequest ?? {}).length > 0)
      errors.push(forbidden(path.child('defaultRequest'), "may not be specified when `type` is 'Pod'"));
  } else {
    defaults = read('default');
    defaultRequests = read('defaultRequest');
  }
  if (type === 'PersistentVolumeClaim' && !min.has('storage') && !max.has('storage')) {
    errors.push(required(path.child('limits'), 'either minimum or maximum storage value is required, but neither was provided'));
  }
  const ratios = read('maxLimitRequestRatio');
  const keys = [...new Set([...max.keys(), ...min.keys(), ...defaults.keys(), ...defaultRequests.keys(), ...ratios.keys()])].sort();
  const s = formatQuantity;
  for (const k of keys) {
    const [lo, hi, def, req, ratio] = [min.get(k), max.get(k), defaults.get(k), defaultRequests.get(k), ratios.get(k)];
    if (lo && hi && compareQuantities(lo, hi) > 0)
      errors.push(invalid(path.child('min').key(k), s(lo), `min value ${s(lo)} is greater than max value ${s(hi)}`));
    if (req && lo && compareQuantities(lo, req) > 0) {
      errors.push(
        invalid(path.child('defaultRequest').key(k), s(req), `min value ${s(lo)} is greater than default request value ${s(req)}`),
      );
    }
    if (req && hi && compareQuantities(req, hi) > 0) {
      errors.push(
        invalid(path.child('defaultRequest').key(k), s(req), `default request value ${s(req)} is greater than max value ${s(hi)}`),
      );
    }
    if (req && def && compareQuantities(req, def) > 0) {
      errors.push(
        invalid(
          path.child('defaultRequest').key(k),
          s(req),
          `default request value ${s(req)} is greater than default limit value ${s(def)}`,
        ),
      );
    }
    if (def && lo && compareQuantities(lo, def) > 0)
      errors.push(invalid(path.child('default').key(k), s(lo), `min value ${s(lo)} is greater than default value ${s(def)}`));
    if (def && hi && compareQuantities(def, hi) > 0)
      errors.push(invalid(path.child('default').key(k), s(hi), `default value ${s(def)} is greater than max value ${s(hi)}`));
    if (ratio && compareQuantities(ratio, ONE) < 0)
      errors.push(invalid(path.child('maxLimitRequestRatio').key(k), s(ratio), `ratio ${s(ratio)} is less than 1`));
    if (ratio && lo && hi) {
      const { exceeds, limit } = ratioExceedsMaxOverMin(ratio, lo, hi);
      if (exceeds) {
        errors.push(
          invalid(path.child('maxLimitRequestRatio').key(k), s(ratio), `ratio ${s(ratio)} is greater than max/min = ${formatFloat(limit)}`),
        );
      }
    }
    if (!names.isOvercommitAllowed(k) && def && req && compareQuantities(def, req) !== 0) {
      errors.push(
        invalid(
          path.child('defaultRequest').key(k),
          s(req),
          `default value ${s(def)} must equal to defaultRequest value ${s(req)} in ${k}`,
        ),
      );
    }
  }
  return errors;
}

function validateLimitRange(obj: LimitRange, ctx: StrategyContext): FieldError[] {
  const seen = new Set<string>();
  const names = new ResourceNames(ctx.domain.labelPrefix);
  return items(obj).flatMap((item, i) => validateItem(item, fieldPath('spec', 'limits').index(i), seen, names));
}

export const limitRangeStrategy: Strategy = typedStrategy<LimitRange>({
  applyDefaults(obj) {
    for (const item of items(obj)) {
      for (const list of QUANTITY_LISTS) decodeResourceList(obj, item[list]);
      applyItemDefaults(item);
    }
  },
  validate: validateLimitRange,
  validateUpdate: (obj, _old, ctx) => validateLimitRange(obj, ctx),
});
