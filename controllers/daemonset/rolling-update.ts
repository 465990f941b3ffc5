/**
 * A DaemonSet's RollingUpdate (Kubernetes' daemon/update.go rollingUpdate): without maxSurge, old
 * Pods are deleted — unavailable ones at once, available ones while fewer than maxUnavailable Nodes
 * are unavailable — and the manage loop puts new ones in their place; with maxSurge, a new Pod is
 * created beside an old one (at once where the old one is unavailable, on at most maxSurge Nodes
 * otherwise) and the old one is deleted once the new one is available, so availability never drops.
 */
import type { DaemonSetUpdateStrategy, Pod } from '../../apiserver/api/generated/types.js';
import { REVISION_LABEL } from '../controllerutil/controller-history.js';
import { scaledValue } from '../controllerutil/int-or-percent.js';
import { isPodAvailable, isPodReady } from '../controllerutil/pod-status.js';

export type DaemonSetStrategy = DaemonSetUpdateStrategy;

/** What one sync of the update may do. */
export interface UpdateStep {
  remove: Pod[];
  /** Nodes that get a new Pod beside their old one (surge). */
  create: string[];
}

/** maxSurge and maxUnavailable out of `desired` Nodes (updatedDesiredNodeCounts): one of them is at least 1. */
export function updateBudget(strategy: DaemonSetStrategy | undefined, desired: number): { maxSurge: number; maxUnavailable: number } {
  if ((strategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') return { maxSurge: 0, maxUnavailable: 0 };
  const maxSurge = scaledValue(strategy?.rollingUpdate?.maxSurge, desired, true);
  const maxUnavailable = scaledValue(strategy?.rollingUpdate?.maxUnavailable, desired, true, 1);
  return { maxSurge, maxUnavailable: maxSurge === 0 && maxUnavailable === 0 ? 1 : maxUnavailable };
}

/** True when the strategy surges (AllowsSurge). */
export function allowsSurge(strategy: DaemonSetStrategy | undefined): boolean {
  return updateBudget(strategy, 1).maxSurge > 0;
}

/**
 * The running daemon Pods of one Node (oldest first) that are too many (podsShouldBeOnNode): all but
 * the oldest; with surge, the oldest old and the oldest new Pod may share the Node until the new one is
 * available, or the old one stops being ready.
 */
export function excessPods(running: Pod[], hash: string, surge: boolean, minReadySeconds: number, now: number): Pod[] {
  if (running.length <= 1) return [];
  if (!surge) return running.slice(1);
  let oldestNew: Pod | undefined;
  let oldestOld: Pod | undefined;
  const excess: Pod[] = [];
  for (const pod of running) {
    if (pod.metadata.labels?.[REVISION_LABEL] === hash) {
      if (!oldestNew) oldestNew = pod;
      else excess.push(pod);
    } else if (!oldestOld) oldestOld = pod;
    else excess.push(pod);
  }
  if (oldestNew && oldestOld && (!isPodReady(oldestOld) || isPodAvailable(oldestNew, minReadySeconds, now))) excess.push(oldestOld);
  return excess;
}

/** The one new and one old Pod of a Node, or undefined when it has more (findUpdatedPodsOnNode). */
function podsOnNode(pods: Pod[], hash: string): { newPod?: Pod; oldPod?: Pod } | undefined {
  let newPod: Pod | undefined;
  let oldPod: Pod | undefined;
  for (const pod of pods) {
    if (pod.metadata.labels?.[REVISION_LABEL] === hash) {
      if (newPod) return undefined;
      newPod = pod;
    } else {
      if (oldPod) return undefined;
      oldPod = pod;
    }
  }
  return { newPod, oldPod };
}

export interface UpdateInput {
  strategy: DaemonSetStrategy | undefined;
  /** Nodes that should run the daemon Pod. */
  eligible: Set<string>;
  /** Each Node's live daemon Pods (not being deleted, not already to be removed); eligible Nodes without one may be absent. */
  byNode: Map<string, Pod[]>;
  hash: string;
  minReadySeconds: number;
  now: number;
}

/** What the rolling update does in this sync. */
export function rollingUpdate(input: UpdateInput): UpdateStep {
  if ((input.strategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') return { remove: [], create: [] };
  const { maxSurge, maxUnavailable } = updateBudget(input.strategy, input.eligible.size);
  const nodes = new Set([...input.eligible, ...input.byNode.keys()]);
  const available = (pod: Pod) => isPodAvailable(pod, input.minReadySeconds, input.now);
  return maxSurge === 0 ? withoutSurge(input, nodes, maxUnavailable, available) : withSurge(input, nodes, maxSurge, available);
}

function withoutSurge(input: UpdateInput, nodes: Set<string>, maxUnavailable: number, available: (p: Pod) => boolean): UpdateStep {
  let unavailable = 0;
  const replacements: Pod[] = [];
  const candidates: Pod[] = [];
  for (const node of nodes) {
    const found = podsOnNode(input.byNode.get(node) ?? [], input.hash);
    if (!found || !found.oldPod === !found.newPod) {
      // Several Pods, none, or an old and a new one: the manage loop acts; the Node counts as unavailable.
      unavailable++;
      continue;
    }
    if (found.newPod) {
      if (!available(found.newPod)) unavailable++;
      continue;
    }
    if (!available(found.oldPod!)) replacements.push(found.oldPod!);
    else if (unavailable < maxUnavailable) candidates.push(found.oldPod!);
  }
  const budget = Math.min(Math.max(0, maxUnavailable - unavailable), candidates.length);
  return { remove: [...replacements, ...candidates.slice(0, budget)], create: [] };
}

function withSurge(input: UpdateInput, nodes: Set<string>, maxSurge: number, available: (p: Pod) => boolean): UpdateStep {
  const remove: Pod[] = [];
  const notToRun: Pod[] = [];
  const replaceNow: string[] = [];
  const candidates: string[] = [];
  let surging = 0;
  let numAvailable = 0;
  for (const node of nodes) {
    const found = podsOnNode(input.byNode.get(node) ?? [], input.hash);
    if (!found) {
      surging++;
      continue;
    }
    const { newPod, oldPod } = found;
    if (oldPod ? available(oldPod) : newPod && available(newPod)) numAvailable++;
    if (!oldPod) continue;
    if (!newPod) {
      if (!available(oldPod)) {
        if (input.eligible.has(node)) replaceNow.push(node);
        else remove.push(oldPod);
      } else if (!input.eligible.has(node)) notToRun.push(oldPod);
      else if (surging < maxSurge) candidates.push(node);
      continue;
    }
    // Surged here already: the old Pod goes once the new one is available.
    if (available(newPod)) remove.push(oldPod);
    else surging++;
  }
  // Pods on Nodes that should not run them go only while enough others are available.
  remove.push(...notToRun.slice(0, Math.max(0, numAvailable - input.eligible.size)));
  const budget = Math.min(Math.max(0, maxSurge - surging), candidates.length);
  return { remove, create: [...replaceNow, ...candidates.slice(0, budget)] };
}
