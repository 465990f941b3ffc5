/**
 * The FlowSchemas and PriorityLevelConfigurations kube-apiserver 1.28 creates at start (API Priority
 * and Fairness' bootstrap configuration): the mandatory `exempt` and `catch-all` pairs and the
 * suggested set (system, node-high, leader-election, workload-high, workload-low, global-default and
 * the schemas that lead to them), with groups, users and the system namespace mapped by the domain.
 * Each carries `apf.<prefix>/autoupdate-spec: "true"`: the server keeps its spec as bootstrapped.
 */
import type { ApiDomain } from '../../api/domain.js';
import type { ApiObject } from '../../api/object.js';

const ALL = '*';

type Subject =
  | { kind: 'Group'; group: { name: string } }
  | { kind: 'User'; user: { name: string } }
  | { kind: 'ServiceAccount'; serviceAccount: { namespace: string; name: string } };

interface Rules {
  subjects: Subject[];
  resourceRules?: { verbs: string[]; apiGroups: string[]; resources: string[]; clusterScope?: boolean; namespaces: string[] }[];
  nonResourceRules?: { verbs: string[]; nonResourceURLs: string[] }[];
}

const groups = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'Group', group: { name } }));
const users = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'User', user: { name } }));
// Fields in Kubernetes' order; clusterScope only when true (omitempty).
const resourceRule = (verbs: string[], apiGroups: string[], resources: string[], clusterScope: boolean) => ({
  verbs,
  apiGroups,
  resources,
  ...(clusterScope ? { clusterScope } : {}),
  namespaces: [ALL],
});
const everything = (subjects: Subject[]): Rules => ({
  subjects,
  resourceRules: [resourceRule([ALL], [ALL], [ALL], true)],
  nonResourceRules: [{ verbs: [ALL], nonResourceURLs: [ALL] }],
});
const queued = (nominalConcurrencyShares: number, lendablePercent: number, queues: number, handSize: number) => ({
  type: 'Limited',
  limited: {
    nominalConcurrencyShares,
    limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit: 50 } },
    lendablePercent,
  },
});

export interface FlowControlBootstrap {
  priorityLevels: ApiObject[];
  flowSchemas: ApiObject[];
  /** The annotation whose "true" lets the server keep an object's spec as bootstrapped. */
  autoUpdateAnnotation: string;
}

export function flowControlBootstrap(domain: ApiDomain): FlowControlBootstrap {
  const apiVersion = `${domain.group('flowcontrol.apiserver.k8s.io')}/v1beta3`;
  const autoUpdateAnnotation = `apf.${domain.labelPrefix}/autoupdate-spec`;
  const meta = (name: string) => ({ name, annotations: { [autoUpdateAnnotation]: 'true' } });
  const level = (name: string, spec: object): ApiObject => ({ apiVersion, kind: 'PriorityLevelConfiguration', metadata: meta(name), spec });
  const schema = (name: string, priorityLevel: string, matchingPrecedence: number, distinguisher: string, rules: Rules): ApiObject => ({
    apiVersion,
    kind: 'FlowSchema',
    metadata: meta(name),
    spec: {
      priorityLevelConfiguration: { name: priorityLevel },
      matchingPrecedence,
      ...(distinguisher ? { distinguisherMethod: { type: distinguisher } } : {}),
      rules: [rules],
    },
  });
  const systemAccounts = (...names: string[]): Subject[] =>
    names.map((name) => ({ kind: 'ServiceAccount', serviceAccount: { namespace: domain.systemNamespace, name } }));
  const coordination = domain.group('coordination.k8s.io');
  const controllerManager = 'system:kube-controller-manager';
  const scheduler = 'system:kube-scheduler';
  const everyone = groups('system:unauthenticated', 'system:authenticated');
  return {
    autoUpdateAnnotation,
    priorityLevels: [
      level('catch-all', {
        type: 'Limited',
        limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' }, lendablePercent: 0 },
      }),
      level('exempt', { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } }),
      level('system', queued(30, 33, 64, 6)),
      level('node-high', queued(40, 25, 64, 6)),
      level('leader-election', queued(10, 0, 16, 4)),
      level('workload-high', queued(40, 50, 128, 6)),
      level('workload-low', queued(100, 90, 128, 6)),
      level('global-default', queued(20, 50, 128, 6)),
    ],
    flowSchemas: [
      schema('exempt', 'exempt', 1, '', everything(groups('system:masters'))),
      schema('catch-all', 'catch-all', 10000, 'ByUser', everything(everyone)),
      schema('system-nodes', 'system', 500, 'ByUser', everything(groups('system:nodes'))),
      schema('system-node-high', 'node-high', 400, 'ByUser', {
        subjects: groups('system:nodes'),
        resourceRules: [resourceRule([ALL], [''], ['nodes', 'nodes/status'], true), resourceRule([ALL], [coordination], ['leases'], false)],
      }),
      schema('probes', 'exempt', 2, '', {
        subjects: everyone,
        nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
      }),
      schema('system-leader-election', 'leader-election', 100, 'ByUser', {
        subjects: [...users(controllerManager, scheduler), ...systemAccounts(ALL)],
        resourceRules: [resourceRule(['get', 'create', 'update'], [coordination], ['leases'], false)],
      }),
      schema('workload-leader-election', 'leader-election', 200, 'ByUser', {
        subjects: systemAccounts(ALL),
        resourceRules: [
          resourceRule(['get', 'create', 'update'], [''], ['endpoints', 'configmaps'], false),
          resourceRule(['get', 'create', 'update'], [coordination], ['leases'], false),
        ],
      }),
      schema('endpoint-controller', 'workload-high', 150, 'ByUser', {
        subjects: [...users(controllerManager), ...systemAccounts('endpoint-controller', 'endpointslicemirroring-controller')],
        resourceRules: [resourceRule(['get', 'create', 'update'], [''], ['endpoints'], false)],
      }),
      schema('kube-controller-manager', 'workload-high', 800, 'ByNamespace', everything(users(controllerManager))),
      schema('kube-scheduler', 'workload-high', 800, 'ByNamespace', everything(users(scheduler))),
      schema('kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', everything(systemAccounts(ALL))),
      schema('service-accounts', 'workload-low', 9000, 'ByUser', everything(groups('system:serviceaccounts'))),
      schema('global-default', 'global-default', 9900, 'ByUser', everything(everyone)),
    ],
  };
}
