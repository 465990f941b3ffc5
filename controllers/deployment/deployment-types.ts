/**
 * The fields of apps/v1 Deployments and ReplicaSets the deployment controller reads and writes, as
 * the generated kinds hold them. A missing spec or status reads as empty, and the spec's required
 * fields (selector, template) as possibly missing: the controller still checks for them.
 */
import type {
  Deployment,
  DeploymentSpec,
  DeploymentStatus,
  ReplicaSet,
  ReplicaSetSpec,
  ReplicaSetStatus,
} from '../../apiserver/api/generated/types.js';

export type { DeploymentCondition, DeploymentStatus } from '../../apiserver/api/generated/types.js';

export const dSpec = (d: Deployment): Partial<DeploymentSpec> => d.spec ?? {};
export const dStatus = (d: Deployment): DeploymentStatus => d.status ?? {};
export const rsSpecOf = (rs: ReplicaSet): Partial<ReplicaSetSpec> => rs.spec ?? {};
export const rsStatusOf = (rs: ReplicaSet): Partial<ReplicaSetStatus> => rs.status ?? {};
/** spec.replicas of a ReplicaSet (1 when unset, as defaulted). */
export const rsReplicas = (rs: ReplicaSet) => rsSpecOf(rs).replicas ?? 1;
export const dReplicas = (d: Deployment) => dSpec(d).replicas ?? 1;
