/** What controllers read from a Pod's status: readiness, availability, activity (podutil). */
import type { Pod, PodCondition, PodStatus } from '../../apiserver/api/generated/types.js';

export type { PodCondition };

export function podStatus(pod: Pod): PodStatus {
  return pod.status ?? {};
}

export function podNodeName(pod: Pod): string {
  return pod.spec?.nodeName ?? '';
}

function readyCondition(pod: Pod): PodCondition | undefined {
  return podStatus(pod).conditions?.find((c) => c.type === 'Ready');
}

/** IsPodReady: the Ready condition is True. */
export function isPodReady(pod: Pod): boolean {
  return readyCondition(pod)?.status === 'True';
}

/** When the Pod became ready (ms since the epoch), 0 when it is not ready or did not say. */
export function podReadyTime(pod: Pod): number {
  const c = readyCondition(pod);
  return c?.status === 'True' && c.lastTransitionTime ? Date.parse(c.lastTransitionTime) : 0;
}

/** IsPodAvailable: ready for at least minReadySeconds. */
export function isPodAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds === 0) return true;
  const since = podReadyTime(pod);
  return since > 0 && since + minReadySeconds * 1000 <= now;
}

/** IsPodActive: not Succeeded, not Failed, not being deleted. */
export function isPodActive(pod: Pod): boolean {
  const phase = podStatus(pod).phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata.deletionTimestamp;
}

/** IsPodTerminating-free count of restarts: the highest of any container. */
export function maxContainerRestarts(pod: Pod): number {
  const s = podStatus(pod);
  return Math.max(0, ...[...(s.containerStatuses ?? []), ...(s.initContainerStatuses ?? [])].map((c) => c.restartCount ?? 0));
}
