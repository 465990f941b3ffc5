/**
 * The default ClusterRoles, from Kubernetes 1.28's bootstrap policy (feature-gated alpha roles left
 * out), with group names, labels and system names mapped by the API domain.
 */
import { builtInSigners } from '../../../api/certificates/signers.js';
import type { ApiDomain } from '../../../api/domain.js';
import type { ClusterRole, PolicyRule } from '../types.js';
import { policyGroups, type PolicyGroups } from './groups.js';
import { READ, READ_UPDATE, READ_WRITE, WRITE, rule, urls } from './rule-builder.js';

/** Who may write events (eventsRule). */
export const eventsRule = (g: PolicyGroups): PolicyRule => rule(['create', 'update', 'patch'], [g.legacy, g.events], ['events']);

/** The label that makes a ClusterRole part of `admin`, `edit` or `view`. */
export const aggregateLabel = (domain: ApiDomain, to: 'admin' | 'edit' | 'view') =>
  `${domain.group('rbac.authorization.k8s.io')}/aggregate-to-${to}`;

const role = (name: string, rules: PolicyRule[], extra: Partial<ClusterRole> = {}): ClusterRole => ({
  ...extra,
  metadata: { name, ...extra.metadata },
  rules,
});

/** What `edit` writes of Deployments and ReplicaSets, in apps and in the old extensions group alike. */
const DEPLOYMENT_WRITES = ['deployments', 'deployments/scale', 'deployments/rollback'];
const REPLICA_SET_WRITES = ['replicasets', 'replicasets/scale'];

/** What a node's kubelet needs (NodeRules). */
export function nodeRules(g: PolicyGroups): PolicyRule[] {
  return [
    rule(['create'], [g.authentication], ['tokenreviews']),
    rule(['create'], [g.authorization], ['subjectaccessreviews', 'localsubjectaccessreviews']),
    rule(READ, [g.legacy], ['services']),
    rule(['create', 'get', 'list', 'watch'], [g.legacy], ['nodes']),
    rule(['update', 'patch'], [g.legacy], ['nodes/status']),
    rule(['update', 'patch'], [g.legacy], ['nodes']),
    rule(['create', 'update', 'patch'], [g.legacy], ['events']),
    rule(READ, [g.legacy], ['pods']),
    rule(['create', 'delete'], [g.legacy], ['pods']),
    rule(['update', 'patch'], [g.legacy], ['pods/status']),
    rule(['create'], [g.legacy], ['pods/eviction']),
    rule(['get', 'list', 'watch'], [g.legacy], ['secrets', 'configmaps']),
    rule(['get'], [g.legacy], ['persistentvolumeclaims', 'persistentvolumes']),
    rule(['get'], [g.legacy], ['endpoints']),
    rule(['create', 'get', 'list', 'watch'], [g.certificates], ['certificatesigningrequests']),
    rule(['get', 'create', 'update', 'patch', 'delete'], [g.coordination], ['leases']),
    rule(['get'], [g.storage], ['volumeattachments']),
    rule(['create'], [g.legacy], ['serviceaccounts/token']),
    rule(['get', 'update', 'patch'], [g.legacy], ['persistentvolumeclaims/status']),
    rule(['get', 'watch', 'list'], [g.storage], ['csidrivers']),
    rule(['get', 'create', 'update', 'patch', 'delete'], [g.storage], ['csinodes']),
    rule(['get', 'list', 'watch'], [g.node], ['runtimeclasses']),
  ];
}

/** The names of the system components' leases: orch-controller-manager / kube-controller-manager, …-scheduler. */
export function componentLeaseNames(domain: ApiDomain) {
  const short = domain.systemNamespace.replace(/-system$/, '');
  return { controllerManager: `${short}-controller-manager`, scheduler: `${short}-scheduler` };
}

