/**
 * Role and ClusterRole: their policy rules, and a ClusterRole's aggregationRule (at least one
 * clusterRoleSelector, each a valid label selector). Kubernetes lets a PUT create either.
 */
import type { ApiObject } from '../../../api/object.js';
import type { Strategy } from '../../../api/strategy.js';
import type { FieldError } from '../../../api/field-errors.js';
import { fieldPath, invalid, required } from '../../../api/field-errors.js';
import { SelectorParseError, labelSelectorFromObject, type LabelSelectorObject } from '../../../runtime/selectors/label-selector.js';
import { validateLabelSelector } from '../../shared/pod-spec/label-selector.js';
import { validatePolicyRules, type PolicyRule } from '../policy-rule.js';

const rulesOf = (obj: ApiObject) => obj.rules as PolicyRule[] | undefined;

function validateAggregationRule(rule: { clusterRoleSelectors?: LabelSelectorObject[] } | undefined): FieldError[] {
  if (!rule) return [];
  const path = fieldPath('aggregationRule', 'clusterRoleSelectors');
  const selectors = rule.clusterRoleSelectors ?? [];
  const errors: FieldError[] = [];
  if (selectors.length === 0) errors.push(required(path, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
  selectors.forEach((selector, i) => {
    errors.push(...validateLabelSelector(selector, path.index(i)));
    try {
      labelSelectorFromObject(selector);
    } catch (err) {
      if (!(err instanceof SelectorParseError)) throw err;
      // Kubernetes reports the (nil) selector it failed to build, which prints as "null".
      errors.push(invalid(path.index(i), 'null', 'invalid label selector.'));
    }
  });
  return errors;
}

export const roleStrategy: Strategy = {
  validate: (obj) => validatePolicyRules(rulesOf(obj), true),
  validateUpdate: (obj) => validatePolicyRules(rulesOf(obj), true),
};

function validateClusterRole(obj: ApiObject): FieldError[] {
  return [
    ...validatePolicyRules(rulesOf(obj), false),
    ...validateAggregationRule(obj.aggregationRule as { clusterRoleSelectors?: LabelSelectorObject[] } | undefined),
  ];
}

export const clusterRoleStrategy: Strategy = {
  validate: validateClusterRole,
  validateUpdate: (obj) => validateClusterRole(obj),
};
