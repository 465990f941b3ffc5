/** The fields of apps/v1 Deployments and ReplicaSets the deployment controller reads and writes. */
import type { ApiObject } from '../../apiserver/api/object.js';
import type { LabelSelectorObject } from '../../apiserver/runtime/selectors/label-selector.js';
import type { PodTemplate } from '../controllerutil/pod-template.js';

export interface DeploymentCondition {
  type: string;
  status: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface DeploymentSpec {
  replicas?: number;
  selector?: LabelSelectorObject;
  template?: PodTemplate;
  strategy?: { type?: string; rollingUpdate?: { maxSurge?: number | string; maxUnavailable?: number | string } };
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
  paused?: boolean;
  progressDeadlineSeconds?: number;
}

export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  conditions?: DeploymentCondition[];
  collisionCount?: number;
}

export interface ReplicaSetView {
  replicas?: number;
  minReadySeconds?: number;
  selector?: LabelSelectorObject;
  template?: PodTemplate;
}

export interface ReplicaSetStatusView {
  replicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  observedGeneration?: number;
  conditions?: DeploymentCondition[];
}

export const dSpec = (d: ApiObject) => (d.spec ?? {}) as DeploymentSpec;
export const dStatus = (d: ApiObject) => (d.status ?? {}) as DeploymentStatus;
export const rsSpecOf = (rs: ApiObject) => (rs.spec ?? {}) as ReplicaSetView;
export const rsStatusOf = (rs: ApiObject) => (rs.status ?? {}) as ReplicaSetStatusView;
/** spec.replicas of a ReplicaSet (1 when unset, as defaulted). */
export const rsReplicas = (rs: ApiObject) => rsSpecOf(rs).replicas ?? 1;
export const dReplicas = (d: ApiObject) => dSpec(d).replicas ?? 1;