export function clusterRoles(domain: ApiDomain): ClusterRole[] {
  const g = policyGroups(domain);
  const signers = builtInSigners(domain);
  const leases = componentLeaseNames(domain);
  const agg = (to: 'admin' | 'edit' | 'view') => ({ [aggregateLabel(domain, to)]: 'true' });
  const aggregation = (to: 'admin' | 'edit' | 'view') => ({ clusterRoleSelectors: [{ matchLabels: agg(to) }] });
  return [
    role('cluster-admin', [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])]),
    role('system:discovery', [
      urls(
        ['get'],
        ['/livez', '/readyz', '/healthz', '/version', '/version/', '/openapi', '/openapi/*', '/api', '/api/*', '/apis', '/apis/*'],
      ),
    ]),
    role('system:monitoring', [
      urls(['get'], ['/metrics', '/metrics/slis', '/livez', '/readyz', '/healthz', '/livez/*', '/readyz/*', '/healthz/*']),
    ]),
    role('system:basic-user', [
      rule(['create'], [g.authorization], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
      rule(['create'], [g.authentication], ['selfsubjectreviews']),
    ]),
    role('system:public-info-viewer', [urls(['get'], ['/livez', '/readyz', '/healthz', '/version', '/version/'])]),
    role('admin', [], { metadata: {}, aggregationRule: aggregation('admin') }),
    role('edit', [], { metadata: { labels: agg('admin') }, aggregationRule: aggregation('edit') }),
    role('view', [], { metadata: { labels: agg('edit') }, aggregationRule: aggregation('view') }),
    role(
      'system:aggregate-to-admin',
      [rule(['create'], [g.authorization], ['localsubjectaccessreviews']), rule(READ_WRITE, [g.rbac], ['roles', 'rolebindings'])],
      { metadata: { labels: agg('admin') } },
    ),
    role(
      'system:aggregate-to-edit',
      [
        rule(READ, [g.legacy], ['pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward', 'secrets', 'services/proxy']),
        rule(['impersonate'], [g.legacy], ['serviceaccounts']),
        rule(WRITE, [g.legacy], ['pods', 'pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward']),
        rule(['create'], [g.legacy], ['pods/eviction']),
        rule(
          WRITE,
          [g.legacy],
          [
            'replicationcontrollers',
            'replicationcontrollers/scale',
            'serviceaccounts',
            'services',
            'services/proxy',
            'persistentvolumeclaims',
            'configmaps',
            'secrets',
            'events',
          ],
        ),
        rule(['create'], [g.legacy], ['serviceaccounts/token']),
        rule(WRITE, [g.apps], ['statefulsets', 'statefulsets/scale', 'daemonsets', ...DEPLOYMENT_WRITES, ...REPLICA_SET_WRITES]),
        rule(WRITE, [g.autoscaling], ['horizontalpodautoscalers']),
        rule(WRITE, [g.batch], ['jobs', 'cronjobs']),
        rule(
          WRITE,
          [g.extensions],
          ['daemonsets', ...DEPLOYMENT_WRITES, 'ingresses', ...REPLICA_SET_WRITES, 'replicationcontrollers/scale', 'networkpolicies'],
        ),
        rule(WRITE, [g.policy], ['poddisruptionbudgets']),
        rule(WRITE, [g.networking], ['networkpolicies', 'ingresses']),
        rule(READ_WRITE, [g.coordination], ['leases']),
      ],
      { metadata: { labels: agg('edit') } },
    ),
    role(
      'system:aggregate-to-view',
      [
        rule(
          READ,
          [g.legacy],
          [
            'pods',
            'replicationcontrollers',
            'replicationcontrollers/scale',
            'serviceaccounts',
            'services',
            'services/status',
            'endpoints',
            'persistentvolumeclaims',
            'persistentvolumeclaims/status',
            'configmaps',
          ],
        ),
        rule(
          READ,
          [g.legacy],
          [
            'limitranges',
            'resourcequotas',
            'bindings',
            'events',
            'pods/status',
            'resourcequotas/status',
            'namespaces/status',
            'replicationcontrollers/status',
            'pods/log',
          ],
        ),
        rule(READ, [g.legacy], ['namespaces']),
        rule(READ, [g.discovery], ['endpointslices']),
        rule(
          READ,
          [g.apps],
          [
            'controllerrevisions',
            'statefulsets',
            'statefulsets/status',
            'statefulsets/scale',
            'daemonsets',
            'daemonsets/status',
            'deployments',
            'deployments/status',
            'deployments/scale',
            'replicasets',
            'replicasets/status',
            'replicasets/scale',
          ],
        ),
        rule(READ, [g.autoscaling], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
        rule(READ, [g.batch], ['jobs', 'cronjobs', 'cronjobs/status', 'jobs/status']),
        rule(
          READ,
          [g.extensions],
          [
            'daemonsets',
            'daemonsets/status',
            'deployments',
            'deployments/scale',
            'deployments/status',
            'ingresses',
            'ingresses/status',
            'replicasets',
            'replicasets/scale',
            'replicasets/status',
            'replicationcontrollers/scale',
            'networkpolicies',
          ],
        ),
        rule(READ, [g.policy], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
        rule(READ, [g.networking], ['networkpolicies', 'ingresses', 'ingresses/status']),
      ],
      { metadata: { labels: agg('view') } },
    ),
    role('system:heapster', [
      rule(READ, [g.legacy], ['events', 'pods', 'nodes', 'namespaces']),
      rule(READ, [g.extensions], ['deployments']),
    ]),
    role('system:node', nodeRules(g)),
    role('system:node-problem-detector', [
      rule(['get'], [g.legacy], ['nodes']),
      rule(['patch'], [g.legacy], ['nodes/status']),
      eventsRule(g),
    ]),
    role('system:kubelet-api-admin', [
      rule(['get', 'list', 'watch'], [g.legacy], ['nodes']),
      rule(['proxy'], [g.legacy], ['nodes']),
      rule(['*'], [g.legacy], ['nodes/proxy', 'nodes/metrics', 'nodes/stats', 'nodes/log']),
    ]),
    role('system:node-bootstrapper', [rule(['create', 'get', 'list', 'watch'], [g.certificates], ['certificatesigningrequests'])]),
    role('system:auth-delegator', [
      rule(['create'], [g.authentication], ['tokenreviews']),
      rule(['create'], [g.authorization], ['subjectaccessreviews']),
    ]),
    role('system:kube-aggregator', [rule(READ, [g.legacy], ['services', 'endpoints'])]),
    role('system:kube-controller-manager', [
      eventsRule(g),
      rule(['create'], [g.coordination], ['leases']),
      rule(['get', 'update'], [g.coordination], ['leases'], [leases.controllerManager]),
      rule(['create'], [g.legacy], ['secrets', 'serviceaccounts']),
      rule(['delete'], [g.legacy], ['secrets']),
      rule(['get'], [g.legacy], ['namespaces', 'secrets', 'serviceaccounts', 'configmaps']),
      rule(['update'], [g.legacy], ['secrets', 'serviceaccounts']),
      rule(['create'], [g.authentication], ['tokenreviews']),
      rule(['create'], [g.authorization], ['subjectaccessreviews']),
      rule(['list', 'watch'], ['*'], ['*']),
      rule(['create'], [g.legacy], ['serviceaccounts/token']),
    ]),
    role('system:kube-dns', [rule(['list', 'watch'], [g.legacy], ['endpoints', 'services'])]),
    role('system:persistent-volume-provisioner', [
      rule(['get', 'list', 'watch', 'create', 'delete'], [g.legacy], ['persistentvolumes']),
      rule(['get', 'list', 'watch', 'update'], [g.legacy], ['persistentvolumeclaims']),
      rule(READ, [g.storage], ['storageclasses']),
      rule(['watch'], [g.legacy], ['events']),
      eventsRule(g),
    ]),
    role(`system:${g.certificates}:certificatesigningrequests:nodeclient`, [
      rule(['create'], [g.certificates], ['certificatesigningrequests/nodeclient']),
    ]),
    role(`system:${g.certificates}:certificatesigningrequests:selfnodeclient`, [
      rule(['create'], [g.certificates], ['certificatesigningrequests/selfnodeclient']),
    ]),
    role('system:volume-scheduler', [
      rule(READ_UPDATE, [g.legacy], ['persistentvolumes']),
      rule(READ, [g.storage], ['storageclasses']),
      rule(READ_UPDATE, [g.legacy], ['persistentvolumeclaims']),
    ]),
    ...(
      [
        ['legacy-unknown-approver', signers.legacyUnknown],
        ['kubelet-serving-approver', signers.nodeServing],
        ['kube-apiserver-client-approver', signers.apiServerClient],
        ['kube-apiserver-client-kubelet-approver', signers.apiServerClientNode],
      ] as const
    ).map(([name, signer]) => role(`system:${g.certificates}:${name}`, [rule(['approve'], [g.certificates], ['signers'], [signer])])),
    role('system:service-account-issuer-discovery', [
      urls(['get'], ['/.well-known/openid-configuration', '/.well-known/openid-configuration/', '/openid/v1/jwks', '/openid/v1/jwks/']),
    ]),
    role('system:node-proxier', [
      rule(['list', 'watch'], [g.legacy], ['services', 'endpoints']),
      rule(['get', 'list', 'watch'], [g.legacy], ['nodes']),
      eventsRule(g),
      rule(['list', 'watch'], [g.discovery], ['endpointslices']),
    ]),
    role('system:kube-scheduler', [
      eventsRule(g),
      rule(['create'], [g.coordination], ['leases']),
      rule(['get', 'update'], [g.coordination], ['leases'], [leases.scheduler]),
      rule(READ, [g.legacy], ['nodes']),
      rule(['get', 'list', 'watch', 'delete'], [g.legacy], ['pods']),
      rule(['create'], [g.legacy], ['pods/binding', 'bindings']),
      rule(['patch', 'update'], [g.legacy], ['pods/status']),
      rule(READ, [g.legacy], ['services', 'replicationcontrollers']),
      rule(READ, [g.apps, g.extensions], ['replicasets']),
      rule(READ, [g.apps], ['statefulsets']),
      rule(READ, [g.policy], ['poddisruptionbudgets']),
      rule(READ, [g.legacy], ['persistentvolumeclaims', 'persistentvolumes']),
      rule(['create'], [g.authentication], ['tokenreviews']),
      rule(['create'], [g.authorization], ['subjectaccessreviews']),
      rule(READ, [g.storage], ['csinodes']),
      rule(READ, [g.legacy], ['namespaces']),
      rule(READ, [g.storage], ['csidrivers']),
      rule(READ, [g.storage], ['csistoragecapacities']),
    ]),
  ];
}
