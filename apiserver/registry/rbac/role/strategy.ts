/**
 * Role and ClusterRole: their policy rules, and a ClusterRole's aggregationRule (at least one
 * clusterRoleSelector, each a valid label selector). Kubernetes lets a PUT create either.
 */
import { type Strategy, typedStrategy } from '../../../api/strategy.js';
import type { AggregationRule, ClusterRole, Role } from '../../../api/generated/types.js';
import type { FieldError } from '../../../api/field-errors.js';
import { fieldPath, invalid, required } from '../../../api/field-errors.js';
import { SelectorParseError, labelSelectorFromObject } from '../../../runtime/selectors/label-selector.js';
import { validateLabelSelector } from '../../shared/pod-spec/label-selector.js';
import { validatePolicyRules } from '../policy-rule.js';

function validateAggregationRule(rule: AggregationRule | undefined): FieldError[] {
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

export const roleStrategy: Strategy = typedStrategy<Role>({
  validate: (obj) => validatePolicyRules(obj.rules, true),
  validateUpdate: (obj) => validatePolicyRules(obj.rules, true),
});

function validateClusterRole(obj: ClusterRole): FieldError[] {
  return [...validatePolicyRules(obj.rules, false), ...validateAggregationRule(obj.aggregationRule)];
}

export const clusterRoleStrategy: Strategy = typedStrategy<ClusterRole>({
  validate: validateClusterRole,
  validateUpdate: (obj) => validateClusterRole(obj),
});
