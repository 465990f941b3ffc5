/** A Deployment's status from its ReplicaSets (calculateStatus) and the rollout conditions (syncRolloutStatus). */
import type { Deployment, ReplicaSet } from '../../apiserver/api/generated/types.js';
import { deepCopy } from '../../apiserver/api/object.js';
import { type DeploymentStatus, dReplicas, dStatus, rsStatusOf } from './deployment-types.js';
import {
  deploymentComplete,
  deploymentProgressing,
  deploymentTimedOut,
  getCondition,
  hasProgressDeadline,
  maxUnavailable,
  newCondition,
  removeCondition,
  setCondition,
  statusSum,
} from './deployment-util.js';

/** calculateStatus: counters from the ReplicaSets, the Available condition. */
export function calculateStatus(allRSs: ReplicaSet[], newRS: ReplicaSet | undefined, d: Deployment, now = Date.now()): DeploymentStatus {
  const available = statusSum(allRSs, 'availableReplicas');
  const total = statusSum(allRSs, 'replicas');
  const old = dStatus(d);
  const status: DeploymentStatus = {
    observedGeneration: d.metadata.generation,
    replicas: total,
    updatedReplicas: newRS ? statusSum([newRS], 'replicas') : 0,
    readyReplicas: statusSum(allRSs, 'readyReplicas'),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, total - available),
  };
  if (old.collisionCount !== undefined) status.collisionCount = old.collisionCount;
  if (old.conditions) status.conditions = deepCopy(old.conditions);
  if (available >= dReplicas(d) - maxUnavailable(d)) {
    setCondition(status, newCondition('Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.', now));
  } else {
    setCondition(
      status,
      newCondition('Available', 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.', now),
    );
  }
  return status;
}

/** syncRolloutStatus' status: calculateStatus plus Progressing (complete, progressing, timed out) and ReplicaFailure. */
export function rolloutStatus(allRSs: ReplicaSet[], newRS: ReplicaSet | undefined, d: Deployment, now = Date.now()): DeploymentStatus {
  const s = calculateStatus(allRSs, newRS, d, now);
  if (!hasProgressDeadline(d)) removeCondition(s, 'Progressing');
  const current = getCondition(s.conditions, 'Progressing');
  const complete = s.replicas === s.updatedReplicas && current?.reason === 'NewReplicaSetAvailable';
  if (hasProgressDeadline(d) && !complete) {
    const name = newRS?.metadata.name ?? '';
    if (deploymentComplete(d, s)) {
      setCondition(
        s,
        newCondition('Progressing', 'True', 'NewReplicaSetAvailable', `ReplicaSet "${name}" has successfully progressed.`, now),
      );
    } else if (deploymentProgressing(d, s)) {
      const c = newCondition('Progressing', 'True', 'ReplicaSetUpdated', `ReplicaSet "${name}" is progressing.`, now);
      if (current?.status === 'True') c.lastTransitionTime = current.lastTransitionTime;
      removeCondition(s, 'Progressing');
      setCondition(s, c);
    } else if (deploymentTimedOut(d, s, now)) {
      setCondition(
        s,
        newCondition('Progressing', 'False', 'ProgressDeadlineExceeded', `ReplicaSet "${name}" has timed out progressing.`, now),
      );
    }
  }
  const failure = allRSs.map((rs) => getCondition(rsStatusOf(rs).conditions, 'ReplicaFailure')).find((c) => c?.status === 'True');
  if (failure) setCondition(s, newCondition('ReplicaFailure', failure.status, failure.reason ?? '', failure.message ?? '', now));
  else removeCondition(s, 'ReplicaFailure');
  return s;
}
