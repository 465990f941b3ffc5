import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import { claimsOf, PvcProtectionController } from '../../../../controllers/pvcprotection/pvc-protection-controller.js';
import { PODS, PVCS, PVS } from '../../../../controllers/controllerutil/resources.js';
import { PvProtectionController } from '../../../../controllers/pvprotection/pv-protection-controller.js';
import { newFakeContext } from '../../../support/fake-controller-context.js';

const pvc = (deleting: boolean, finalizers = ['orch.io/pvc-protection']): ApiObject => ({
  metadata: { name: 'data', namespace: 'ns', finalizers, ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
  spec: {},
});
const user = (name: string, phase = 'Running'): ApiObject => ({
  metadata: { name, namespace: 'ns' },
  spec: { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'data' } }] },
  status: { phase },
});

describe('pvc protection controller', () => {
  it('adds the finalizer to claims', async () => {
    const ctx = newFakeContext();
    const c = new PvcProtectionController(ctx);
    ctx.cache(PVCS, pvc(false, []));
    await c.sync('ns/data');
    assert.deepEqual(ctx.fake.made('PUT', '/persistentvolumeclaims/data')[0].body.metadata.finalizers, ['orch.io/pvc-protection']);
  });

  it('keeps a deleted claim while a running Pod uses it, releases it when none does (checked live)', async () => {
    const busy = newFakeContext();
    const c = new PvcProtectionController(busy);
    busy.cache(PVCS, pvc(true));
    busy.cache(PODS, user('web'));
    await c.sync('ns/data');
    assert.equal(busy.fake.made('PUT').length, 0);

    const free = newFakeContext();
    const f = new PvcProtectionController(free);
    free.cache(PVCS, pvc(true, ['orch.io/pvc-protection', 'other']));
    free.cache(PODS, user('done', 'Succeeded'));
    free.fake.on((req) =>
      req.method === 'GET' && req.path.startsWith('/api/v1/namespaces/ns/pods')
        ? { metadata: {}, items: [user('done', 'Succeeded')] }
        : undefined,
    );
    await f.sync('ns/data');
    assert.equal(free.fake.made('GET', '/api/v1/namespaces/ns/pods').length, 1);
    assert.deepEqual(free.fake.made('PUT')[0].body.metadata.finalizers, ['other']);

    const racing = newFakeContext();
    const r = new PvcProtectionController(racing);
    racing.cache(PVCS, pvc(true));
    racing.fake.on((req) =>
      req.method === 'GET' && req.path.startsWith('/api/v1/namespaces/ns/pods') ? { metadata: {}, items: [user('new')] } : undefined,
    );
    await r.sync('ns/data');
    assert.equal(racing.fake.made('PUT').length, 0, 'a Pod the cache has not seen yet still protects it');
  });

  it('knows claims by volume and generic ephemeral volume', () => {
    const pod = {
      metadata: { name: 'p' },
      spec: {
        containers: [],
        volumes: [
          { name: 'a', persistentVolumeClaim: { claimName: 'x' } },
          { name: 'scratch', ephemeral: {} },
          { name: 'e', emptyDir: {} },
        ],
      },
    };
    assert.deepEqual(claimsOf(pod), ['x', 'p-scratch']);
  });
});

describe('pv protection controller', () => {
  const pv = (phase: string, deleting = true): ApiObject => ({
    metadata: { name: 'vol', finalizers: ['orch.io/pv-protection'], ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
    spec: {},
    status: { phase },
  });
  it('keeps a Bound volume, releases one that is not', async () => {
    const bound = newFakeContext();
    const b = new PvProtectionController(bound);
    bound.cache(PVS, pv('Bound'));
    await b.sync('vol');
    assert.equal(bound.fake.made('PUT').length, 0);
    const released = newFakeContext();
    const r = new PvProtectionController(released);
    released.cache(PVS, pv('Released'));
    await r.sync('vol');
    assert.deepEqual(released.fake.made('PUT', '/api/v1/persistentvolumes/vol')[0].body.metadata.finalizers, []);
  });
});
