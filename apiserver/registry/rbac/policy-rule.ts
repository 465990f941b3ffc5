/** rbac ValidatePolicyRule: a rule needs verbs, and covers either resources or (cluster-wide only) non-resource URLs. */
import type { FieldError, FieldPath } from '../../api/field-errors.js';
import { fieldPath, invalid, required } from '../../api/field-errors.js';

/** rbac/v1 PolicyRule. */
export interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

const count = (list: string[] | undefined) => list?.length ?? 0;

export function validatePolicyRule(rule: PolicyRule, namespaced: boolean, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  if (count(rule.verbs) === 0) errors.push(required(path.child('verbs'), 'verbs must contain at least one value'));
  if (count(rule.nonResourceURLs) > 0) {
    const urls = path.child('nonResourceURLs');
    if (namespaced) errors.push(invalid(urls, rule.nonResourceURLs, 'namespaced rules cannot apply to non-resource URLs'));
    if (count(rule.apiGroups) > 0 || count(rule.resources) > 0 || count(rule.resourceNames) > 0) {
      errors.push(invalid(urls, rule.nonResourceURLs, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errors;
  }
  if (count(rule.apiGroups) === 0) errors.push(required(path.child('apiGroups'), 'resource rules must supply at least one api group'));
  if (count(rule.resources) === 0) errors.push(required(path.child('resources'), 'resource rules must supply at least one resource'));
  return errors;
}

/** Every rule of a Role (namespaced) or ClusterRole, under `rules[i]`. */
export function validatePolicyRules(rules: PolicyRule[] | undefined, namespaced: boolean): FieldError[] {
  return (rules ?? []).flatMap((rule, i) => validatePolicyRule(rule, namespaced, fieldPath('rules').index(i)));
}
