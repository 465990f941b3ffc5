import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import { DisruptionController } from '../../../../controllers/disruption/disruption-controller.js';
import { DEPLOYMENTS, PODS, REPLICASETS } from '../../../../controllers/controllerutil/resources.js';
import { newFakeContext } from '../../../support/fake-controller-context.js';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const PDBS = { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets' };

const pdb = (spec: Record<string, unknown>, status: Record<string, unknown> = {}): ApiObject => ({
  metadata: { name: 'web', namespace: 'ns', generation: 1 },
  spec: { selector: { matchLabels: { app: 'web' } }, ...spec },
  status,
});

const pod = (name: string, ready = true, owned = true): ApiObject => ({
  metadata: {
    name,
    namespace: 'ns',
    labels: { app: 'web' },
    ...(owned ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', uid: 'rs-uid', controller: true }] } : {}),
  },
  spec: {},
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
});

function setup(budget: ApiObject, ...pods: ApiObject[]) {
  const ctx = newFakeContext();
  const c = new DisruptionController(ctx, { now: () => NOW });
  ctx.cache(PDBS, budget);
  ctx.cache(PODS, ...pods);
  ctx.cache(DEPLOYMENTS, { metadata: { name: 'web', namespace: 'ns', uid: 'd-uid' }, spec: { replicas: 4 } });
  ctx.cache(REPLICASETS, {
    metadata: {
      name: 'web-1',
      namespace: 'ns',
      uid: 'rs-uid',
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'd-uid', controller: true }],
    },
    spec: { replicas: 3 },
  });
  const status = async () => {
    await c.sync('ns/web');
    return ctx.fake.made('PUT', '/poddisruptionbudgets/web/status').at(-1)?.body.status;
  };
  return { status };
}

const counts = (s: any) => [s.expectedPods, s.desiredHealthy, s.currentHealthy, s.disruptionsAllowed];

describe('disruption controller sync', () => {
  it('minAvailable as a number counts the matching Pods', async () => {
    const s = await setup(pdb({ minAvailable: 2 }), pod('a'), pod('b'), pod('c', false)).status();
    assert.deepEqual(counts(s), [3, 2, 2, 0]);
    const c = s.conditions[0];
    assert.deepEqual([c.type, c.status, c.reason], ['DisruptionAllowed', 'False', 'InsufficientPods']);
  });

  it('percentages and maxUnavailable go by the owning controller’s scale (the Deployment’s)', async () => {
    const pods = [pod('a'), pod('b'), pod('c')];
    assert.deepEqual(counts(await setup(pdb({ minAvailable: '50%' }), ...pods).status()), [4, 2, 3, 1]);
    const s = await setup(pdb({ maxUnavailable: 1 }), ...pods).status();
    assert.deepEqual(counts(s), [4, 3, 3, 0]);
    assert.equal(s.observedGeneration, 1);
  });

  it('a Pod without a controller under a percentage budget is a sync failure allowing nothing', async () => {
    const s = await setup(pdb({ maxUnavailable: '25%' }), pod('a'), pod('lonely', true, false)).status();
    assert.equal(s.disruptionsAllowed, 0);
    assert.deepEqual([s.conditions[0].reason, s.conditions[0].message], ['SyncFailed', 'found no controllers for pod "lonely"']);
  });

  it('recently evicted Pods do not count as healthy until they expire', async () => {
    const recent = new Date(NOW - 30_000).toISOString();
    const stale = new Date(NOW - 180_000).toISOString();
    const s = await setup(pdb({ minAvailable: 1 }, { disruptedPods: { a: recent, b: stale } }), pod('a'), pod('b'), pod('c')).status();
    assert.deepEqual(counts(s), [3, 1, 2, 1]);
    assert.deepEqual(s.disruptedPods, { a: recent });
  });
});
