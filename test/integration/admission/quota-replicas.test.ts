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
});
