import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import { ResourceQuotaController } from '../../../../controllers/resourcequota/resource-quota-controller.js';
import { PODS } from '../../../../controllers/controllerutil/resources.js';
import { newFakeContext } from '../../../support/fake-controller-context.js';

const QUOTAS = { group: '', version: 'v1', resource: 'resourcequotas' };

const pod = (name: string, containers: unknown[], extra: Record<string, unknown> = {}, phase = 'Running'): ApiObject => ({
  metadata: { name, namespace: 'ns' },
  spec: { containers, ...extra },
  status: { phase },
});
const c = (requests?: Record<string, string>, limits?: Record<string, string>) => ({
  name: 'c',
  resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) },
});

/** A controller whose API server holds what its caches hold: consistent reads answer from them. */
function fakeWithServer() {
  const ctx = newFakeContext();
  const ctl = new ResourceQuotaController(ctx);
  ctx.fake.on((req) => {
    if (req.method !== 'GET') return undefined;
    const [path] = req.path.split('?');
    const plural = path.split('/').at(-1)!;
    const informer = [ctl.quotas, ctl.pods, ctl.services, ctl.claims, ...ctl.counted.values()].find(
      (i) => i.resource.gvr.resource === plural,
    );
    return { kind: 'List', metadata: {}, items: informer?.indexer.list() ?? [] };
  });
  return { ctx, ctl };
}

function setup(quotaSpec: Record<string, unknown>, ...objects: [typeof PODS, ApiObject][]) {
  const { ctx, ctl } = fakeWithServer();
  ctx.cache(QUOTAS, { metadata: { name: 'q', namespace: 'ns' }, spec: quotaSpec });
  for (const [gvr, obj] of objects) ctx.cache(gvr, obj);
  return async () => {
    await ctl.sync('ns/q');
    return ctx.fake.made('PUT', '/resourcequotas/q/status').at(-1)?.body.status;
  };
}

describe('resourcequota controller sync', () => {
  it('sums Pod requests and limits (init containers as a max), counts Pods, skips terminal ones', async () => {
    const hard = { pods: '10', 'requests.cpu': '4', 'requests.memory': '8Gi', 'limits.memory': '16Gi', cpu: '4' };
    const status = await setup(
      { hard },
      [PODS, pod('a', [c({ cpu: '250m', memory: '512Mi' }, { memory: '1Gi' }), c({ cpu: '250m', memory: '512Mi' }, { memory: '1Gi' })])],
      [PODS, pod('b', [c({ cpu: '100m', memory: '256Mi' })], { initContainers: [c({ cpu: '1', memory: '128Mi' })] })],
      [PODS, pod('done', [c({ cpu: '8' })], {}, 'Succeeded')],
    )();
    assert.deepEqual(status.hard, hard);
    assert.deepEqual(status.used, {
      pods: '2',
      'requests.cpu': '1500m',
      'requests.memory': '1280Mi',
      'limits.memory': '2Gi',
      cpu: '1500m',
    });
  });

  it('counts only Pods within the scopes', async () => {
    const run = (scopes: Record<string, unknown>) =>
      setup(
        { hard: { pods: '5' }, ...scopes },
        [PODS, pod('be', [c()])],
        [PODS, pod('burst', [c({ cpu: '1' })], { activeDeadlineSeconds: 60, priorityClassName: 'high' })],
      )();
    assert.equal((await run({ scopes: ['BestEffort'] })).used.pods, '1');
    assert.equal((await run({ scopes: ['NotBestEffort', 'Terminating'] })).used.pods, '1');
    assert.equal(
      (await run({ scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['low'] }] } })).used.pods,
      '0',
    );
  });

  it('counts Services, claims and their storage, ConfigMaps and count/ resources', async () => {
    const svc = (name: string, type: string, nodePorts: number) => ({
      metadata: { name, namespace: 'ns' },
      spec: { type, ports: Array.from({ length: nodePorts }, (_, i) => ({ port: 80 + i, nodePort: 30000 + i })) },
    });
    const pvc = (name: string, storage: string, storageClassName?: string) => ({
      metadata: { name, namespace: 'ns' },
      spec: { storageClassName, resources: { requests: { storage } } },
    });
    const SVCS = { group: '', version: 'v1', resource: 'services' };
    const PVCS = { group: '', version: 'v1', resource: 'persistentvolumeclaims' };
    const CMS = { group: '', version: 'v1', resource: 'configmaps' };
    const status = await setup(
      {
        hard: {
          services: '5',
          'services.loadbalancers': '1',
          'services.nodeports': '5',
          'requests.storage': '10Gi',
          'fast.storageclass.storage.orch.io/requests.storage': '5Gi',
          configmaps: '3',
          'count/configmaps': '3',
          persistentvolumeclaims: '4',
        },
      },
      [SVCS, svc('a', 'ClusterIP', 0)],
      [SVCS, svc('b', 'LoadBalancer', 2)],
      [PVCS, pvc('x', '1Gi', 'fast')],
      [PVCS, pvc('y', '500Mi')],
      [CMS, { metadata: { name: 'cm', namespace: 'ns' } }],
    )();
    assert.deepEqual(status.used, {
      services: '2',
      'services.loadbalancers': '1',
      'services.nodeports': '2',
      'requests.storage': '1524Mi',
      'fast.storageclass.storage.orch.io/requests.storage': '1Gi',
      configmaps: '1',
      'count/configmaps': '1',
      persistentvolumeclaims: '2',
    });
  });
});

