/** A ReplicaSet's status from its Pods (calculateStatus), and the ReplicaFailure condition. */
import type { Pod, ReplicaSetSpec, ReplicaSetStatus } from '../../apiserver/api/generated/types.js';
import { labelSelectorFromObject } from '../../apiserver/runtime/selectors/label-selector.js';
import { isPodAvailable, isPodReady } from '../controllerutil/pod-status.js';
import type { Replicated } from './replicated-kind.js';

/** The status this controller writes: every counter set (a ReplicationController's status has the same fields). */
export type CalculatedStatus = ReplicaSetStatus &
  Required<Pick<ReplicaSetStatus, 'fullyLabeledReplicas' | 'readyReplicas' | 'availableReplicas'>>;

/** The fields both kinds' specs share, read as possibly missing. */
export function rsSpec(rs: Replicated): Pick<Partial<ReplicaSetSpec>, 'replicas' | 'minReadySeconds' | 'template'> {
  return rs.spec ?? {};
}

export function rsStatus(rs: Replicated): Partial<CalculatedStatus> {
  return rs.status ?? {};
}

/** The failure that made the last manageReplicas fail, for the ReplicaFailure condition. */
export interface ManageError {
  reason: 'FailedCreate' | 'FailedDelete';
  message: string;
}

/** The status the ReplicaSet should have with these (claimed, active) Pods. */
export function calculateStatus(rs: Replicated, pods: Pod[], manageError: ManageError | undefined, now = Date.now()): CalculatedStatus {
  const spec = rsSpec(rs);
  const templateLabels = labelSelectorFromObject({ matchLabels: spec.template?.metadata?.labels ?? {} });
  const minReadySeconds = spec.minReadySeconds ?? 0;
  let fullyLabeled = 0;
  let ready = 0;
  let available = 0;
  for (const pod of pods) {
    if (templateLabels.matches(pod.metadata.labels ?? {})) fullyLabeled++;
    if (isPodReady(pod)) {
      ready++;
      if (isPodAvailable(pod, minReadySeconds, now)) available++;
    }
  }
  const previous = rsStatus(rs).conditions ?? [];
  let conditions = previous.filter((c) => c.type !== 'ReplicaFailure');
  const failure = previous.find((c) => c.type === 'ReplicaFailure');
  if (manageError) {
    conditions = [
      ...conditions,
      failure?.reason === manageError.reason && failure.message === manageError.message
        ? failure
        : {
            type: 'ReplicaFailure',
            status: 'True',
            lastTransitionTime: new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z'),
            reason: manageError.reason,
            message: manageError.message,
          },
    ];
  }
  const status: CalculatedStatus = {
    replicas: pods.length,
    fullyLabeledReplicas: fullyLabeled,
    readyReplicas: ready,
    availableReplicas: available,
    observedGeneration: rs.metadata.generation,
  };
  if (conditions.length) status.conditions = conditions;
  return status;
}
