/**
 * Reconciliation of a default role or binding with what is stored (Kubernetes' reconcile_role.go /
 * reconcile_rolebindings.go, the additive mode the API server runs at every start): labels and
 * annotations merged (stored values win), missing rules, aggregation selectors and subjects added,
 * nothing a user added removed. An object annotated autoupdate=false is left alone; a binding whose
 * roleRef differs is recreated.
 */
import type { Binding, ClusterRole, Subject } from '../types.js';
import { uncoveredRules } from '../policy-comparator.js';

export type Reconciliation<T> = { op: 'none' } | { op: 'create'; object: T } | { op: 'update'; object: T } | { op: 'recreate'; object: T };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function mergeMeta<T extends ClusterRole | Binding>(expected: T, existing: T): { object: T; changed: boolean } {
  const object = JSON.parse(JSON.stringify(existing)) as T;
  object.metadata.labels = { ...expected.metadata.labels, ...existing.metadata.labels };
  object.metadata.annotations = { ...expected.metadata.annotations, ...existing.metadata.annotations };
  const changed =
    !same(object.metadata.labels, existing.metadata.labels ?? {}) ||
    !same(object.metadata.annotations, existing.metadata.annotations ?? {});
  return { object, changed };
}

const isProtected = (o: ClusterRole | Binding, autoUpdateKey: string) => o.metadata.annotations?.[autoUpdateKey] === 'false';

/** A Role or ClusterRole. */
export function reconcileRole(
  expected: ClusterRole,
  existing: ClusterRole | undefined,
  autoUpdateKey: string,
): Reconciliation<ClusterRole> {
  if (!existing) return { op: 'create', object: expected };
  if (isProtected(existing, autoUpdateKey)) return { op: 'none' };
  let { object, changed } = mergeMeta(expected, existing);
  const missing = uncoveredRules(existing.rules ?? [], expected.rules ?? []);
  if (missing.length > 0) {
    object.rules = [...(object.rules ?? []), ...missing];
    changed = true;
  }
  const want = expected.aggregationRule?.clusterRoleSelectors ?? [];
  if (!expected.aggregationRule && existing.aggregationRule) {
    delete object.aggregationRule;
    changed = true;
  } else {
    const have = existing.aggregationRule?.clusterRoleSelectors ?? [];
    const missingSelectors = want.filter((w) => !have.some((h) => same(h, w)));
    if (missingSelectors.length > 0) {
      object.aggregationRule = { ...object.aggregationRule, clusterRoleSelectors: [...have, ...missingSelectors] };
      changed = true;
    }
  }
  return changed ? { op: 'update', object } : { op: 'none' };
}

const subjectId = (s: Subject) => JSON.stringify([s.kind ?? '', s.apiGroup ?? '', s.name ?? '', s.namespace ?? '']);

/** A RoleBinding or ClusterRoleBinding. */
export function reconcileBinding(expected: Binding, existing: Binding | undefined, autoUpdateKey: string): Reconciliation<Binding> {
  if (!existing) return { op: 'create', object: expected };
  if (isProtected(existing, autoUpdateKey)) return { op: 'none' };
  if (!same(expected.roleRef, { apiGroup: existing.roleRef.apiGroup, kind: existing.roleRef.kind, name: existing.roleRef.name })) {
    return { op: 'recreate', object: expected };
  }
  let { object, changed } = mergeMeta(expected, existing);
  const have = new Set((existing.subjects ?? []).map(subjectId));
  const missing = (expected.subjects ?? []).filter((s) => !have.has(subjectId(s)));
  if (missing.length > 0) {
    object.subjects = [...(object.subjects ?? []), ...missing];
    changed = true;
  }
  return changed ? { op: 'update', object } : { op: 'none' };
}
