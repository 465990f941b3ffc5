/**
 * Container resource requirements (ValidateContainerResourceRequirements): resource names, quantities,
 * requests ≤ limits, hugepages rules. Also the resource-name helpers of pkg/apis/core/helper.
 */
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { forbidden, invalid, required } from '../../../api/field-errors.js';
import { isQualifiedName } from '../../../api/validation/names.js';
import { compareQuantities, formatQuantity, quantitySign, scaledValue, type Quantity } from '../../../api/quantity.js';
import { IS_NEGATIVE_ERROR_MSG } from './value-checks.js';
import { readQuantity } from './quantities.js';
import type { ResourceRequirements } from '../../../api/generated/types.js';

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
const STANDARD_RESOURCES = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'storage',
  'requests.storage',
  'services.nodeports',
  'services.loadbalancers',
]);
const INTEGER_RESOURCES = new Set([
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
]);
const HUGE_PAGES_PREFIX = 'hugepages-';

/** The resource names of a domain: native ones are unprefixed or under `<labelPrefix>/`. */
export class ResourceNames {
  constructor(private readonly labelPrefix: string) {}

  isHugePages(name: string): boolean {
    return name.startsWith(HUGE_PAGES_PREFIX);
  }

  isNative(name: string): boolean {
    return !name.includes('/') || name.includes(`${this.labelPrefix}/`);
  }

  /** IsExtendedResourceName: a prefixed, non-native name that stays qualified as `requests.<name>`. */
  isExtended(name: string): boolean {
    if (this.isNative(name) || name.startsWith('requests.')) return false;
    return isQualifiedName(`requests.${name}`).length === 0;
  }

  /** IsOvercommitAllowed: requests may be below limits (native resources but hugepages). */
  isOvercommitAllowed(name: string): boolean {
    return this.isNative(name) && !this.isHugePages(name);
  }

  isInteger(name: string): boolean {
    return INTEGER_RESOURCES.has(name) || this.isExtended(name);
  }

  /** validateContainerResourceName. */
  validateContainerResourceName(name: string, path: FieldPath): FieldError[] {
    const errs = isQualifiedName(name).map((m) => invalid(path, name, m));
    if (errs.length > 0) return errs;
    if (!name.includes('/')) {
      const standard =
        STANDARD_RESOURCES.has(name) || name.startsWith(HUGE_PAGES_PREFIX) || name.startsWith(`requests.${HUGE_PAGES_PREFIX}`);
      if (!standard) errs.push(invalid(path, name, 'must be a standard resource type or fully qualified'));
      if (!STANDARD_CONTAINER_RESOURCES.has(name) && !this.isHugePages(name))
        errs.push(invalid(path, name, 'must be a standard resource for containers'));
    } else if (!this.isNative(name) && !this.isExtended(name)) {
      errs.push(invalid(path, name, "doesn't follow extended resource name standard"));
    }
    return errs;
  }

  /** ValidateResourceQuantityValue: not negative, whole for integer resources. */
  validateQuantityValue(name: string, q: Quantity, path: FieldPath): FieldError[] {
    const errs: FieldError[] = [];
    if (quantitySign(q) < 0) errs.push(invalid(path, formatQuantity(q), IS_NEGATIVE_ERROR_MSG));
    if (this.isInteger(name) && scaledValue(q, -3) % 1000n !== 0n) errs.push(invalid(path, formatQuantity(q), 'must be an integer'));
    return errs;
  }
}

/** IsHugePageResourceValueDivisible: the value is a multiple of the page size in the name. */
function hugePagesValueError(name: string, q: Quantity): string | undefined {
  const pageSize = readQuantity(name.slice(HUGE_PAGES_PREFIX.length));
  const divisible =
    pageSize !== undefined &&
    quantitySign(pageSize) > 0 &&
    scaledValue(pageSize, -3) % 1000n === 0n &&
    scaledValue(q, 0) % scaledValue(pageSize, 0) === 0n;
  return divisible ? undefined : `${formatQuantity(q)} is not positive integer multiple of ${name}`;
}

/** ValidateContainerResourceRequirements. */
export function validateResourceRequirements(reqs: ResourceRequirements | undefined, names: ResourceNames, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const limits = reqs?.limits ?? {};
  const requests = reqs?.requests ?? {};
  const limPath = path.child('limits');
  const reqPath = path.child('requests');
  let cpuOrMemory = false;
  let hugePages = false;
  const check = (name: string, value: string, at: FieldPath): Quantity | undefined => {
    errs.push(...names.validateContainerResourceName(name, at));
    const q = readQuantity(value);
    if (q === undefined) return undefined;
    errs.push(...names.validateQuantityValue(name, q, at));
    if (names.isHugePages(name)) {
      hugePages = true;
      const msg = hugePagesValueError(name, q);
      if (msg) errs.push(invalid(at, formatQuantity(q), msg));
    }
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
    return q;
  };
  for (const [name, value] of Object.entries(limits)) check(name, value, limPath.key(name));
  for (const [name, value] of Object.entries(requests)) {
    const q = check(name, value, reqPath.key(name));
    const limit = Object.hasOwn(limits, name) ? readQuantity(limits[name]) : undefined;
    if (q !== undefined && limit !== undefined) {
      const cmp = compareQuantities(q, limit);
      if (cmp !== 0 && !names.isOvercommitAllowed(name)) {
        errs.push(invalid(reqPath, formatQuantity(q), `must be equal to ${name} limit of ${formatQuantity(limit)}`));
      } else if (cmp > 0) {
        errs.push(invalid(reqPath, formatQuantity(q), `must be less than or equal to ${name} limit of ${formatQuantity(limit)}`));
      }
    } else if (!Object.hasOwn(limits, name) && !names.isOvercommitAllowed(name)) {
      errs.push(required(limPath, 'Limit must be set for non overcommitable resources'));
    }
  }
  if (!cpuOrMemory && hugePages) errs.push(forbidden(path, 'HugePages require cpu or memory'));
  return errs;
}
