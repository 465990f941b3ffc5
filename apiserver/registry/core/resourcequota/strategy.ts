/**
 * ResourceQuota: hard limits are quota resources with non-negative (whole, for counts) quantities,
 * scopes are known, fit the limited resources and do not conflict, scope selectors are well formed;
 * scopes never change. A new quota starts with an empty status; status changes through /status.
 */
import type { ApiObject } from '../../../api/object.js';
import type { Strategy, SubresourceStrategy } from '../../../api/strategy.js';
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { fieldPath, invalid, required } from '../../../api/field-errors.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../../api/validation/object-meta.js';
import { statusSubresource } from '../../status-subresource.js';
import { isStandardQuotaResourceName, validateResourceQuotaResourceName } from './resource-names.js';
import { resourceListEntries } from './resource-quantities.js';
import { ResourceNames } from '../pod-spec/resources.js';
import { decodeResourceList } from '../pod-spec/quantities.js';

type ResourceList = Record<string, string>;
type ScopeRequirement = { scopeName?: string; operator?: string; values?: string[] };

interface QuotaFields {
  spec?: { hard?: ResourceList; scopes?: string[]; scopeSelector?: { matchExpressions?: ScopeRequirement[] } };
  status?: { hard?: ResourceList; used?: ResourceList };
}

const quota = (obj: ApiObject): QuotaFields => obj as QuotaFields;

const SCOPES = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity'];
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
function validateResourceList(list: ResourceList | undefined, path: FieldPath, labelPrefix: string): FieldError[] {
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
function hardStandardResources(obj: ApiObject): string[] {
  return Object.keys(quota(obj).spec?.hard ?? {})
    .filter(isStandardQuotaResourceName)
    .sort();
}

function validateScopes(obj: ApiObject): FieldError[] {
  const scopes = quota(obj).spec?.scopes ?? [];
  if (scopes.length === 0) return [];
  const errors: FieldError[] = [];
  const path = fieldPath('spec', 'scopes');
  for (const scope of scopes) {
    if (!SCOPES.includes(scope)) errors.push(invalid(path, scopes, 'unsupported scope'));
    for (const r of hardStandardResources(obj))
      if (!scopeFitsResource(scope, r)) errors.push(invalid(path, scopes, 'unsupported scope applied to resource'));
  }
  if (conflicting(new Set(scopes))) errors.push(invalid(path, scopes, 'conflicting scopes'));
  return errors;
}

function validateScopeSelector(obj: ApiObject): FieldError[] {
  const selector = quota(obj).spec?.scopeSelector;
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
  if (conflicting(seen)) errors.push(invalid(path, quota(obj).spec?.scopes ?? null, 'conflicting scopes'));
  return errors;
}

/** ValidateResourceQuotaSpec. */
function validateSpec(obj: ApiObject, labelPrefix: string): FieldError[] {
  return [
    ...validateResourceList(quota(obj).spec?.hard, fieldPath('spec', 'hard'), labelPrefix),
    ...validateScopes(obj),
    ...validateScopeSelector(obj),
  ];
}

/** ValidateResourceQuotaStatus. */
function validateStatus(obj: ApiObject, labelPrefix: string): FieldError[] {
  const status = quota(obj).status;
  return [
    ...validateResourceList(status?.hard, fieldPath('status', 'hard'), labelPrefix),
    ...validateResourceList(status?.used, fieldPath('status', 'used'), labelPrefix),
  ];
}

/** Status quantities decoded as Kubernetes' decoder does (a 400 for a malformed one). */
function decodeStatus(obj: ApiObject): void {
  decodeResourceList(obj, quota(obj).status?.hard);
  decodeResourceList(obj, quota(obj).status?.used);
}

export const resourceQuotaStrategy: Strategy = {
  applyDefaults(obj) {
    decodeResourceList(obj, quota(obj).spec?.hard);
  },
  prepareForCreate(obj) {
    obj.status = {};
  },
  validate: (obj, ctx) => [...validateSpec(obj, ctx.domain.labelPrefix), ...validateStatus(obj, ctx.domain.labelPrefix)],
  validateUpdate(obj, old, ctx) {
    const scopes = new Set(quota(obj).spec?.scopes ?? []);
    const oldScopes = new Set(quota(old).spec?.scopes ?? []);
    const same = scopes.size === oldScopes.size && [...scopes].every((s) => oldScopes.has(s));
    return [
      ...validateSpec(obj, ctx.domain.labelPrefix),
      ...validateStatus(obj, ctx.domain.labelPrefix),
      ...(same ? [] : [invalid(fieldPath('spec', 'scopes'), quota(obj).spec?.scopes ?? null, FIELD_IMMUTABLE_ERROR_MSG)]),
    ];
  },
};

/** /status: only status changes; its hard and used lists are checked. */
export const resourceQuotaStatusStrategy: SubresourceStrategy = {
  prepareForUpdate(obj, old, ctx) {
    const next = statusSubresource.prepareForUpdate(obj, old, ctx);
    decodeStatus(next);
    return next;
  },
  validateUpdate: (obj, _old, ctx) => validateStatus(obj, ctx.domain.labelPrefix),
};
