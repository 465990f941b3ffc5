/**
 * The taint manager's decision (NoExecute taint eviction): a Pod bound to a Node is evicted when the
 * Node has a NoExecute taint the Pod does not tolerate, or once the shortest tolerationSeconds of the
 * tolerations it relies on has passed since the taint was added.
 */
import type { Node, Pod } from '../../apiserver/api/generated/types.js';
import { tolerates } from '../controllerutil/node-eligibility.js';

/** When to evict the Pod (epoch ms; ≤ now means now), or undefined to leave it. */
export function evictionTime(pod: Pod, node: Node, now: number): number | undefined {
  const taints = (node.spec?.taints ?? []).filter((t) => t.effect === 'NoExecute');
  if (taints.length === 0) return undefined;
  const tolerations = (pod.spec?.tolerations ?? []).filter((t) => !t.effect || t.effect === 'NoExecute');
  let at: number | undefined;
  for (const taint of taints) {
    const matching = tolerations.filter((t) => tolerates(t, taint));
    if (matching.length === 0) return now;
    const limited = matching.filter((t) => t.tolerationSeconds !== undefined);
    if (limited.length < matching.length) continue; // tolerated forever
    const seconds = Math.max(0, Math.min(...limited.map((t) => t.tolerationSeconds!)));
    const parsed = Date.parse(taint.timeAdded ?? '');
    const added = Number.isNaN(parsed) ? now : parsed;
    at = Math.min(at ?? Number.POSITIVE_INFINITY, added + seconds * 1000);
  }
  return at;
}
