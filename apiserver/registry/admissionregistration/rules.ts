/**
 * A webhook's rules (validateRuleWithOperations): operations, apiGroups, apiVersions and resources
 * required, "*" alone in each list, known operations and scopes, and the resource/subresource wildcard
 * combinations Kubernetes refuses.
 */
import type { FieldError, FieldPath } from '../../api/field-errors.js';
import { goTyped, invalid, notSupported, required } from '../../api/field-errors.js';
import type { RuleWithOperations } from './types.js';

const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];

const hasWildcard = (list: string[]) => list.includes('*');

/** validateResources with subresources allowed: `x/*`, `*\/x`, `*\/*` and `*` must not overlap other entries. */
function validateResources(resources: string[], path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  if (resources.length === 0) errors.push(required(path));
  const withWildcardSubresource = new Set<string>();
  const subresourcesWithWildcardResource = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let withoutSubresource = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') {
      errors.push(required(path.index(i)));
      return;
    }
    if (resSub === '*/*') doubleWildcard = true;
    if (resSub === '*') singleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      withoutSubresource = resSub !== '*';
      return;
    }
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (withWildcardSubresource.has(res))
      errors.push(invalid(path.index(i), resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (subresourcesWithWildcardResource.has(sub))
      errors.push(invalid(path.index(i), resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') withWildcardSubresource.add(res);
    if (res === '*') subresourcesWithWildcardResource.add(sub);
  });
  if (resources.length > 1 && doubleWildcard)
    errors.push(invalid(path, resources, "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && withoutSubresource)
    errors.push(invalid(path, resources, "if '*' is present, must not specify other resources without subresources"));
  return errors;
}

export function validateRuleWithOperations(rule: RuleWithOperations, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const operations = rule.operations ?? [];
  if (operations.length === 0) errors.push(required(path.child('operations')));
  if (operations.length > 1 && hasWildcard(operations)) {
    errors.push(
      invalid(
        path.child('operations'),
        goTyped('[]admissionregistration.OperationType', operations),
        "if '*' is present, must not specify other operations",
      ),
    );
  }
  operations.forEach((op, i) => {
    if (!OPERATIONS.includes(op)) errors.push(notSupported(path.child('operations').index(i), op, OPERATIONS));
  });
  const apiGroups = rule.apiGroups ?? [];
  if (apiGroups.length === 0) errors.push(required(path.child('apiGroups')));
  if (apiGroups.length > 1 && hasWildcard(apiGroups)) {
    errors.push(invalid(path.child('apiGroups'), apiGroups, "if '*' is present, must not specify other API groups"));
  }
  const apiVersions = rule.apiVersions ?? [];
  if (apiVersions.length === 0) errors.push(required(path.child('apiVersions')));
  if (apiVersions.length > 1 && hasWildcard(apiVersions)) {
    errors.push(invalid(path.child('apiVersions'), apiVersions, "if '*' is present, must not specify other API versions"));
  }
  apiVersions.forEach((v, i) => {
    if (v === '') errors.push(required(path.child('apiVersions').index(i)));
  });
  errors.push(...validateResources(rule.resources ?? [], path.child('resources')));
  if (rule.scope !== undefined && !SCOPES.includes(rule.scope)) errors.push(notSupported(path.child('scope'), rule.scope, SCOPES));
  return errors;
}
