/**
 * Controllers on custom resources through the client library: a test controller on a dynamic informer
 * (any discovered resource) that writes the status of the CronTabs it sees; the garbage collector
 * deleting a custom object whose owner is gone; the namespace controller emptying a namespace of its
 * custom objects.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import type { TestClient } from '../../support/http-client.js';
import { createNamespace } from '../../support/namespaces.js';
import { eventually } from '../../support/eventually.js';
import { cronTabCrd, createServedCrd } from '../../support/crd-fixtures.js';
import { newTestControllerContext, type TestControllerContext } from '../../support/controller-context.js';
import { GarbageCollector } from '../../../controllers/garbagecollector/garbage-collector.js';
import { NamespaceController } from '../../../controllers/namespace/namespace-controller.js';
import type { ApiObject } from '../../../apiserver/api/object.js';

const GVR = { group: 'stable.example.com', version: 'v1', resource: 'crontabs' };
const crontabs = (ns: string) => `/apis/stable.example.com/v1/namespaces/${ns}/crontabs`;

describe('controllers on custom resources', () => {
  let s: TestServer;
  let c: TestClient;
  let ctx: TestControllerContext;
  let stopInformers: () => Promise<void>;
  const abort = new AbortController();

  before(async () => {
    s = await startTestServer();
    c = s.client;
    await createServedCrd(c, cronTabCrd());
    ctx = newTestControllerContext(s.kubeconfig);
  });
  after(async () => {
    abort.abort();
    await stopInformers?.();
    await s?.stop();
  });

  it('a controller on a dynamic informer sees custom objects and writes their status', async () => {
    const informer = ctx.informers.forResource(GVR);
    const seen: string[] = [];
    informer.addEventHandler({
      onAdd(obj: ApiObject) {
        seen.push(obj.metadata.name!);
        const status = { ...(obj as { status?: object }).status, phase: 'Seen' };
        void ctx.client
          .resource(GVR, obj.metadata.namespace)
          .update({ ...obj, status } as ApiObject, 'status')
          .catch(() => {});
      },
    });
    stopInformers = ctx.start();
    assert.ok(await ctx.informers.waitForCacheSync());
    const r = await c.post(crontabs('default'), { metadata: { name: 'watched' }, spec: { cronSpec: '* * * * *' } });
    assert.equal(r.status, 201, r.text);
    const obj = await eventually('status written by the controller', async () => {
      const got = (await c.get(`${crontabs('default')}/watched`)).body;
      return got.status?.phase === 'Seen' && got;
    });
    assert.ok(seen.includes('watched'));
    assert.equal(informer.indexer.list().length, 1);
    assert.equal(obj.metadata.generation, 1);
  });

  it('the garbage collector deletes a custom object whose owner is gone', async () => {
    const gc = new GarbageCollector(ctx, { syncPeriodMs: 500 });
    void gc.run(abort.signal);
    const owner = await c.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'owner' } });
    assert.equal(owner.status, 201, owner.text);
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.body.metadata.uid };
    const owned = await c.post(crontabs('default'), {
      metadata: { name: 'owned', ownerReferences: [ref] },
      spec: { cronSpec: '* * * * *' },
    });
    assert.equal(owned.status, 201, owned.text);
    // And an owner that is itself a custom object.
    const child = await c.post('/api/v1/namespaces/default/configmaps', {
      metadata: {
        name: 'child',
        ownerReferences: [{ apiVersion: 'stable.example.com/v1', kind: 'CronTab', name: 'owned', uid: owned.body.metadata.uid }],
      },
    });
    assert.equal(child.status, 201, child.text);
    assert.equal((await c.delete('/api/v1/namespaces/default/configmaps/owner')).status, 200);
    await eventually('owned CronTab collected', async () => (await c.get(`${crontabs('default')}/owned`)).status === 404, 30_000);
    await eventually(
      'ConfigMap owned by the CronTab collected',
      async () => (await c.get('/api/v1/namespaces/default/configmaps/child')).status === 404,
      30_000,
    );
  });

  it('the namespace controller deletes the custom objects of a deleted namespace', async () => {
    const nsc = new NamespaceController(ctx, { deletionGracePeriodMs: 0 });
    void nsc.run(abort.signal);
    await createNamespace(c, 'doomed');
    for (const name of ['a', 'b']) {
      const r = await c.post(crontabs('doomed'), { metadata: { name }, spec: { cronSpec: '* * * * *' } });
      assert.equal(r.status, 201, r.text);
    }
    assert.equal((await c.delete('/api/v1/namespaces/doomed')).status, 200);
    await eventually('namespace gone', async () => (await c.get('/api/v1/namespaces/doomed')).status === 404, 30_000);
    assert.deepEqual(
      (await c.get('/apis/stable.example.com/v1/crontabs')).body.items.filter((o: ApiObject) => o.metadata.namespace === 'doomed'),
      [],
    );
  });
});
