/**
 * The /status rules of kinds whose status is counters (apps/v1 workloads, Jobs, disruption budgets):
 * counters not negative, derived counters not above their totals, collisionCount never decremented
 * (ValidateDeploymentStatus, ValidateReplicaSetStatus, ValidateStatefulSetStatus,
 * validateDaemonSetStatus, validateJobStatus, ValidatePodDisruptionBudgetStatusUpdate).
 */
import type { FieldError } from '../../../api/field-errors.js';
import { fieldPath, invalid } from '../../../api/field-errors.js';
import type { SubresourceStrategy } from '../../../api/strategy.js';
import { typedSubresource } from '../../../api/strategy.js';
import type { DaemonSetStatus, DeploymentStatus, ReplicaSetStatus, StatefulSetStatus } from '../../../api/generated/types.js';
import { REQUEST_METADATA, type StatusMetadata, withStatusOf } from '../../generic/status-subresource.js';
import { validateNonnegative } from '../pod-spec/value-checks.js';

/** The number fields of a status `S`. */
type Counter<S> = { [K in keyof S]-?: NonNullable<S[K]> extends number ? K : never }[keyof S] & string;

/** The rules of a status `S` (a generated *Status type), naming only its number fields. */
export interface StatusRules<S> {
  /** Counters that may not be negative. */
  nonNegative: readonly Counter<S>[];
  /** Counters that may not exceed status.replicas; checked before `bounded`. */
  notAboveReplicas?: readonly Counter<S>[];
  /** [counter, limit counter, message]: the counter may not exceed the limit. */
  bounded: readonly [Counter<S>, Counter<S>, string][];
}

/** A status as the rules read it: its counters by name (only number fields are named, see Counter). */
type Counters = Partial<Record<string, number>>;

const ABOVE_REPLICAS = 'cannot be greater than status.replicas';

/** The status subresource of a kind with these rules; `keep`: the request's metadata it keeps (status-subresource.ts). */
export function statusCountersSubresource<S>(rules: StatusRules<S>, keep: StatusMetadata = REQUEST_METADATA): SubresourceStrategy {
  return typedSubresource<{ metadata: object; status?: Counters }>({
    prepareForUpdate: (obj, old) => withStatusOf(obj, old, keep),
    validateUpdate(obj, old) {
      const s = obj.status ?? {};
      const path = fieldPath('status');
      const errs: FieldError[] = [];
      for (const field of rules.nonNegative) errs.push(...validateNonnegative(s[field], path.child(field)));
      const bounded = [...(rules.notAboveReplicas ?? []).map((field) => [field, 'replicas', ABOVE_REPLICAS] as const), ...rules.bounded];
      for (const [field, limit, message] of bounded) {
        if ((s[field] ?? 0) > (s[limit] ?? 0)) errs.push(invalid(path.child(field), s[field] ?? 0, message));
      }
      const prev = old.status?.collisionCount;
      if (prev !== undefined && (s.collisionCount === undefined || s.collisionCount < prev)) {
        errs.push(invalid(path.child('collisionCount'), s.collisionCount ?? 0, 'cannot be decremented'));
      }
      return errs;
    },
  });
}

/** A Deployment's /status keeps the stored labels (deploymentStatusStrategy: `Labels = old.Labels`), the rest of the request's metadata. */
export const DEPLOYMENT_STATUS_METADATA: StatusMetadata = { ...REQUEST_METADATA, labels: false };

export const deploymentStatusRules: StatusRules<DeploymentStatus> = {
  nonNegative: [
    'observedGeneration',
    'replicas',
    'updatedReplicas',
    'readyReplicas',
    'availableReplicas',
    'unavailableReplicas',
    'collisionCount',
  ],
  notAboveReplicas: ['updatedReplicas', 'readyReplicas', 'availableReplicas'],
  bounded: [['availableReplicas', 'readyReplicas', 'cannot be greater than readyReplicas']],
};

export const replicaSetStatusRules: StatusRules<ReplicaSetStatus> = {
  nonNegative: ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration'],
  notAboveReplicas: ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas'],
  bounded: [['availableReplicas', 'readyReplicas', 'cannot be greater than readyReplicas']],
};

export const statefulSetStatusRules: StatusRules<StatefulSetStatus> = {
  nonNegative: [
    'replicas',
    'readyReplicas',
    'currentReplicas',
    'updatedReplicas',
    'availableReplicas',
    'observedGeneration',
    'collisionCount',
  ],
  notAboveReplicas: ['readyReplicas', 'currentReplicas', 'updatedReplicas', 'availableReplicas'],
  bounded: [['availableReplicas', 'readyReplicas', 'cannot be greater than status.readyReplicas']],
};

export const daemonSetStatusRules: StatusRules<DaemonSetStatus> = {
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
