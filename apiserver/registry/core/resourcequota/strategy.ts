/**
 * ResourceQuota: hard limits are quota resources with non-negative (whole, for counts) quantities,
 * scopes are known, fit the limited resources and do not conflict, scope selectors are well formed;
 * scopes never change. A new quota starts with an empty status; status changes through /status, and
 * so does the reservations annotation that ResourceQuota admission keeps next to status.used
 * (api/quota-reservations.ts): writes of the quota itself keep the stored one.
 */
import { typedStrategy, typedSubresource } from '../../../api/strategy.js';
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { fieldPath, goTyped, invalid, required } from '../../../api/field-errors.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../../api/validation/object-meta.js';
import { withStatusOf } from '../../generic/status-subresource.js';
import { carryReservations, reservationsAnnotation } from '../../../api/quota-reservations.js';
import { isStandardQuotaResourceName, validateResourceQuotaResourceName } from './resource-names.js';
import { resourceListEntries } from '../../shared/pod-spec/resource-quantities.js';
import { ResourceNames } from '../../shared/pod-spec/resources.js';
import { decodeResourceList } from '../../shared/pod-spec/quantities.js';
import type { ResourceQuota } from '../../../api/generated/types.js';

const SCOPES = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity'];
/** How Kubernetes prints a list of scopes in a field error (%#v of the typed slice). */
const SCOPES_TYPE = '[]core.ResourceQuotaScope';
const CONFLICTING_SCOPES = [
  ['BestEffort', 'NotBestEffort'],
  ['Terminating', 'NotTerminating'],
];
const POD_COMPUTE_RESOURCES = ['pods', 'cpu', 'memory', 'limits.cpu', 'limits.memory', 'requests.cpu', 'requests.memory'];
/** Scopes whose selector operator must be Exists. */
const EXISTS_ONLY_SCOPES = ['BestEffort', 'NotBestEffort', 'Terminating', 'NotTerminating', 'CrossNamespacePodAffinity'];

/** IsResourceQuotaScopeValidForResource. */
function scopeFitsResource(scope: string, resource: string): boolean {
  if (scope === 'BestEffort') return resource === 'pods';
  return SCOPES.includes(scope) ? POD_COMPUTE_RESOURCES.includes(resource) : true;
}

/** A resource list's names and quantities (spec.hard, status.hard, status.used). */
function validateResourceList(list: Record<string, string> | undefined, path: FieldPath, labelPrefix: string): FieldError[] {
  const names = new ResourceNames(labelPrefix);
  const errors: FieldError[] = [];
  for (const name of Object.keys(list ?? {})) errors.push(...validateResourceQuotaResourceName(name, path.key(name)));
  for (const { name, path: p, quantity } of resourceListEntries(list, (n) => path.key(n)))
    errors.push(...names.validateQuantityValue(name, quantity, p));
  return errors;
}

function conflicting(scopes: Set<string>): boolean {
  return CONFLICTING_SCOPES.some((pair) => pair.every((s) => scopes.has(s)));
}

/** Limited standard resources, sorted, as the scope checks walk them. */
function hardStandardResources(obj: ResourceQuota): string[] {
  return Object.keys(obj.spec?.hard ?? {})
    .filter(isStandardQuotaResourceName)
    .sort();
}

function validateScopes(obj: ResourceQuota): FieldError[] {
  const scopes = obj.spec?.scopes ?? [];
  if (scopes.length === 0) return [];
  const errors: FieldError[] = [];
  const path = fieldPath('spec', 'scopes');
  for (const scope of scopes) {
    if (!SCOPES.includes(scope)) errors.push(invalid(path, goTyped(SCOPES_TYPE, scopes), 'unsupported scope'));
    for (const r of hardStandardResources(obj))
      if (!scopeFitsResource(scope, r)) errors.push(invalid(path, goTyped(SCOPES_TYPE, scopes), 'unsupported scope applied to resource'));
  }
  if (conflicting(new Set(scopes))) errors.push(invalid(path, goTyped(SCOPES_TYPE, scopes), 'conflicting scopes'));
  return errors;
}

