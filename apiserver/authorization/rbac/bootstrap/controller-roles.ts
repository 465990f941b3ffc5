/**
 * One `system:controller:<name>` ClusterRole and ClusterRoleBinding per controller orch runs, with
 * the rules of Kubernetes 1.28's controller policy for it, bound — as Kubernetes binds them — to the
 * controller's ServiceAccount in the system namespace. The rules cover what the controllers in
 * controllers/ call: the namespace controller lists and deletes everything in a namespace and
 * finalizes it; the garbage collector reads owners and deletes or patches dependents; the
 * ServiceAccount controller creates `default`; the root CA publisher creates and updates its
 * ConfigMap; the aggregation controller updates aggregated ClusterRoles (hence `escalate`); the
 * certificate controllers (signing, approving, cleaning) share Kubernetes' certificate-controller
 * account; the bootstrap signer and token cleaner have namespaced Roles (namespace-roles.ts). The
 * service-account token controller signs tokens and runs as the controller manager itself, as in
 * Kubernetes.
 */
import { builtInSigners } from '../../../api/certificates/signers.js';
import type { ApiDomain } from '../../../api/domain.js';
import type { Binding, ClusterRole } from '../types.js';
import { eventsRule } from './cluster-roles.js';
import { policyGroups } from './groups.js';
import { rule } from './rule-builder.js';

export const CONTROLLER_ROLE_PREFIX = 'system:controller:';

/** The ServiceAccount name of each controller orch runs, by the controller manager's name for it. */
export const CONTROLLER_ACCOUNTS: Record<string, string> = {
  'namespace-controller': 'namespace-controller',
  'garbage-collector-controller': 'generic-garbage-collector',
  'serviceaccount-controller': 'service-account-controller',
  'root-ca-certificate-publisher-controller': 'root-ca-cert-publisher',
  'clusterrole-aggregation-controller': 'clusterrole-aggregation-controller',
  'certificatesigningrequest-approving-controller': 'certificate-controller',
  'certificatesigningrequest-cleaner-controller': 'certificate-controller',
  'certificatesigningrequest-signing-controller': 'certificate-controller',
  'bootstrap-signer-controller': 'bootstrap-signer',
  'token-cleaner-controller': 'token-cleaner',
  'legacy-serviceaccount-token-cleaner-controller': 'legacy-service-account-token-cleaner',
};

export function controllerRoles(domain: ApiDomain): ClusterRole[] {
  const g = policyGroups(domain);
  const role = (account: string, rules: ClusterRole['rules']): ClusterRole => ({
    metadata: { name: CONTROLLER_ROLE_PREFIX + account },
    rules,
  });
  const signers = builtInSigners(domain);
  return [
    role('certificate-controller', [
      rule(['get', 'list', 'watch', 'delete'], [g.certificates], ['certificatesigningrequests']),
      rule(['update'], [g.certificates], ['certificatesigningrequests/status', 'certificatesigningrequests/approval']),
      rule(['approve'], [g.certificates], ['signers'], [signers.apiServerClientNode]),
      rule(
        ['sign'],
        [g.certificates],
        ['signers'],
        [signers.legacyUnknown, signers.apiServerClient, signers.apiServerClientNode, signers.nodeServing],
      ),
      rule(['create'], [g.authorization], ['subjectaccessreviews']),
      eventsRule(g),
    ]),
    role('legacy-service-account-token-cleaner', [
      rule(
        ['get'],
        [g.legacy],
        ['configmaps'],
        [`${domain.systemNamespace.replace(/-system$/, '')}-apiserver-legacy-service-account-token-tracking`],
      ),
      rule(['delete'], [g.legacy], ['secrets']),
    ]),
    role('clusterrole-aggregation-controller', [rule(['escalate', 'get', 'list', 'watch', 'update', 'patch'], [g.rbac], ['clusterroles'])]),
    role('generic-garbage-collector', [rule(['get', 'list', 'watch', 'patch', 'update', 'delete'], ['*'], ['*']), eventsRule(g)]),
    role('namespace-controller', [
      rule(['get', 'list', 'watch', 'delete'], [g.legacy], ['namespaces']),
      rule(['update'], [g.legacy], ['namespaces/finalize', 'namespaces/status']),
      rule(['get', 'list', 'delete', 'deletecollection'], ['*'], ['*']),
    ]),
    role('service-account-controller', [rule(['create'], [g.legacy], ['serviceaccounts']), eventsRule(g)]),
    role('root-ca-cert-publisher', [rule(['create', 'update'], [g.legacy], ['configmaps']), eventsRule(g)]),
  ];
}

export function controllerRoleBindings(domain: ApiDomain): Binding[] {
  const rbacGroup = domain.group('rbac.authorization.k8s.io');
  return controllerRoles(domain).map((r) => {
    const name = r.metadata.name!;
    return {
      metadata: { name },
      roleRef: { apiGroup: rbacGroup, kind: 'ClusterRole', name },
      subjects: [{ kind: 'ServiceAccount', name: name.slice(CONTROLLER_ROLE_PREFIX.length), namespace: domain.systemNamespace }],
    };
  });
}
