/**
 * ResourceQuota is never exceeded while the quota controller recounts: 40 concurrent creates against
 * 20 free slots admit exactly 20, round after round, through two API replicas on one etcd and through
 * one server with two worker processes on the embedded store (as `npm start` runs it), with the
 * controller manager's resourcequota controller running against it. Admission charges a create
 * before its object is stored, and every create event makes the controller recount the namespace;
 * a recount that missed the charged creates in flight lowered status.used and let one more in.
 * status.used ends equal to the objects there are, with no reservation left.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { useEtcd } from '../../support/etcd.js';
import { eventually } from '../../support/eventually.js';
import type { TestClient } from '../../support/http-client.js';
import { parseOptions } from '../../../controllers/app/options.js';
import { runControllerManager, type RunningControllerManager } from '../../../controllers/app/controller-manager.js';
import { newLogger } from '../../../apiserver/component-base/logs/logger.js';
import { seededCertDirArgs } from '../../support/test-pki.js';

const ROUNDS = 20;
const CREATES = 40;
const FREE = 20;
/** ConfigMaps there before the quota, so the controller's count is what the first charge builds on. */
const EXISTING = 2;

const startQuotaController = (kubeconfig: string) =>
  runControllerManager(
    parseOptions([
      '--kubeconfig',
      kubeconfig,
      '--secure-port=0',
      ...seededCertDirArgs(),
      '--bind-address=127.0.0.1',
      '--controllers=resourcequota',
      '--leader-elect=false',
    ]),
    { logger: newLogger({ logLevel: 'error' }) },
  );

const quotaPath = (ns: string) => `/api/v1/namespaces/${ns}/resourcequotas/cms`;
const cmPath = (ns: string) => `/api/v1/namespaces/${ns}/configmaps`;
const usedOf = (quota: { status?: { used?: Record<string, string> } }) => quota.status?.used?.['count/configmaps'];
const reservationsOf = (quota: { metadata: { annotations?: Record<string, string> } }) =>
  Object.keys(quota.metadata.annotations ?? {}).filter((k) => k.endsWith('/reservations'));

/** One round in a fresh namespace: `EXISTING` objects, a quota with `FREE` slots more, `CREATES` at once. */
async function round(clients: TestClient[], ns: string): Promise<void> {
  const admin = clients[0];
  assert.equal((await admin.post('/api/v1/namespaces', { metadata: { name: ns } })).status, 201);
  for (let i = 0; i < EXISTING; i++) assert.equal((await admin.post(cmPath(ns), { metadata: { name: `old-${i}` } })).status, 201);
  const hard = String(EXISTING + FREE);
  const q = await admin.post(`/api/v1/namespaces/${ns}/resourcequotas`, {
    metadata: { name: 'cms' },
    spec: { hard: { 'count/configmaps': hard } },
  });
  assert.equal(q.status, 201, q.text);
  // The controller counts what is there; only then are the slots known.
  await eventually(`${ns}: the controller's first count`, async () => usedOf((await admin.get(quotaPath(ns))).body) === String(EXISTING));

  const results = await Promise.all(
    Array.from({ length: CREATES }, (_, i) => clients[i % clients.length].post(cmPath(ns), { metadata: { name: `cm-${i}` } })),
  );
  const codes = results.map((r) => r.status);
  assert.equal(codes.filter((c) => c === 201).length, FREE, `${ns}: ${JSON.stringify(codes)}`);
  assert.equal(codes.filter((c) => c === 403).length, CREATES - FREE, `${ns}: ${JSON.stringify(codes)}`);
  for (const r of results.filter((r) => r.status === 403))
    assert.match(r.body.message, /exceeded quota: cms, requested: count\/configmaps=1/);

  const listed = (await admin.get(cmPath(ns))).body.items.length;
  assert.equal(listed, EXISTING + FREE);
  // Every create is settled before it is answered, and the controller agrees once it has seen them all.
  const quota = (await admin.get(quotaPath(ns))).body;
  assert.equal(usedOf(quota), hard, JSON.stringify(quota));
  assert.deepEqual(reservationsOf(quota), [], JSON.stringify(quota));
}

async function rounds(clients: TestClient[], prefix: string): Promise<void> {
  for (let i = 0; i < ROUNDS; i++) await round(clients, `${prefix}-${i}`);
  // A recount still frees what is deleted.
  const ns = `${prefix}-0`;
  assert.equal((await clients[0].delete(`${cmPath(ns)}/old-0`)).status, 200);
  await eventually(
    'the deleted ConfigMap freed',
    async () => usedOf((await clients[0].get(quotaPath(ns))).body) === String(EXISTING + FREE - 1),
  );
  assert.equal((await clients[1 % clients.length].post(cmPath(ns), { metadata: { name: 'again' } })).status, 201);
  const last = await clients[0].post(cmPath(ns), { metadata: { name: 'one-too-many' } });
  assert.equal(last.status, 403, last.text);
}

describe('ResourceQuota under the controller, on two replicas on one etcd', () => {
  const etcd = useEtcd();
  let a: TestServer;
  let b: TestServer;
  let manager: RunningControllerManager;

  before(async () => {
    const etcdPrefix = `/registry-${randomBytes(4).toString('hex')}`;
    a = await startTestServer({ etcd: etcd(), etcdPrefix });
    b = await startTestServer({ etcd: etcd(), etcdPrefix });
    manager = await startQuotaController(a.kubeconfig);
  });
  after(async () => {
    await manager?.stop();
    await a?.stop();
    await b?.stop();
  });

  it(`admits exactly ${FREE} of ${CREATES} concurrent creates, ${ROUNDS} rounds`, () => rounds([a.client, b.client], 'replicas'));
});

describe('ResourceQuota under the controller, on one server with two workers on the embedded store', () => {
  let srv: TestServer;
  let manager: RunningControllerManager;

  before(async () => {
    srv = await startTestServer({ process: true, args: ['--workers=2'] });
    manager = await startQuotaController(srv.kubeconfig);
  });
  after(async () => {
    await manager?.stop();
    await srv?.stop();
  });

  it(`admits exactly ${FREE} of ${CREATES} concurrent creates, ${ROUNDS} rounds`, () => rounds([srv.client], 'workers'));
});
