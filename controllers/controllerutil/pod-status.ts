/** What controllers read from a Pod's status: readiness, availability, activity (podutil). */
import type { ApiObject } from '../../apiserver/api/object.js';

export interface PodCondition {
  type?: string;
  status?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface PodStatusView {
  phase?: string;
  conditions?: PodCondition[];
  podIP?: string;
  podIPs?: { ip?: string }[];
  containerStatuses?: { restartCount?: number }[];
  initContainerStatuses?: { restartCount?: number }[];
}

export function podStatus(pod: ApiObject): PodStatusView {
  return (pod.status ?? {}) as PodStatusView;
}

export function podNodeName(pod: ApiObject): string {
  return ((pod.spec as { nodeName?: string } | undefined)?.nodeName ?? '') as string;
}

function readyCondition(pod: ApiObject): PodCondition | undefined {
  return podStatus(pod).conditions?.find((c) => c.type === 'Ready');
}

/** IsPodReady: the Ready condition is True. */
export function isPodReady(pod: ApiObject): boolean {
  return readyCondition(pod)?.status === 'True';
}

/** When the Pod became ready (ms since the epoch), 0 when it is not ready or did not say. */
export function podReadyTime(pod: ApiObject): number {
  const c = readyCondition(pod);
  return c?.status === 'True' && c.lastTransitionTime ? Date.parse(c.lastTransitionTime) : 0;
}

/** IsPodAvailable: ready for at least minReadySeconds. */
export function isPodAvailable(pod: ApiObject, minReadySeconds: number, now: number): boolean {
  if (!isPodReady(pod)) return false;
  if (minReadySeconds === 0) return true;
  const since = podReadyTime(pod);
  return since > 0 && since + minReadySeconds * 1000 <= now;
}

/** IsPodActive: not Succeeded, not Failed, not being deleted. */
export function isPodActive(pod: ApiObject): boolean {
  const phase = podStatus(pod).phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata.deletionTimestamp;
}

/** IsPodTerminating-free count of restarts: the highest of any container. */
export function maxContainerRestarts(pod: ApiObject): number {
  const s = podStatus(pod);
  return Math.max(0, ...[...(s.containerStatuses ?? []), ...(s.initContainerStatuses ?? [])].map((c) => c.restartCount ?? 0));
}
