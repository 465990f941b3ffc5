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
 * Kubernetes. Which controller runs as which account its descriptor says (`serviceAccount` in
 * controllers/<folder>/descriptor.ts; the API server never imports the controllers, so the rules
 * stay here, and a test holds the two together).
 */
import { builtInSigners } from '../../../api/certificates/signers.js';
import type { ApiDomain } from '../../../api/domain.js';
import type { Binding, ClusterRole } from '../types.js';
import { eventsRule } from './cluster-roles.js';
import { policyGroups } from './groups.js';
import { READ, rule } from './rule-builder.js';

export const CONTROLLER_ROLE_PREFIX = 'system:controller:';

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
    // The workload and cluster controllers, with Kubernetes 1.28's controller policy for each.
    role('replicaset-controller', [
      rule(['get', 'list', 'watch', 'update'], [g.apps, g.extensions], ['replicasets']),
      rule(['update'], [g.apps, g.extensions], ['replicasets/status', 'replicasets/finalizers']),
      rule(['list', 'watch', 'patch', 'create', 'delete'], [g.legacy], ['pods']),
      eventsRule(g),
    ]),
    role('replication-controller', [
      rule(['get', 'list', 'watch', 'update'], [g.legacy], ['replicationcontrollers']),
      rule(['update'], [g.legacy], ['replicationcontrollers/status', 'replicationcontrollers/finalizers']),
      rule(['list', 'watch', 'patch', 'create', 'delete'], [g.legacy], ['pods']),
      eventsRule(g),
    ]),
    role('deployment-controller', [
      rule(['get', 'list', 'watch', 'update'], [g.apps, g.extensions], ['deployments']),
      rule(['update'], [g.apps, g.extensions], ['deployments/status', 'deployments/finalizers']),
      rule(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'], [g.apps, g.extensions], ['replicasets']),
      rule(['get', 'list', 'watch', 'update'], [g.legacy], ['pods']),
      eventsRule(g),
    ]),
    role('endpoint-controller', [
      rule(READ, [g.legacy], ['services', 'pods']),
      rule(['get', 'list', 'create', 'update', 'delete'], [g.legacy], ['endpoints']),
      rule(['create'], [g.legacy], ['endpoints/restricted']),
      eventsRule(g),
    ]),
    role('endpointslice-controller', [
      rule(READ, [g.legacy], ['services', 'pods', 'nodes']),
      rule(['get', 'list', 'create', 'update', 'delete'], [g.discovery], ['endpointslices']),
      eventsRule(g),
    ]),
    role('endpointslicemirroring-controller', [
      rule(READ, [g.legacy], ['services', 'endpoints']),
      rule(['get', 'list', 'create', 'update', 'delete'], [g.discovery], ['endpointslices']),
      eventsRule(g),
    ]),
    role('job-controller', [
      rule(['get', 'list', 'watch', 'update', 'patch'], [g.batch], ['jobs']),
      rule(['update'], [g.batch], ['jobs/status', 'jobs/finalizers']),
      rule(['list', 'watch', 'create', 'delete', 'patch'], [g.legacy], ['pods']),
      eventsRule(g),
    ]),
    role('cronjob-controller', [
      rule(['get', 'list', 'watch', 'update'], [g.batch], ['cronjobs']),
      rule(['get', 'list', 'watch', 'create', 'update', 'delete', 'patch'], [g.batch], ['jobs']),
      rule(['update'], [g.batch], ['cronjobs/status', 'cronjobs/finalizers']),
      rule(['list', 'delete'], [g.legacy], ['pods']),
      eventsRule(g),
    ]),
    role('ttl-after-finished-controller', [rule(['get', 'list', 'watch', 'delete'], [g.batch], ['jobs']), eventsRule(g)]),
    role('statefulset-controller', [
      rule(['list', 'watch'], [g.legacy], ['pods']),
      rule(['get', 'create', 'delete', 'update', 'patch'], [g.legacy], ['pods']),
      rule(READ, [g.apps], ['statefulsets']),
      rule(['update'], [g.apps], ['statefulsets/status', 'statefulsets/finalizers']),
      rule(['get', 'create', 'delete', 'update', 'patch', 'list', 'watch'], [g.apps], ['controllerrevisions']),
      rule(['get', 'create'], [g.legacy], ['persistentvolumeclaims']),
      eventsRule(g),
      // StatefulSetAutoDeletePVC (on by default since 1.27): owner references on claims.
      rule(['update', 'delete'], [g.legacy], ['persistentvolumeclaims']),
    ]),
    role('daemon-set-controller', [
      rule(READ, [g.apps, g.extensions], ['daemonsets']),
      rule(['update'], [g.apps, g.extensions], ['daemonsets/status', 'daemonsets/finalizers']),
      rule(['list', 'watch'], [g.legacy], ['nodes']),
      rule(['list', 'watch', 'create', 'delete', 'patch'], [g.legacy], ['pods']),
      rule(['create'], [g.legacy], ['pods/binding']),
      rule(['get', 'list', 'watch', 'create', 'delete', 'update', 'patch'], [g.apps], ['controllerrevisions']),
      eventsRule(g),
    ]),
    role('disruption-controller', [
      rule(READ, [g.apps, g.extensions], ['deployments', 'replicasets', 'statefulsets']),
      rule(READ, [g.legacy], ['replicationcontrollers', 'pods']),
      rule(READ, [g.policy], ['poddisruptionbudgets']),
      rule(['update'], [g.policy], ['poddisruptionbudgets/status']),
      eventsRule(g),
    ]),
    role('resourcequota-controller', [
      rule(['list', 'watch'], ['*'], ['*']),
      rule(['update'], [g.legacy], ['resourcequotas/status']),
      eventsRule(g),
    ]),
    role('pod-garbage-collector', [
      rule(['list', 'watch', 'delete'], [g.legacy], ['pods']),
      rule(['get', 'list'], [g.legacy], ['nodes']),
      rule(['patch', 'update'], [g.legacy], ['pods/status']),
    ]),
    role('node-controller', [
      rule(['get', 'list', 'update', 'delete', 'patch'], [g.legacy], ['nodes']),
      rule(['patch', 'update'], [g.legacy], ['nodes/status', 'pods/status']),
      rule(['list', 'delete'], [g.legacy], ['pods']),
      rule(READ, [g.coordination], ['leases']),
      eventsRule(g),
    ]),
    role('persistent-volume-binder', [
      rule(['get', 'list', 'watch', 'update', 'create', 'delete'], [g.legacy], ['persistentvolumes']),
      rule(['update'], [g.legacy], ['persistentvolumes/status', 'persistentvolumeclaims/status']),
      rule(['get', 'list', 'watch', 'update'], [g.legacy], ['persistentvolumeclaims']),
      rule(['list', 'watch', 'get', 'create', 'delete'], [g.legacy], ['pods']),
      rule(READ, [g.storage], ['storageclasses']),
      eventsRule(g),
    ]),
    role('pvc-protection-controller', [
      rule(['get', 'list', 'watch', 'update'], [g.legacy], ['persistentvolumeclaims']),
      rule(['list', 'watch', 'get'], [g.legacy], ['pods']),
    ]),
    role('pv-protection-controller', [rule(['get', 'list', 'watch', 'update'], [g.legacy], ['persistentvolumes'])]),
    role('ttl-controller', [rule(['update', 'patch', 'list', 'watch'], [g.legacy], ['nodes']), eventsRule(g)]),
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
