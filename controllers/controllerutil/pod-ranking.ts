/**
 * Which Pods a ReplicaSet removes first when it scales down: Kubernetes' ActivePodsWithRanks order
 * (with PodDeletionCost and LogarithmicScaleDown, both on by default in 1.28). The first Pods of the
 * sorted list go.
 */
import type { Pod } from '../../apiserver/api/generated/types.js';
import { isPodActive, isPodReady, maxContainerRestarts, podNodeName, podReadyTime, podStatus } from './pod-status.js';

/** The annotation that makes a Pod cheaper (lower) or dearer (higher) to delete. */
export function podDeletionCostAnnotation(labelPrefix: string): string {
  return `controller.${labelPrefix}/pod-deletion-cost`;
}

const PHASE_ORDER: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

/** An int32 cost; anything else counts as 0 (the apiserver refuses such values anyway). */
function deletionCost(pod: Pod, annotation: string): number {
  const v = pod.metadata.annotations?.[annotation];
  return v !== undefined && /^[+-]?\d+$/.test(v) ? Number(v) : 0;
}

/** floor(log2(ns since t)), -1 for the future or no time. */
function logRank(t: number, now: number): number {
  const d = (now - t) * 1e6;
  return d > 0 ? Math.floor(Math.log2(d)) : -1;
}

/** afterOrZero: a missing time sorts first, then the later one. */
function afterOrZero(a: number, b: number): boolean {
  if (a === 0 || b === 0) return a === 0;
  return a > b;
}

function timeLess(a: number, b: number, now: number, uidA: string, uidB: string): boolean {
  if (a === 0 || b === 0) return afterOrZero(a, b);
  const diff = logRank(a, now) - logRank(b, now);
  if (diff === 0) return uidA < uidB;
  return diff < 0;
}

/**
 * Sorts `pods` in deletion order. `related` are all the Pods of the controller's family (for the rank:
 * how many active related Pods share each Pod's node).
 */
export function sortPodsForDeletion(pods: Pod[], related: Pod[], labelPrefix: string, now = Date.now()): Pod[] {
  const onNode = new Map<string, number>();
  for (const p of related) if (isPodActive(p)) onNode.set(podNodeName(p), (onNode.get(podNodeName(p)) ?? 0) + 1);
  const annotation = podDeletionCostAnnotation(labelPrefix);
  const facts = pods.map((pod) => ({
    pod,
    node: podNodeName(pod),
    phase: PHASE_ORDER[podStatus(pod).phase ?? ''] ?? 0,
    ready: isPodReady(pod),
    cost: deletionCost(pod, annotation),
    rank: onNode.get(podNodeName(pod)) ?? 0,
    readyAt: podReadyTime(pod),
    restarts: maxContainerRestarts(pod),
    created: pod.metadata.creationTimestamp ? Date.parse(pod.metadata.creationTimestamp) : 0,
    uid: pod.metadata.uid ?? '',
  }));
  type Fact = (typeof facts)[number];
  const less = (i: Fact, j: Fact): boolean => {
    if (i.node !== j.node && (i.node === '' || j.node === '')) return i.node === '';
    if (i.phase !== j.phase) return i.phase < j.phase;
    if (i.ready !== j.ready) return !i.ready;
    if (i.cost !== j.cost) return i.cost < j.cost;
    if (i.rank !== j.rank) return i.rank > j.rank;
    if (i.ready && j.ready && i.readyAt !== j.readyAt) return timeLess(i.readyAt, j.readyAt, now, i.uid, j.uid);
    if (i.restarts !== j.restarts) return i.restarts > j.restarts;
    if (i.created !== j.created) return timeLess(i.created, j.created, now, i.uid, j.uid);
    return false;
  };
  return facts.sort((a, b) => (less(a, b) ? -1 : less(b, a) ? 1 : 0)).map((f) => f.pod);
}
