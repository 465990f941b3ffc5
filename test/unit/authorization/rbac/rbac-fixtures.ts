/** A PolicyCache filled from plain objects, and request attributes, for the RBAC unit tests. */
import type { Attributes } from '../../../../apiserver/authorization/interfaces.js';
import { PolicyCache } from '../../../../apiserver/authorization/rbac/policy-cache.js';
import type { Binding, ClusterRole, PolicyRule, Role, Subject } from '../../../../apiserver/authorization/rbac/types.js';

export const RBAC_GROUP = 'rbac.authorization.orch.io';

export const role = (namespace: string, name: string, rules: PolicyRule[]): Role => ({ metadata: { namespace, name }, rules });
export const clusterRole = (name: string, rules: PolicyRule[]): ClusterRole => ({ metadata: { name }, rules });
export const binding = (namespace: string, name: string, roleKind: string, roleName: string, subjects: Subject[]): Binding => ({
  metadata: namespace ? { namespace, name } : { name },
  roleRef: { apiGroup: RBAC_GROUP, kind: roleKind, name: roleName },
  subjects,
});
export const user = (name: string): Subject => ({ kind: 'User', apiGroup: RBAC_GROUP, name });
export const group = (name: string): Subject => ({ kind: 'Group', apiGroup: RBAC_GROUP, name });
export const serviceAccount = (name: string, namespace?: string): Subject => ({ kind: 'ServiceAccount', name, namespace });

export function policy(objs: { roles?: Role[]; clusterRoles?: ClusterRole[]; roleBindings?: Binding[]; clusterRoleBindings?: Binding[] }) {
  const cache = new PolicyCache();
  cache.replace('Role', objs.roles ?? []);
  cache.replace('ClusterRole', objs.clusterRoles ?? []);
  cache.replace('RoleBinding', objs.roleBindings ?? []);
  cache.replace('ClusterRoleBinding', objs.clusterRoleBindings ?? []);
  return cache;
}

/** A resource request; `path` set makes it a non-resource one. */
export function request(
  who: { name: string; groups?: string[] },
  verb: string,
  what: { group?: string; resource?: string; subresource?: string; namespace?: string; name?: string; path?: string },
): Attributes {
  return {
    user: { name: who.name, groups: who.groups ?? ['system:authenticated'] },
    verb,
    resourceRequest: what.path === undefined,
    apiGroup: what.group ?? '',
    apiVersion: 'v1',
    resource: what.resource ?? '',
    subresource: what.subresource ?? '',
    namespace: what.namespace ?? '',
    name: what.name ?? '',
    path: what.path ?? '',
  };
}
