/**
 * policy/v1 PodDisruptionBudget: ValidatePodDisruptionBudgetSpec (minAvailable and maxUnavailable not
 * both, each a non-negative integer or a percentage up to 100%, a valid selector, the unhealthy pod
 * eviction policy) and the non-negative counters of its status.
 */
import { typedStrategy } from '../../../api/strategy.js';
import type { FieldError } from '../../../api/field-errors.js';
import { fieldPath, invalid, notSupported } from '../../../api/field-errors.js';
import { validateLabelSelector } from '../../shared/pod-spec/label-selector.js';
import type { PodDisruptionBudget, PodDisruptionBudgetSpec, PodDisruptionBudgetStatus } from '../../../api/generated/types.js';
import type { StatusRules } from '../../shared/workload/status-counters.js';
import { validateNotMoreThan100Percent, validatePositiveIntOrPercent } from '../../shared/workload/int-or-percent.js';

const EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'];

function validatePodDisruptionBudgetSpec(spec: PodDisruptionBudgetSpec): FieldError[] {
  const path = fieldPath('spec');
  const errs: FieldError[] = [];
  if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined) {
    errs.push(invalid(path, spec, 'minAvailable and maxUnavailable cannot be both set'));
  }
  for (const field of ['minAvailable', 'maxUnavailable'] as const) {
    if (spec[field] === undefined) continue;
    errs.push(...validatePositiveIntOrPercent(spec[field], path.child(field)));
    errs.push(...validateNotMoreThan100Percent(spec[field], path.child(field)));
  }
  errs.push(...validateLabelSelector(spec.selector, path.child('selector')));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (policy !== undefined && !EVICTION_POLICIES.includes(policy))
    errs.push(notSupported(path.child('unhealthyPodEvictionPolicy'), policy, EVICTION_POLICIES));
  return errs;
}

export const podDisruptionBudgetStrategy = typedStrategy<PodDisruptionBudget>({
  prepareForCreate(obj) {
    obj.status = { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
  },
  validate: (obj) => validatePodDisruptionBudgetSpec(obj.spec ?? {}),
  validateUpdate: (obj) => validatePodDisruptionBudgetSpec(obj.spec ?? {}),
});

/** poddisruptionbudgets/status: ValidatePodDisruptionBudgetStatusUpdate's counters. */
export const podDisruptionBudgetStatusRules: StatusRules<PodDisruptionBudgetStatus> = {
  nonNegative: ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'],
  bounded: [],
};