function validateScopeSelector(obj: ResourceQuota): FieldError[] {
  const selector = obj.spec?.scopeSelector;
  if (!selector) return [];
  const errors: FieldError[] = [];
  const path = fieldPath('spec', 'scopeSelector', 'matchExpressions');
  const seen = new Set<string>();
  for (const req of selector.matchExpressions ?? []) {
    const scope = req.scopeName ?? '';
    const values = req.values ?? [];
    if (!SCOPES.includes(scope)) errors.push(invalid(path.child('scopeName'), scope, 'unsupported scope'));
    for (const r of hardStandardResources(obj))
      if (!scopeFitsResource(scope, r)) errors.push(invalid(path, selector, 'unsupported scope applied to resource'));
    if (EXISTS_ONLY_SCOPES.includes(scope) && req.operator !== 'Exists') {
      errors.push(
        invalid(
          path.child('operator'),
          req.operator ?? '',
          "must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
        ),
      );
    }
    switch (req.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0)
          errors.push(required(path.child('values'), "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0)
          errors.push(
            invalid(path.child('values'), values, "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"),
          );
        break;
      default:
        errors.push(invalid(path.child('operator'), req.operator ?? '', 'not a valid selector operator'));
    }
    seen.add(scope);
  }
  if (conflicting(seen)) errors.push(invalid(path, goTyped(SCOPES_TYPE, obj.spec?.scopes ?? null), 'conflicting scopes'));
  return errors;
}

/** ValidateResourceQuotaSpec. */
function validateSpec(obj: ResourceQuota, labelPrefix: string): FieldError[] {
  return [
    ...validateResourceList(obj.spec?.hard, fieldPath('spec', 'hard'), labelPrefix),
    ...validateScopes(obj),
    ...validateScopeSelector(obj),
  ];
}

/** ValidateResourceQuotaStatus. */
function validateStatus(obj: ResourceQuota, labelPrefix: string): FieldError[] {
  const status = obj.status;
  return [
    ...validateResourceList(status?.hard, fieldPath('status', 'hard'), labelPrefix),
    ...validateResourceList(status?.used, fieldPath('status', 'used'), labelPrefix),
  ];
}

/** Status quantities decoded as Kubernetes' decoder does (a 400 for a malformed one). */
function decodeStatus(obj: ResourceQuota): void {
  decodeResourceList(obj, obj.status?.hard);
  decodeResourceList(obj, obj.status?.used);
}

export const resourceQuotaStrategy = typedStrategy<ResourceQuota>({
  applyDefaults(obj) {
    decodeResourceList(obj, obj.spec?.hard);
  },
  prepareForCreate(obj, ctx) {
    obj.status = {};
    carryReservations(obj, null, reservationsAnnotation(ctx.domain));
  },
  prepareForUpdate(obj, old, ctx) {
    carryReservations(obj, old, reservationsAnnotation(ctx.domain));
  },
  validate: (obj, ctx) => [...validateSpec(obj, ctx.domain.labelPrefix), ...validateStatus(obj, ctx.domain.labelPrefix)],
  validateUpdate(obj, old, ctx) {
    const scopes = new Set(obj.spec?.scopes ?? []);
    const oldScopes = new Set(old.spec?.scopes ?? []);
    const same = scopes.size === oldScopes.size && [...scopes].every((s) => oldScopes.has(s));
    return [
      ...validateSpec(obj, ctx.domain.labelPrefix),
      ...validateStatus(obj, ctx.domain.labelPrefix),
      ...(same ? [] : [invalid(fieldPath('spec', 'scopes'), goTyped(SCOPES_TYPE, obj.spec?.scopes ?? null), FIELD_IMMUTABLE_ERROR_MSG)]),
    ];
  },
});

/** /status: only status changes; its hard and used lists are checked. */
export const resourceQuotaStatusStrategy = typedSubresource<ResourceQuota>({
  prepareForUpdate(obj, old, ctx) {
    const next = withStatusOf(obj, old);
    carryReservations(next, obj, reservationsAnnotation(ctx.domain));
    decodeStatus(next);
    return next;
  },
  validateUpdate: (obj, _old, ctx) => validateStatus(obj, ctx.domain.labelPrefix),
});
