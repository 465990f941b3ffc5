/**
 * The 1.28 legacy service-account token cleaner against a real orch-apiserver, its clock three days
 * ahead and a one-day clean-up period: only tracked, auto-generated, unused and unmounted tokens go.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { LegacyTokenCleaner } from '../../../controllers/serviceaccount/legacy-token-cleaner.js';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { newTestControllerContext } from '../../support/controller-context.js';

const NS = '/api/v1/namespaces/default';
const DAY = 24 * 3_600_000;

describe('legacy-serviceaccount-token-cleaner-controller', () => {
  let srv: TestServer;
  let stop: () => Promise<void>;

  before(async () => {
    srv = await startTestServer();
  });
  after(async () => {
    await stop?.();
    await srv?.stop();
  });

  const create = async (path: string, body: unknown) => {
    const r = await srv.client.post(path, body);
    assert.equal(r.status, 201, r.text);
  };
  const token = (name: string, labels: Record<string, string> = {}) =>
    create(`${NS}/secrets`, {
      metadata: { name, labels, annotations: { 'orch.io/service-account.name': 'legacy' } },
      type: 'orch.io/service-account-token',
    });
  const names = async () =>
    ((await srv.client.get(`${NS}/secrets`)).body.items as { metadata: { name: string } }[]).map((s) => s.metadata.name).sort();

  it('deletes unused auto-generated tokens once use has been tracked for the period', async () => {
    const now = new Date(Date.now() + 3 * DAY);
    const day = (t: number) => new Date(t).toISOString().slice(0, 10);
    await create(`${NS}/serviceaccounts`, {
      metadata: { name: 'legacy' },
      secrets: ['unused', 'recent', 'stale', 'mounted', 'odd-label'].map((name) => ({ name })),
    });
    await token('unused');
    await token('recent', { 'orch.io/legacy-token-last-used': day(now.getTime()) });
    await token('stale', { 'orch.io/legacy-token-last-used': day(Date.now()) });
    await token('mounted');
    await token('odd-label', { 'orch.io/legacy-token-last-used': 'yesterday' });
    await token('not-listed');
    // The ServiceAccount admission plugin wants the account the service account controller would create.
    await create(`${NS}/serviceaccounts`, { metadata: { name: 'default' } });
    await create(`${NS}/pods`, {
      metadata: { name: 'user' },
      spec: { containers: [{ name: 'c', image: 'busybox' }], volumes: [{ name: 't', secret: { secretName: 'mounted' } }] },
    });
    const ctx = newTestControllerContext(srv.kubeconfig);
    const cleaner = new LegacyTokenCleaner(ctx, { cleanUpPeriodMs: DAY, now: () => now });
    stop = ctx.start();
    assert.ok(await ctx.informers.waitForCacheSync());
    const all = ['mounted', 'not-listed', 'odd-label', 'recent', 'stale', 'unused'];

    await cleaner.evaluate();
    assert.deepEqual(await names(), all, 'no tracking ConfigMap: tracking is off');

    await create('/api/v1/namespaces/orch-system/configmaps', {
      metadata: { name: 'orch-apiserver-legacy-service-account-token-tracking' },
      data: { since: day(now.getTime() - DAY) },
    });
    await cleaner.evaluate();
    assert.deepEqual(await names(), all, 'tracked for less than the period');

    const cm = (await srv.client.get('/api/v1/namespaces/orch-system/configmaps/orch-apiserver-legacy-service-account-token-tracking'))
      .body;
    cm.data.since = day(Date.now() - DAY);
    assert.equal((await srv.client.put(`/api/v1/namespaces/orch-system/configmaps/${cm.metadata.name}`, cm)).status, 200);
    await cleaner.evaluate();
    assert.deepEqual(await names(), ['mounted', 'not-listed', 'odd-label', 'recent']);
  });
});
