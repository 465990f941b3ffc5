import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../apiserver/api/object.js';
import type { PrinterColumn } from '../../../apiserver/api/resource.js';
import { podDisruptionBudgetStrategy } from '../../../apiserver/registry/policy/poddisruptionbudget/strategy.js';
import { podDisruptionBudgetColumns } from '../../../apiserver/registry/policy/poddisruptionbudget/columns.js';
import { podColumns } from '../../../apiserver/registry/core/pod/columns.js';
import { deploymentColumns } from '../../../apiserver/registry/apps/deployment/columns.js';
import { replicaSetColumns } from '../../../apiserver/registry/apps/replicaset/columns.js';
import { statefulSetColumns } from '../../../apiserver/registry/apps/statefulset/columns.js';
import { daemonSetColumns } from '../../../apiserver/registry/apps/daemonset/columns.js';
import { jobColumns } from '../../../apiserver/registry/batch/job/columns.js';
import { cronJobColumns } from '../../../apiserver/registry/batch/cronjob/columns.js';
import { create, createErrors, ctx, object } from './helpers.js';

const pdb = (spec: unknown) => object('policy/v1', 'PodDisruptionBudget', spec);

test('pod disruption budgets', () => {
  const { obj, errors } = create(podDisruptionBudgetStrategy, pdb({ minAvailable: '50%', selector: { matchLabels: { app: 'web' } } }));
  assert.deepEqual(errors, []);
  assert.deepEqual(obj.spec, { minAvailable: '50%', selector: { matchLabels: { app: 'web' } } }, 'policy/v1 has no defaults');
  assert.deepEqual(obj.status, { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
  assert.deepEqual(
    createErrors(podDisruptionBudgetStrategy, pdb({ minAvailable: 1, maxUnavailable: '150%', unhealthyPodEvictionPolicy: 'Never' })),
    [
      'spec: Invalid value: {"minAvailable":1,"maxUnavailable":"150%","unhealthyPodEvictionPolicy":"Never"}: minAvailable and maxUnavailable cannot be both set',
      'spec.maxUnavailable: Invalid value: "150%": must not be greater than 100%',
      'spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"',
    ],
  );
  assert.deepEqual(
    createErrors(podDisruptionBudgetStrategy, pdb({ minAvailable: -1, selector: { matchExpressions: [{ key: 'a', operator: 'In' }] } })),
    [
      'spec.minAvailable: Invalid value: -1: must be greater than or equal to 0',
      "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    ],
  );
});

/** The cells of an object, wide columns included, keyed by column name. */
function row(columns: PrinterColumn[], obj: ApiObject): Record<string, unknown> {
  return Object.fromEntries(columns.map((c) => [c.name, c.cell(obj, ctx.now)]));
}

const created = '2023-12-31T23:55:00Z';
const meta = (extra: Record<string, unknown> = {}) => ({ name: 'x', namespace: 'ns', creationTimestamp: created, ...extra });

test('pod table', () => {
  const running: ApiObject = {
    metadata: meta(),
    spec: { nodeName: 'n1', containers: [{ name: 'a' }, { name: 'b' }], readinessGates: [{ conditionType: 'example.com/gate' }] },
    status: {
      phase: 'Running',
      podIPs: [{ ip: '10.0.0.5' }],
      conditions: [{ type: 'example.com/gate', status: 'True' }],
      containerStatuses: [
        {
          name: 'a',
          ready: true,
          restartCount: 2,
          state: { running: {} },
          lastState: { terminated: { finishedAt: '2023-12-31T23:58:00Z' } },
        },
        { name: 'b', ready: false, restartCount: 0, state: { waiting: { reason: 'CrashLoopBackOff' } } },
      ],
    },
  };
  assert.deepEqual(row(podColumns, running), {
    Ready: '1/2',
    Status: 'CrashLoopBackOff',
    Restarts: '2 (2m ago)',
    Age: '5m',
    IP: '10.0.0.5',
    Node: 'n1',
    'Nominated Node': '<none>',
    'Readiness Gates': '1/1',
  });
  const pending: ApiObject = {
    metadata: meta(),
    spec: { containers: [{ name: 'a' }], initContainers: [{ name: 'i' }] },
    status: { phase: 'Pending', initContainerStatuses: [{ name: 'i', state: { waiting: { reason: 'PodInitializing' } } }] },
  };
  assert.deepEqual(row(podColumns, pending), {
    Ready: '0/1',
    Status: 'Init:0/1',
    Restarts: '0',
    Age: '5m',
    IP: '<none>',
    Node: '<none>',
    'Nominated Node': '<none>',
    'Readiness Gates': '<none>',
  });
  const deleting: ApiObject = {
    metadata: meta({ deletionTimestamp: created }),
    spec: { containers: [{ name: 'a' }] },
    status: { phase: 'Running' },
  };
  assert.equal(row(podColumns, deleting).Status, 'Terminating');
});

test('workload tables', () => {
  const template = {
    spec: {
      containers: [
        { name: 'web', image: 'nginx:1.25' },
        { name: 'log', image: 'fluentd' },
      ],
      nodeSelector: { zone: 'a', disk: 'ssd' },
    },
  };
  const selector = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['b', 'a'] }] };
  const wide = { Containers: 'web,log', Images: 'nginx:1.25,fluentd' };
  const deployment: ApiObject = {
    metadata: meta(),
    spec: { replicas: 3, selector, template },
    status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
  };
  assert.deepEqual(row(deploymentColumns, deployment), {
    Ready: '2/3',
    'Up-to-date': 3,
    Available: 2,
    Age: '5m',
    ...wide,
    Selector: 'app=web,tier in (a,b)',
  });
  const rs: ApiObject = { metadata: meta(), spec: { replicas: 3, selector, template }, status: { replicas: 3, readyReplicas: 1 } };
  assert.deepEqual(row(replicaSetColumns, rs), { Desired: 3, Current: 3, Ready: 1, Age: '5m', ...wide, Selector: 'app=web,tier in (a,b)' });
  const sts: ApiObject = { metadata: meta(), spec: { replicas: 2, template }, status: { readyReplicas: 1 } };
  assert.deepEqual(row(statefulSetColumns, sts), { Ready: '1/2', Age: '5m', ...wide });
  const ds: ApiObject = {
    metadata: meta(),
    spec: { selector, template },
    status: { desiredNumberScheduled: 4, currentNumberScheduled: 4, numberReady: 3, updatedNumberScheduled: 4, numberAvailable: 3 },
  };
  assert.deepEqual(row(daemonSetColumns, ds), {
    Desired: 4,
    Current: 4,
    Ready: 3,
    'Up-to-date': 4,
    Available: 3,
    'Node Selector': 'disk=ssd,zone=a',
    Age: '5m',
    ...wide,
    Selector: 'app=web,tier in (a,b)',
  });
  const job: ApiObject = {
    metadata: meta(),
    spec: { completions: 3, selector, template },
    status: { succeeded: 2, startTime: '2023-12-31T23:56:00Z', completionTime: '2023-12-31T23:57:30Z' },
  };
  assert.deepEqual(row(jobColumns, job), { Completions: '2/3', Duration: '90s', Age: '5m', ...wide, Selector: 'app=web,tier in (a,b)' });
  const queue: ApiObject = { metadata: meta(), spec: { parallelism: 4, template } };
  assert.equal(row(jobColumns, queue).Completions, '0/1 of 4');
  const cron: ApiObject = {
    metadata: meta(),
    spec: { schedule: '*/5 * * * *', suspend: false, jobTemplate: { spec: { template } } },
    status: { active: [{}], lastScheduleTime: '2023-12-31T23:59:00Z' },
  };
  assert.deepEqual(row(cronJobColumns, cron), {
    Schedule: '*/5 * * * *',
    Suspend: 'False',
    Active: 1,
    'Last Schedule': '60s',
    Age: '5m',
    ...wide,
    Selector: '<none>',
  });
  const budget: ApiObject = { metadata: meta(), spec: { maxUnavailable: 1 }, status: { disruptionsAllowed: 1 } };
  assert.deepEqual(row(podDisruptionBudgetColumns, budget), {
    'Min Available': 'N/A',
    'Max Unavailable': '1',
    'Allowed Disruptions': 1,
    Age: '5m',
  });
});
