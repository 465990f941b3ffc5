/**
 * Reading the revision ledger (the `history` subresource every kind has) in the default policy:
 * the roles `admin`, `edit` and `view` aggregate may `get` the history of exactly what they may
 * `get`. So `view` reads no Secret's history; `edit` and `admin`, which read Secrets, do.
 */
import type { ClusterRole, PolicyRule } from '../types.js';

const AGGREGATED = new Set(['system:aggregate-to-admin', 'system:aggregate-to-edit', 'system:aggregate-to-view']);

/** The roles with, for each aggregated one, `get` on `<resource>/history` of every resource it may get. */
export function withHistoryReads(roles: ClusterRole[]): ClusterRole[] {
  return roles.map((role) =>
    AGGREGATED.has(role.metadata.name ?? '') ? { ...role, rules: [...(role.rules ?? []), ...historyRules(role.rules ?? [])] } : role,
  );
}

/** orch's own role of every authenticated user (bound to system:authenticated, as system:basic-user is). */
export const HISTORY_USER_ROLE = 'system:history-user';

/**
 * Listing `deletedobjects` and creating `restores` of the history group, for every authenticated user:
 * what they answer is authorized inside, per object — a deleted object is listed only to who may
 * `get` its resource's `history` there, and each object a Restore writes is authorized as a `create`
 * of its own resource (as SelfSubjectAccessReview is open to all and answers per user).
 */
export function historyUserRole(historyGroup: string): ClusterRole {
  return {
    metadata: { name: HISTORY_USER_ROLE },
    rules: [
      { verbs: ['list'], apiGroups: [historyGroup], resources: ['deletedobjects'] },
      { verbs: ['create'], apiGroups: [historyGroup], resources: ['restores'] },
    ],
  };
}

function historyRules(rules: PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const r of rules) {
    const verbs = r.verbs ?? [];
    if (!r.resources || !(verbs.includes('get') || verbs.includes('*'))) continue;
    const resources = r.resources.filter((res) => !res.includes('/')).map((res) => `${res}/history`);
    if (resources.length > 0)
      out.push({ verbs: ['get'], apiGroups: r.apiGroups, resources, ...(r.resourceNames ? { resourceNames: r.resourceNames } : {}) });
  }
  return out;
}
