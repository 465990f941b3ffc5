/**
 * Whether a Pod may run on a Node, as the DaemonSet controller asks the scheduler's predicates: the
 * Pod's nodeSelector and required node affinity match the Node, and the Pod tolerates the Node's
 * NoSchedule and NoExecute taints.
 */
import type { Node, NodeSelectorRequirement, NodeSelectorTerm, PodSpec, Taint, Toleration } from '../../apiserver/api/generated/types.js';

export type { Toleration };

/** What of a Pod's spec decides where it may run. */
export type PodSchedulingSpec = Pick<PodSpec, 'nodeSelector' | 'affinity' | 'tolerations'>;

function requirementMatches(r: NodeSelectorRequirement, get: (key: string) => string | undefined): boolean {
  const v = get(r.key);
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return v !== undefined && values.includes(v);
    case 'NotIn':
      return v === undefined || !values.includes(v);
    case 'Exists':
      return v !== undefined;
    case 'DoesNotExist':
      return v === undefined;
    case 'Gt':
    case 'Lt': {
      if (v === undefined || !/^-?\d+$/.test(v) || values.length !== 1 || !/^-?\d+$/.test(values[0])) return false;
      return r.operator === 'Gt' ? Number(v) > Number(values[0]) : Number(v) < Number(values[0]);
    }
    default:
      return false;
  }
}

/** A term matches when all its requirements do; the terms are ORed; no terms match nothing. */
function termsMatch(terms: NodeSelectorTerm[], node: Node): boolean {
  const labels = node.metadata.labels ?? {};
  return terms.some((t) => {
    const exprs = t.matchExpressions ?? [];
    const fields = t.matchFields ?? [];
    if (exprs.length + fields.length === 0) return false;
    return (
      exprs.every((r) => requirementMatches(r, (k) => labels[k])) &&
      fields.every((r) => requirementMatches(r, (k) => (k === 'metadata.name' ? node.metadata.name : undefined)))
    );
  });
}

/** ToleratesTaint. */
export function tolerates(t: Toleration, taint: Pick<Taint, 'key' | 'value' | 'effect'>): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if ((t.operator ?? 'Equal') === 'Exists') return !t.key || t.key === taint.key;
  return t.key === taint.key && (t.value ?? '') === (taint.value ?? '');
}

/**
 * Whether a Pod with this spec fits the Node by selector, affinity and the taints of the given
 * effects: NoSchedule and NoExecute to start a Pod there, NoExecute alone to keep one running.
 */
export function podFitsNode(spec: PodSchedulingSpec, node: Node, _effects: readonly string[] = ['NoSchedule', 'NoExecute']): boolean {
  const labels = node.metadata.labels ?? {};
  for (const [k, v] of Object.entries(spec.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const terms = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (terms && !termsMatch(terms, node)) return false;
  const taints = (node.spec?.taints ?? []).filter((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute');
  return taints.every((taint) => (spec.tolerations ?? []).some((t) => tolerates(t, taint)));
}
