/** A ReplicaSet's status from its Pods (calculateStatus), and the ReplicaFailure condition. */
import type { Pod } from '../../apiserver/api/generated/types.js';
import type { ApiObject } from '../../apiserver/api/object.js';
import { labelSelectorFromObject } from '../../apiserver/runtime/selectors/label-selector.js';
import { isPodAvailable, isPodReady } from '../controllerutil/pod-status.js';

export interface ReplicaSetCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface ReplicaSetStatus {
  replicas: number;
  fullyLabeledReplicas: number;
  readyReplicas: number;
  availableReplicas: number;
  observedGeneration?: number;
  conditions?: ReplicaSetCondition[];
}

export interface ReplicaSetSpec {
  replicas?: number;
  minReadySeconds?: number;
  selector?: { matchLabels?: Record<string, string>; matchExpressions?: { key: string; operator: string; values?: string[] }[] };
  template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: Record<string, unknown> };
}

export function rsSpec(rs: ApiObject): ReplicaSetSpec {
  return (rs.spec ?? {}) as ReplicaSetSpec;
}

export function rsStatus(rs: ApiObject): Partial<ReplicaSetStatus> {
  return (rs.status ?? {}) as Partial<ReplicaSetStatus>;
}

/** The failure that made the last manageReplicas fail, for the ReplicaFailure condition. */
export interface ManageError {
  reason: 'FailedCreate' | 'FailedDelete';
  message: string;
}

/** The status the ReplicaSet should have with these (claimed, active) Pods. */
export function calculateStatus(rs: ApiObject, pods: Pod[], manageError: ManageError | undefined, now = Date.now()): ReplicaSetStatus {
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
  const status: ReplicaSetStatus = {
    replicas: pods.length,
    fullyLabeledReplicas: fullyLabeled,
    readyReplicas: ready,
    availableReplicas: available,
    observedGeneration: rs.metadata.generation,
  };
  if (conditions.length) status.conditions = conditions;
  return status;
}
