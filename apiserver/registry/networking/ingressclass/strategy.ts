/**
 * IngressClass (networking/v1, cluster-scoped): Kubernetes' defaults (parameters.scope Cluster) and
 * validation (controller a domain-prefixed path of at most 250 characters, fixed once created;
 * parameters kind/name required, scope Cluster or Namespace with the namespace only for Namespace).
 */
import { typedStrategy } from '../../../api/strategy.js';
import type { IngressClass, IngressClassParametersReference, IngressClassSpec } from '../../../api/generated/types.js';
import type { FieldError } from '../../../api/field-errors.js';
import { fieldPath, forbidden, invalid, notSupported, required, tooLong } from '../../../api/field-errors.js';
import { isDNS1123Subdomain, nameIsDNSLabel, validatePathSegmentName } from '../../../api/validation/names.js';
import { isDomainPrefixedPath } from '../../shared/network/net-validation.js';

const MAX_CONTROLLER_LENGTH = 250;
const SCOPES = ['Cluster', 'Namespace'];
const SPEC = fieldPath('spec');

function specOf(obj: IngressClass): IngressClassSpec {
  return obj.spec ?? {};
}

function validateParameters(params: IngressClassParametersReference | undefined): FieldError[] {
  if (!params) return [];
  const path = SPEC.child('parameters');
  const errs: FieldError[] = [];
  if (params.apiGroup !== undefined)
    isDNS1123Subdomain(params.apiGroup).forEach((m) => errs.push(invalid(path.child('apiGroup'), params.apiGroup, m)));
  for (const f of ['kind', 'name'] as const) {
    const v = params[f] ?? '';
    if (!v) errs.push(required(path.child(f), ''));
    else validatePathSegmentName(v, false).forEach((m) => errs.push(invalid(path.child(f), v, m)));
  }
  if (params.scope === undefined) return [...errs, required(path.child('scope'), '')];
  if (!SCOPES.includes(params.scope)) return [...errs, notSupported(path.child('scope'), params.scope, SCOPES)];
  if (params.scope === 'Namespace') {
    if (params.namespace === undefined) errs.push(required(path.child('namespace'), "`parameters.scope` is set to 'Namespace'"));
    else nameIsDNSLabel(params.namespace, false).forEach((m) => errs.push(invalid(path.child('namespace'), params.namespace, m)));
  }
  if (params.scope === 'Cluster' && params.namespace !== undefined)
    errs.push(forbidden(path.child('namespace'), "`parameters.scope` is set to 'Cluster'"));
  return errs;
}

function validateIngressClass(obj: IngressClass): FieldError[] {
  const spec = specOf(obj);
  const errs: FieldError[] = [];
  const controller = spec.controller ?? '';
  if (!controller) errs.push(required(SPEC.child('controller'), ''));
  else {
    if (controller.length > MAX_CONTROLLER_LENGTH) errs.push(tooLong(SPEC.child('controller'), controller, MAX_CONTROLLER_LENGTH));
    errs.push(...isDomainPrefixedPath(controller, SPEC.child('controller')));
  }
  errs.push(...validateParameters(spec.parameters));
  return errs;
}

export const ingressClassStrategy = typedStrategy<IngressClass>({
  applyDefaults(obj) {
    const params = specOf(obj).parameters;
    if (params && params.scope === undefined) params.scope = 'Cluster';
  },
  validate: validateIngressClass,
  validateUpdate(obj, old) {
    const controller = specOf(obj).controller;
    const immutable = controller === specOf(old).controller ? [] : [invalid(SPEC.child('controller'), controller, 'field is immutable')];
    return [...validateIngressClass(obj), ...immutable];
  },
});
