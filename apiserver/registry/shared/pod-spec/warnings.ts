/**
 * Warnings Kubernetes returns for a Pod or a pod template (pkg/api/pod/warnings.go, the part on
 * scheduling and annotations): deprecated node labels in the node selector, node affinity and
 * topology spread constraints, a topology spread constraint without a label selector, and
 * annotations that no longer do anything. Label and annotation keys are under the domain's label
 * prefix (kubernetes.io in Kubernetes), written here with Kubernetes' own and renamed per domain.
 */
import { type FieldPath, fieldPath } from '../../../api/field-errors.js';
import type { StrategyContext } from '../../../api/strategy.js';

const DEPRECATED_NODE_LABELS: Record<string, string> = {
  'beta.kubernetes.io/arch': 'deprecated since v1.14; use "kubernetes.io/arch" instead',
  'beta.kubernetes.io/os': 'deprecated since v1.14; use "kubernetes.io/os" instead',
  'failure-domain.beta.kubernetes.io/region': 'deprecated since v1.17; use "topology.kubernetes.io/region" instead',
  'failure-domain.beta.kubernetes.io/zone': 'deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
  'beta.kubernetes.io/instance-type': 'deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
};

const DEPRECATED_ANNOTATIONS: Record<string, string> = {
  'scheduler.alpha.kubernetes.io/critical-pod': 'non-functional in v1.16+; use the "priorityClassName" field instead',
  'security.alpha.kubernetes.io/sysctls': 'non-functional in v1.11+; use the "sysctls" field instead',
  'security.alpha.kubernetes.io/unsafe-sysctls': 'non-functional in v1.11+; use the "sysctls" field instead',
};

interface NodeSelectorTerm {
  matchExpressions?: { key?: string }[];
  matchFields?: { key?: string }[];
}

interface WarnedSpec {
  nodeSelector?: Record<string, string>;
  affinity?: {
    nodeAffinity?: {
      requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] };
      preferredDuringSchedulingIgnoredDuringExecution?: { preference?: NodeSelectorTerm }[];
    };
  };
  topologySpreadConstraints?: { topologyKey?: string; labelSelector?: unknown }[];
}

/** A Pod or pod template: its metadata and spec. */
interface PodLike {
  metadata?: { annotations?: Record<string, string> };
  spec?: WarnedSpec;
}

/** A table's keys and texts with kubernetes.io renamed to the domain's label prefix. */
function underPrefix(table: Record<string, string>, labelPrefix: string): Record<string, string> {
  const rename = (s: string) => s.replaceAll('kubernetes.io', labelPrefix);
  return Object.fromEntries(Object.entries(table).map(([k, v]) => [rename(k), rename(v)]));
}

const tables = new Map<string, { labels: Record<string, string>; annotations: Record<string, string> }>();

function tablesFor(labelPrefix: string) {
  let t = tables.get(labelPrefix);
  if (!t) {
    t = { labels: underPrefix(DEPRECATED_NODE_LABELS, labelPrefix), annotations: underPrefix(DEPRECATED_ANNOTATIONS, labelPrefix) };
    tables.set(labelPrefix, t);
  }
  return t;
}

function termWarnings(labels: Record<string, string>, term: NodeSelectorTerm | undefined, at: FieldPath): string[] {
  const out: string[] = [];
  (term?.matchExpressions ?? []).forEach((e, i) => {
    const msg = labels[e.key ?? ''];
    if (msg) out.push(`${at.child('matchExpressions').index(i).child('key')}: ${e.key} is ${msg}`);
  });
  return out;
}

/** The warnings for a Pod (`prefix` undefined) or the pod template at `prefix` (spec.template). */
export function podWarnings(
  podOrTemplate: { metadata?: object; spec?: object } | undefined,
  labelPrefix: string,
  prefix?: FieldPath,
): string[] {
  const pod = (podOrTemplate ?? {}) as PodLike;
  const { labels, annotations: deprecatedAnnotations } = tablesFor(labelPrefix);
  const at = (...names: string[]) => (prefix ? prefix.child(names[0]!, ...names.slice(1)) : fieldPath(names[0]!, ...names.slice(1)));
  const spec = pod.spec ?? {};
  const out: string[] = [];
  for (const key of Object.keys(spec.nodeSelector ?? {})) {
    const msg = labels[key];
    if (msg) out.push(`${at('spec', 'nodeSelector').key(key)}: ${msg}`);
  }
  const node = spec.affinity?.nodeAffinity;
  (node?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []).forEach((term, i) => {
    const termPath = at('spec', 'affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms').index(i);
    out.push(...termWarnings(labels, term, termPath));
  });
  (node?.preferredDuringSchedulingIgnoredDuringExecution ?? []).forEach((p, i) => {
    const prefPath = at('spec', 'affinity', 'nodeAffinity', 'preferredDuringSchedulingIgnoredDuringExecution').index(i).child('preference');
    out.push(...termWarnings(labels, p.preference, prefPath));
  });
  (spec.topologySpreadConstraints ?? []).forEach((t, i) => {
    const tPath = at('spec', 'topologySpreadConstraints').index(i);
    const msg = labels[t.topologyKey ?? ''];
    if (msg) out.push(`${tPath.child('topologyKey')}: ${t.topologyKey} is ${msg}`);
    if (t.labelSelector === undefined || t.labelSelector === null)
      out.push(`${tPath.child('labelSelector')}: a null labelSelector results in matching no pod`);
  });
  const annotations = pod.metadata?.annotations ?? {};
  for (const [key, msg] of Object.entries(deprecatedAnnotations))
    if (key in annotations) out.push(`${at('metadata', 'annotations').key(key)}: ${msg}`);
  return out;
}

/** A workload's warnings on create: its pod template's, at spec.template. */
export function templateWarningsOnCreate(obj: { spec?: { template?: object } }, ctx: StrategyContext): string[] {
  return podWarnings(obj.spec?.template, ctx.domain.labelPrefix, fieldPath('spec', 'template'));
}

/** A workload's warnings on update: its pod template's, when the template changed (Kubernetes: when the generation moved). */
export function templateWarningsOnUpdate(
  obj: { spec?: { template?: object } },
  old: { spec?: { template?: object } },
  ctx: StrategyContext,
): string[] {
  if (JSON.stringify(obj.spec?.template) === JSON.stringify(old.spec?.template)) return [];
  return templateWarningsOnCreate(obj, ctx);
}
