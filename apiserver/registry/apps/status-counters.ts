/**
 * The /status rules of kinds whose status is counters (apps/v1 workloads, Jobs, disruption budgets):
 * counters not negative, derived counters not above their totals, collisionCount never decremented
 * (ValidateDeploymentStatus, ValidateReplicaSetStatus, ValidateStatefulSetStatus,
 * validateDaemonSetStatus, validateJobStatus, ValidatePodDisruptionBudgetStatusUpdate).
 */
import type { FieldError } from '../../api/field-errors.js';
import { fieldPath, invalid } from '../../api/field-errors.js';
import type { ApiObject } from '../../api/object.js';
import type { SubresourceStrategy } from '../../api/strategy.js';
import { statusSubresource } from '../status-subresource.js';
import { validateNonnegative } from '../core/pod-spec/value-checks.js';

type Counters = Record<string, number | undefined>;

export interface StatusRules {
  /** Counters that may not be negative. */
  nonNegative: readonly string[];
  /** [counter, limit counter, message]: the counter may not exceed the limit. */
  bounded: readonly [string, string, string][];
}

const counters = (obj: ApiObject): Counters => (obj.status ?? {}) as Counters;

/** The status subresource of a kind with these rules. */
export function statusCountersSubresource(rules: StatusRules): SubresourceStrategy {
  return {
    prepareForUpdate: statusSubresource.prepareForUpdate,
    validateUpdate(obj, old) {
      const s = counters(obj);
      const path = fieldPath('status');
      const errs: FieldError[] = [];
      for (const field of rules.nonNegative) errs.push(...validateNonnegative(s[field], path.child(field)));
      for (const [field, limit, message] of rules.bounded) {
        if ((s[field] ?? 0) > (s[limit] ?? 0)) errs.push(invalid(path.child(field), s[field] ?? 0, message));
      }
      const prev = counters(old).collisionCount;
      if (prev !== undefined && (s.collisionCount === undefined || s.collisionCount < prev)) {
        errs.push(invalid(path.child('collisionCount'), s.collisionCount ?? 0, 'cannot be decremented'));
      }
      return errs;
    },
  };
}

const ABOVE_REPLICAS = 'cannot be greater than status.replicas';

export const deploymentStatusRules: StatusRules = {
  nonNegative: [
    'observedGeneration',
    'replicas',
    'updatedReplicas',
    'readyReplicas',
    'availableReplicas',
    'unavailableReplicas',
    'collisionCount',
  ],
  bounded: [
    ['updatedReplicas', 'replicas', ABOVE_REPLICAS],
    ['readyReplicas', 'replicas', ABOVE_REPLICAS],
    ['availableReplicas', 'replicas', ABOVE_REPLICAS],
    ['availableReplicas', 'readyReplicas', 'cannot be greater than readyReplicas'],
  ],
};

export const replicaSetStatusRules: StatusRules = {
  nonNegative: ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'],
  bounded: [
    ['fullyLabeledReplicas', 'replicas', ABOVE_REPLICAS],
    ['readyReplicas', 'replicas', ABOVE_REPLICAS],
    ['availableReplicas', 'replicas', ABOVE_REPLICAS],
    ['availableReplicas', 'readyReplicas', 'cannot be greater than readyReplicas'],
  ],
};

export const statefulSetStatusRules: StatusRules = {
  nonNegative: [
    'replicas',
    'readyReplicas',
    'currentReplicas',
    'updatedReplicas',
    'availableReplicas',
    'observedGeneration',
    'collisionCount',
  ],
  bounded: [
    ['readyReplicas', 'replicas', ABOVE_REPLICAS],
    ['currentReplicas', 'replicas', ABOVE_REPLICAS],
    ['updatedReplicas', 'replicas', ABOVE_REPLICAS],
    ['availableReplicas', 'replicas', ABOVE_REPLICAS],
    ['availableReplicas', 'readyReplicas', 'cannot be greater than status.readyReplicas'],
  ],
};

export const daemonSetStatusRules: StatusRules = {
  nonNegative: [
    'currentNumberScheduled',
    'numberMisscheduled',
    'desiredNumberScheduled',
    'numberReady',
    'observedGeneration',
    'updatedNumberScheduled',
    'numberAvailable',
    'numberUnavailable',
    'collisionCount',
  ],
  bounded: [],
};
