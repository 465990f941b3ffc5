/**
 * Resource-name checks of quotas and limit ranges (validateResourceName, ValidateResourceQuotaResourceName).
 * Container resource names, native/extended classes and quantity values are shared/pod-spec/resources.ts's
 * ResourceNames.
 */
import type { FieldError, FieldRef } from '../../../api/field-errors.js';
import { invalid } from '../../../api/field-errors.js';
import { isQualifiedName } from '../../../api/validation/names.js';

const STANDARD_QUOTA_RESOURCES = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.storage',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'persistentvolumeclaims',
  'configmaps',
  'services.nodeports',
  'services.loadbalancers',
]);

function isQuotaHugePageResourceName(name: string): boolean {
  return name.startsWith('hugepages-') || name.startsWith('requests.hugepages-');
}

/** IsStandardQuotaResourceName: a resource a quota can limit. */
export function isStandardQuotaResourceName(name: string): boolean {
  return STANDARD_QUOTA_RESOURCES.has(name) || isQuotaHugePageResourceName(name);
}

/** IsStandardResourceName: the quota resources and `storage`. */
function isStandardResourceName(name: string): boolean {
  return name === 'storage' || isStandardQuotaResourceName(name);
}

/** validateResourceName: a qualified name; unprefixed names must be standard resources. */
export function validateResourceName(name: string, path: FieldRef): FieldError[] {
  const errors = isQualifiedName(name).map((m) => invalid(path, name, m));
  if (errors.length > 0) return errors;
  if (!name.includes('/') && !isStandardResourceName(name)) {
    errors.push(invalid(path, name, 'must be a standard resource type or fully qualified'));
  }
  return errors;
}

/** ValidateResourceQuotaResourceName: unprefixed names must be resources a quota can limit. */
export function validateResourceQuotaResourceName(name: string, path: FieldRef): FieldError[] {
  const errors = validateResourceName(name, path);
  if (!name.includes('/') && !isStandardQuotaResourceName(name)) {
    errors.push(invalid(path, name, 'must be a standard resource for quota'));
  }
  return errors;
}
