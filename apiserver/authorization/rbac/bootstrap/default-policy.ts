/**
 * The whole default policy of a domain, every object labelled `<prefix>/bootstrapping=rbac-defaults`
 * and annotated `rbac.authorization.<prefix>/autoupdate=true` (setting it to "false" on an object
 * keeps reconciliation off it).
 */
import { HISTORY_USER_ROLE, historyUserRole, withHistoryReads } from './history-rules.js';
import type { ApiDomain } from '../../../api/domain.js';
import type { Binding, ClusterRole, Role } from '../types.js';
import { clusterRoleBindings, SYSTEM_GROUPS } from './cluster-role-bindings.js';
import { clusterRoles } from './cluster-roles.js';
import { controllerRoleBindings, controllerRoles } from './controller-roles.js';
import { namespaceRoleBindings, namespaceRoles } from './namespace-roles.js';

export interface DefaultPolicy {
  clusterRoles: ClusterRole[];
  clusterRoleBindings: Binding[];
  roles: Role[];
  roleBindings: Binding[];
}

/** `<prefix>/bootstrapping` and `rbac.authorization.<prefix>/autoupdate` of the domain. */
export function bootstrapKeys(domain: ApiDomain) {
  return { label: `${domain.labelPrefix}/bootstrapping`, autoUpdate: `rbac.authorization.${domain.labelPrefix}/autoupdate` };
}

/** system:history-user bound to every authenticated user. */
function historyUserBinding(domain: ApiDomain): Binding {
  const rbacGroup = domain.group('rbac.authorization.k8s.io');
  return {
    metadata: { name: HISTORY_USER_ROLE },
    roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: HISTORY_USER_ROLE },
    subjects: [{ kind: 'Group', apiGroup: rbacGroup, name: SYSTEM_GROUPS.authenticated }],
  };
}

export function defaultPolicy(domain: ApiDomain): DefaultPolicy {
  const keys = bootstrapKeys(domain);
  const mark = <T extends Role | Binding>(o: T): T => {
    o.metadata.labels = { ...o.metadata.labels, [keys.label]: 'rbac-defaults' };
    o.metadata.annotations = { ...o.metadata.annotations, [keys.autoUpdate]: 'true' };
    return o;
  };
  return {
    clusterRoles: [
      ...withHistoryReads(clusterRoles(domain)),
      historyUserRole(domain.group('history.k8s.io')),
      ...controllerRoles(domain),
    ].map(mark),
    clusterRoleBindings: [...clusterRoleBindings(domain), historyUserBinding(domain), ...controllerRoleBindings(domain)].map(mark),
    roles: namespaceRoles(domain).map(mark),
    roleBindings: namespaceRoleBindings(domain).map(mark),
  };
}
