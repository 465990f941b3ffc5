/**
 * `count/<resource>[.<group>]` of any resource holds its hard limit while the quota controller
 * recounts: a quota on ServiceAccounts (outside the controller's fixed informers) and on a custom
 * resource admits exactly its free slots of concurrent creates, round after round. The controller
 * finds the resource by discovery and counts its objects; it wrote 0 for them before, so the quota
 * admitted more after every recount.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { eventually } from '../../support/eventually.js';
import { parseOptions } from '../../../controllers/app/options.js';
import { runControllerManager, type RunningControllerManager } from '../../../controllers/app/controller-manager.js';
import { newLogger } from '../../../apiserver/component-base/logs/logger.js';
import { seededCertDirArgs } from '../../support/test-pki.js';

const ROUNDS = 4;
const CREATES = 20;
const FREE = 8;
const EXISTING = 2;

describe('ResourceQuota count/ of any resource under the controller', () => {
  let srv: TestServer;
  let manager: RunningControllerManager;

  before(async () => {
    srv = await startTestServer();
    manager = await runControllerManager(
      parseOptions([
        '--kubeconfig',
        srv.kubeconfig,
        '--secure-port=0',
        ...seededCertDirArgs(),
        '--bind-address=127.0.0.1',
        '--controllers=resourcequota',
        '--leader-elect=false',
      ]),
      { logger: newLogger({ logLevel: 'error' }) },
    );
    const crd = await srv.client.post('/apis/apiextensions.orch.io/v1/customresourcedefinitions', {
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-orch-preserve-unknown-fields': true } },
          },
        ],
      },
    });
    assert.equal(crd.status, 201, crd.text);
    await eventually('widgets served', async () => (await srv.client.get('/apis/example.com/v1/widgets')).status === 200);
  });
  after(async () => {
    await manager?.stop();
    await srv?.stop();
  });

  async function rounds(prefix: string, key: string, path: (ns: string) => string, body: (name: string) => Record<string, unknown>) {
    const admin = srv.client;
    for (let r = 0; r < ROUNDS; r++) {
      const ns = `${prefix}-${r}`;
      assert.equal((await admin.post('/api/v1/namespaces', { metadata: { name: ns } })).status, 201);
      for (let i = 0; i < EXISTING; i++) {
        const res = await admin.post(path(ns), body(`old-${i}`));
        assert.equal(res.status, 201, res.text);
      }
      const quotaPath = `/api/v1/namespaces/${ns}/resourcequotas/q`;
      const q = await admin.post(`/api/v1/namespaces/${ns}/resourcequotas`, {
        metadata: { name: 'q' },
        spec: { hard: { [key]: String(EXISTING + FREE) } },
      });
      assert.equal(q.status, 201, q.text);
      // The namespace's own objects (a default ServiceAccount) count too: the controller says how many.
      let existing = 0;
      await eventually(`${ns}: the controller's first count`, async () => {
        const used = (await admin.get(quotaPath)).body.status?.used?.[key];
        const listed = (await admin.get(path(ns))).body.items.length;
        existing = listed;
        return used === String(listed);
      });
      const free = Math.max(0, EXISTING + FREE - existing);
      const results = await Promise.all(Array.from({ length: CREATES }, (_, i) => admin.post(path(ns), body(`new-${i}`))));
      const codes = results.map((res) => res.status);
      assert.equal(codes.filter((c) => c === 201).length, free, `${ns}: ${JSON.stringify(codes)}`);
      assert.equal(codes.filter((c) => c === 403).length, CREATES - free, `${ns}: ${JSON.stringify(codes)}`);
      assert.equal((await admin.get(path(ns))).body.items.length, EXISTING + FREE);
      // The controller's recount agrees, and keeps agreeing.
      await new Promise((res) => setTimeout(res, 300));
      assert.equal((await admin.get(quotaPath)).body.status.used[key], String(EXISTING + FREE));
      const more = await admin.post(path(ns), body('one-too-many'));
      assert.equal(more.status, 403, more.text);
    }
    // A recount frees what is deleted.
    const ns = `${prefix}-0`;
    assert.equal((await admin.delete(`${path(ns)}/old-0`)).status, 200);
    await eventually('the deleted object freed', async () => {
      return (await admin.get(`/api/v1/namespaces/${ns}/resourcequotas/q`)).body.status.used[key] === String(EXISTING + FREE - 1);
    });
  }

  it('count/serviceaccounts', () =>
    rounds(
      'sa',
      'count/serviceaccounts',
      (ns) => `/api/v1/namespaces/${ns}/serviceaccounts`,
      (name) => ({ metadata: { name } }),
    ));

  it('count/widgets.example.com (a custom resource)', () =>
    rounds(
      'cr',
      'count/widgets.example.com',
      (ns) => `/apis/example.com/v1/namespaces/${ns}/widgets`,
      (name) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name } }),
    ));
});
