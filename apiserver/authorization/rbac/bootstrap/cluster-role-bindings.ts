/** The default ClusterRoleBindings of Kubernetes 1.28, to the domain's users, groups and namespaces. */
import type { ApiDomain } from '../../../api/domain.js';
import type { Binding, Subject } from '../types.js';

export const SYSTEM_USERS = {
  kubeControllerManager: 'system:kube-controller-manager',
  kubeScheduler: 'system:kube-scheduler',
  kubeProxy: 'system:kube-proxy',
};

export const SYSTEM_GROUPS = {
  masters: 'system:masters',
  monitoring: 'system:monitoring',
  authenticated: 'system:authenticated',
  unauthenticated: 'system:unauthenticated',
  serviceAccounts: 'system:serviceaccounts',
  nodes: 'system:nodes',
};

export function clusterRoleBindings(domain: ApiDomain): Binding[] {
  const rbacGroup = domain.group('rbac.authorization.k8s.io');
  const groups = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'Group', apiGroup: rbacGroup, name }));
  const users = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'User', apiGroup: rbacGroup, name }));
  const bind = (role: string, subjects: Subject[]): Binding => ({
    metadata: { name: role },
    roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name: role },
    subjects,
  });
  return [
    bind('cluster-admin', groups(SYSTEM_GROUPS.masters)),
    bind('system:monitoring', groups(SYSTEM_GROUPS.monitoring)),
    bind('system:discovery', groups(SYSTEM_GROUPS.authenticated)),
    bind('system:basic-user', groups(SYSTEM_GROUPS.authenticated)),
    bind('system:public-info-viewer', groups(SYSTEM_GROUPS.authenticated, SYSTEM_GROUPS.unauthenticated)),
    bind('system:node-proxier', users(SYSTEM_USERS.kubeProxy)),
    bind('system:kube-controller-manager', users(SYSTEM_USERS.kubeControllerManager)),
    bind('system:kube-dns', [{ kind: 'ServiceAccount', name: 'kube-dns', namespace: domain.systemNamespace }]),
    bind('system:kube-scheduler', users(SYSTEM_USERS.kubeScheduler)),
    bind('system:volume-scheduler', users(SYSTEM_USERS.kubeScheduler)),
    // Kept without subjects (the Node authorizer grants nodes their access), as Kubernetes does.
    bind('system:node', []),
    bind('system:service-account-issuer-discovery', groups(SYSTEM_GROUPS.serviceAccounts)),
  ];
}
