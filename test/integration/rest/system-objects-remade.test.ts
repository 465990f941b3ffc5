/**
 * The server keeps its own objects as Kubernetes' bootstrap and system-namespaces controllers do:
 * the default Service and a deleted system namespace (the node-lease one may be deleted) are made
 * again, within the loop's 10 s, by the server alone (no controller manager runs here).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { eventually } from '../../support/eventually.js';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s?.stop());

test('the default Service and the node-lease namespace come back after a delete', async () => {
  const c = s.client;
  const svc = '/api/v1/namespaces/default/services/orch';
  const before = await c.get(svc);
  assert.equal(before.status, 200, before.text);
  assert.equal((await c.delete(svc)).status, 200);
  // Finalized by hand: no namespace controller runs beside this server.
  const ns = '/api/v1/namespaces/orch-node-lease';
  const deleting = await c.delete(ns);
  assert.equal(deleting.status, 200, deleting.text);
  const finalized = await c.put(`${ns}/finalize`, { ...deleting.body, spec: { finalizers: [] } });
  assert.equal(finalized.status, 200, finalized.text);
  await eventually('the namespace gone', async () => (await c.get(ns)).status === 404);
  const service = await eventually('the default Service again', async () => {
    const r = await c.get(svc);
    return r.status === 200 && r.body;
  });
  assert.notEqual(service.metadata.uid, before.body.metadata.uid);
  assert.deepEqual([service.spec.clusterIP, service.spec.ports[0].targetPort], ['10.0.0.1', s.port]);
  const again = await eventually('the namespace again', async () => {
    const r = await c.get(ns);
    return r.status === 200 && !r.body.metadata.deletionTimestamp && r.body;
  });
  assert.equal(again.status.phase, 'Active');
  // The immortal ones refuse a delete outright.
  assert.equal((await c.delete('/api/v1/namespaces/orch-system')).status, 403);
});
