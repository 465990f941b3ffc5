/**
 * The default Roles and RoleBindings of the system namespaces (Kubernetes 1.28's namespace policy,
 * kube-system → the domain's system namespace, kube-public → its public one): leader locking of the
 * components, the bootstrap signer, the token cleaner, and reading `cluster-info` in the public one.
 */
import type { ApiDomain } from '../../../api/domain.js';
import type { Binding, Role, Subject } from '../types.js';
import { eventsRule } from './cluster-roles.js';
import { SYSTEM_USERS } from './cluster-role-bindings.js';
import { CONTROLLER_ROLE_PREFIX } from './controller-roles.js';
import { policyGroups } from './groups.js';
import { componentLeaseNames } from './cluster-roles.js';
import { rule } from './rule-builder.js';

export function namespaceRoles(domain: ApiDomain): Role[] {
  const g = policyGroups(domain);
  const sys = domain.systemNamespace;
  const pub = domain.publicNamespace;
  const leases = componentLeaseNames(domain);
  const role = (namespace: string, name: string, rules: Role['rules']): Role => ({ metadata: { namespace, name }, rules });
  return [
    role(sys, 'extension-apiserver-authentication-reader', [
      rule(['get', 'list', 'watch'], [g.legacy], ['configmaps'], ['extension-apiserver-authentication']),
    ]),
    role(sys, `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, [rule(['get', 'list', 'watch'], [g.legacy], ['secrets'])]),
    role(sys, `${CONTROLLER_ROLE_PREFIX}cloud-provider`, [rule(['create', 'get', 'list', 'watch'], [g.legacy], ['configmaps'])]),
    role(sys, `${CONTROLLER_ROLE_PREFIX}token-cleaner`, [rule(['get', 'list', 'watch', 'delete'], [g.legacy], ['secrets']), eventsRule(g)]),
    role(sys, 'system::leader-locking-kube-controller-manager', [
      rule(['watch'], [g.legacy], ['configmaps']),
      rule(['get', 'update'], [g.legacy], ['configmaps'], [leases.controllerManager]),
    ]),
    role(sys, 'system::leader-locking-kube-scheduler', [
      rule(['watch'], [g.legacy], ['configmaps']),
      rule(['get', 'update'], [g.legacy], ['configmaps'], [leases.scheduler]),
    ]),
    role(pub, `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, [
      rule(['get', 'list', 'watch'], [g.legacy], ['configmaps']),
      rule(['update'], [g.legacy], ['configmaps'], ['cluster-info']),
      eventsRule(g),
    ]),
  ];
}

export function namespaceRoleBindings(domain: ApiDomain): Binding[] {
  const rbacGroup = domain.group('rbac.authorization.k8s.io');
  const sys = domain.systemNamespace;
  const pub = domain.publicNamespace;
  const user = (name: string): Subject => ({ kind: 'User', apiGroup: rbacGroup, name });
  const sa = (name: string): Subject => ({ kind: 'ServiceAccount', name, namespace: sys });
  const bind = (namespace: string, name: string, roleName: string, subjects: Subject[]): Binding => ({
    metadata: { namespace, name },
    roleRef: { apiGroup: rbacGroup, kind: 'Role', name: roleName },
    subjects,
  });
  return [
    bind(sys, 'system::extension-apiserver-authentication-reader', 'extension-apiserver-authentication-reader', [
      user(SYSTEM_USERS.kubeControllerManager),
      user(SYSTEM_USERS.kubeScheduler),
    ]),
    bind(sys, 'system::leader-locking-kube-controller-manager', 'system::leader-locking-kube-controller-manager', [
      user(SYSTEM_USERS.kubeControllerManager),
      sa('kube-controller-manager'),
    ]),
    bind(sys, 'system::leader-locking-kube-scheduler', 'system::leader-locking-kube-scheduler', [
      user(SYSTEM_USERS.kubeScheduler),
      sa('kube-scheduler'),
    ]),
    bind(sys, `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, [sa('bootstrap-signer')]),
    bind(sys, `${CONTROLLER_ROLE_PREFIX}cloud-provider`, `${CONTROLLER_ROLE_PREFIX}cloud-provider`, [sa('cloud-provider')]),
    bind(sys, `${CONTROLLER_ROLE_PREFIX}token-cleaner`, `${CONTROLLER_ROLE_PREFIX}token-cleaner`, [sa('token-cleaner')]),
    bind(pub, `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, `${CONTROLLER_ROLE_PREFIX}bootstrap-signer`, [sa('bootstrap-signer')]),
  ];
}