describe('resourcequota controller counts', () => {
  it('counts ReplicationControllers under their legacy name and count/ (conformance: the life of a replication controller)', async () => {
    const RCS = { group: '', version: 'v1', resource: 'replicationcontrollers' };
    const rc = (name: string) => ({ metadata: { name, namespace: 'ns' }, spec: { replicas: 0 } });
    const status = await setup(
      { hard: { replicationcontrollers: '5', 'count/replicationcontrollers': '5' } },
      [RCS, rc('a')],
      [RCS, rc('b')],
    )();
    assert.deepEqual(status.used, { replicationcontrollers: '2', 'count/replicationcontrollers': '2' });
  });
});

describe('resourcequota controller and admission reservations', () => {
  const CMS = { group: '', version: 'v1', resource: 'configmaps' };
  const KEY = 'resourcequota.orch.io/reservations';
  const cm = (name: string) => ({ metadata: { name, namespace: 'ns', uid: `uid-${name}` } });
  const at = Date.now();
  const quota = (used: string, reservations: Record<string, unknown>) => ({
    metadata: { name: 'q', namespace: 'ns', resourceVersion: '7', annotations: { [KEY]: JSON.stringify(reservations) } },
    spec: { hard: { configmaps: '10' } },
    status: { hard: { configmaps: '10' }, used: { configmaps: used } },
  });

  it('counts a reservation whose object it does not find, once one it finds, none expired; writes by the read quota', async () => {
    const { ctx, ctl } = fakeWithServer();
    ctx.cache(CMS, cm('stored'), cm('settled'));
    ctx.cache(
      QUOTAS,
      quota('9', {
        inflight: { uid: 'uid-inflight', used: { configmaps: '1' }, at },
        stored: { uid: 'uid-stored', used: { configmaps: '1' }, at },
        dead: { uid: 'uid-dead', used: { configmaps: '1' }, at: at - 10 * 60_000 },
        grown: { uid: 'uid-stored', update: true, used: { 'requests.storage': '1Gi' }, at },
      }),
    );
    await ctl.sync('ns/q');
    const put = ctx.fake.made('PUT', '/resourcequotas/q/status').at(-1)!.body;
    assert.deepEqual(put.status.used, { configmaps: '3' });
    assert.equal(put.metadata.resourceVersion, '7');
    assert.deepEqual(Object.keys(JSON.parse(put.metadata.annotations[KEY])).sort(), ['grown', 'inflight']);
  });

  it('reads nothing and writes nothing when its caches agree with the quota', async () => {
    const { ctx, ctl } = fakeWithServer();
    ctx.cache(CMS, cm('a'));
    ctx.cache(QUOTAS, quota('2', { b: { uid: 'uid-b', used: { configmaps: '1' }, at } }));
    await ctl.sync('ns/q');
    assert.deepEqual(ctx.fake.requests, []);
  });
});
