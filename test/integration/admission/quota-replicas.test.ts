/**
 * ResourceQuota under concurrency: two API servers on one etcd take creates at once; the quota's
 * status.used is charged by compare-and-swap, so exactly `hard` objects are admitted, none lost or
 * counted twice. Also: a rejected write's charge is given back.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { useEtcd } from '../../support/etcd.js';

const NS = 'quota';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const QUOTA = `/api/v1/namespaces/${NS}/resourcequotas`;

describe('ResourceQuota on two replicas', () => {
  const etcd = useEtcd();
  let a: TestServer;
  let b: TestServer;

  before(async () => {
    const etcdPrefix = `/registry-${randomBytes(4).toString('hex')}`;
    a = await startTestServer({ etcd: etcd(), etcdPrefix });
    b = await startTestServer({ etcd: etcd(), etcdPrefix });
    assert.equal((await a.client.post('/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
    const q = await a.client.post(QUOTA, { metadata: { name: 'cms' }, spec: { hard: { configmaps: '20' } } });
    assert.equal(q.status, 201, q.text);
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
  });

  it('admits exactly `hard` of 40 concurrent creates split over both replicas, and status.used says so', async () => {
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).client.post(CM, { metadata: { name: `cm-${i}` }, data: { i: String(i) } })),
    );
    const codes = results.map((r) => r.status);
    assert.equal(codes.filter((c) => c === 201).length, 20, JSON.stringify(codes));
    assert.equal(codes.filter((c) => c === 403).length, 20, JSON.stringify(codes));
    for (const r of results.filter((r) => r.status === 403))
      assert.match(r.body.message, /exceeded quota: cms, requested: configmaps=1, used: configmaps=20, limited: configmaps=20/);
    assert.equal((await a.client.get(CM)).body.items.length, 20);
    const quota = (await b.client.get(`${QUOTA}/cms`)).body;
    assert.deepEqual(quota.status, { hard: { configmaps: '20' }, used: { configmaps: '20' } });
  });

  it('gives the charge back when the write itself fails', async () => {
    const q = await a.client.post(QUOTA, { metadata: { name: 'secrets' }, spec: { hard: { secrets: '5' } } });
    assert.equal(q.status, 201, q.text);
    assert.equal((await a.client.post(`/api/v1/namespaces/${NS}/secrets`, { metadata: { name: 'same' } })).status, 201);
    // The same name again: admitted and charged, then refused by the store (409), so refunded.
    assert.equal((await b.client.post(`/api/v1/namespaces/${NS}/secrets`, { metadata: { name: 'same' } })).status, 409);
    const used = (await a.client.get(`${QUOTA}/secrets`)).body.status.used;
    assert.deepEqual(used, { secrets: '1' });
  });

  it('charges a service update that adds node ports: ClusterIP to NodePort past services.nodeports is refused', async () => {
    const q = await a.client.post(QUOTA, { metadata: { name: 'nodeports' }, spec: { hard: { 'services.nodeports': '2' } } });
    assert.equal(q.status, 201, q.text);
    const SVC = `/api/v1/namespaces/${NS}/services`;
    const ports = [80, 81, 82].map((port) => ({ name: `p${port}`, port }));
    assert.equal((await a.client.post(SVC, { metadata: { name: 'web' }, spec: { ports } })).status, 201);
    const svc = (await a.client.get(`${SVC}/web`)).body;
    // Three ports as NodePort are three node ports: over the quota's two, from either replica.
    const grown = await b.client.put(`${SVC}/web`, { ...svc, spec: { ...svc.spec, type: 'NodePort' } });
    assert.equal(grown.status, 403, grown.text);
    assert.match(
      grown.body.message,
      /exceeded quota: nodeports, requested: services.nodeports=3, used: services.nodeports=0, limited: services.nodeports=2/,
    );
    assert.equal((await a.client.get(`${SVC}/web`)).body.spec.type, 'ClusterIP');
    // Two ports fit.
    const fits = await a.client.put(`${SVC}/web`, { ...svc, spec: { ...svc.spec, type: 'NodePort', ports: ports.slice(0, 2) } });
    assert.equal(fits.status, 200, fits.text);
    assert.deepEqual((await a.client.get(`${QUOTA}/nodeports`)).body.status.used, { 'services.nodeports': '2' });
  });
});
