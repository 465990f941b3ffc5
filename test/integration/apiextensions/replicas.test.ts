/**
 * Two API server replicas on one etcd: a CRD created through one is served by the other within a
 * second of being Established (each replica watches CRDs), objects written through either are read
 * through the other, and deleting the CRD through one takes it out of both.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { startEtcd, type EtcdProcess } from '../../support/etcd.js';
import { CRDS, cronTabCrd } from '../../support/crd-fixtures.js';
import { eventually } from '../../support/eventually.js';

const CRONTABS = '/apis/stable.example.com/v1/namespaces/default/crontabs';

describe('custom resources on two replicas', () => {
  let etcd: EtcdProcess;
  let a: TestServer;
  let b: TestServer;

  before(async () => {
    etcd = await startEtcd();
    const options = { etcd: etcd.endpoint, etcdPrefix: '/registry-crd-replicas' };
    [a, b] = await Promise.all([startTestServer(options), startTestServer(options)]);
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    await etcd?.stop();
  });

  it('serves a CRD on the other replica within a second of Established', async () => {
    const r = await a.client.post(CRDS, cronTabCrd());
    assert.equal(r.status, 201, r.text);
    // When the Established condition was stored (its write's time, as the store records it).
    const established = await eventually('Established', async () => {
      const crd = (await a.client.get(`${CRDS}/crontabs.stable.example.com`)).body;
      return crd.status?.conditions?.find((x: { type: string; status: string }) => x.type === 'Established' && x.status === 'True');
    });
    assert.ok(established);
    const seenEstablished = Date.now();
    await eventually('served by the other replica', async () => (await b.client.get(CRONTABS)).status === 200, 5_000);
    const lag = Date.now() - seenEstablished;
    assert.ok(lag < 1000, `served ${lag} ms after Established`);
  });

  it('reads through one replica what the other wrote, and both stop serving a deleted CRD', async () => {
    const w = await b.client.post(CRONTABS, { metadata: { name: 'x' }, spec: { cronSpec: '* * * * *' } });
    assert.equal(w.status, 201, w.text);
    const got = await a.client.get(`${CRONTABS}/x`);
    assert.equal(got.status, 200, got.text);
    assert.equal(got.body.spec.replicas, 1);
    assert.equal((await b.client.delete(`${CRDS}/crontabs.stable.example.com`)).status, 200);
    for (const s of [a, b]) await eventually('not served', async () => (await s.client.get(CRONTABS)).status === 404, 10_000);
    assert.equal((await a.client.get(`${CRDS}/crontabs.stable.example.com`)).status, 404);
  });
});
