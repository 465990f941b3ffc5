/**
 * GET /debug/cluster (the console overview's storage and worker facts) on a real server with RBAC:
 * the admin reads the embedded store's file and WAL sizes as they are on disk, the workers and this
 * replica's identity Lease; a
 * user without a nonResourceURLs grant is refused (403), the anonymous too; only GET and HEAD.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { eventually } from '../../support/eventually.js';
import { newTestClient } from '../../support/http-client.js';

describe('/debug/cluster', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ args: ['--authorization-mode=RBAC'], tokens: ['plain-user-token,plain,plain-uid,""'] });
  });
  after(async () => {
    await s?.stop();
  });

  it('answers the admin with the SQLite file, its WAL and the workers', async () => {
    const r = await s.client.get('/debug/cluster');
    assert.equal(r.status, 200, r.text);
    assert.match(String(r.headers['content-type']), /^application\/json/);
    const file = `${s.dataDir}/state.db`;
    assert.equal(r.body.storage.backend, 'sqlite');
    assert.equal(r.body.storage.file, file);
    assert.equal(r.body.storage.walFile, `${file}-wal`);
    assert.ok(r.body.storage.size > 0 && r.body.storage.size <= statSync(file).size * 2, String(r.body.storage.size));
    assert.equal(typeof r.body.storage.walSize, 'number');
    assert.equal(r.body.server.workers, 1);
    assert.equal(r.body.server.systemNamespace, 'orch-system');
    // This replica's identity Lease, as the API has it.
    const { lease, holderIdentity } = r.body.server.identity;
    const stored = await eventually('the identity lease', async () => {
      const l = await s.client.get(`/apis/coordination.orch.io/v1/namespaces/orch-system/leases/${lease}`);
      return l.status === 200 && l.body;
    });
    assert.equal(stored.spec.holderIdentity, holderIdentity);
  });

  it('is authorized like any non-resource path: 403 without a grant, 401 for a bad token, GET only', async () => {
    const plain = newTestClient({ url: s.url, ca: s.ca, token: 'plain-user-token' });
    const forged = newTestClient({ url: s.url, ca: s.ca, token: 'forged' });
    try {
      const denied = await plain.get('/debug/cluster');
      assert.equal(denied.status, 403, denied.text);
      assert.match(denied.body.message, /cannot get path "\/debug\/cluster"/);
      assert.equal((await s.anonymous.get('/debug/cluster')).status, 403);
      assert.equal((await forged.get('/debug/cluster')).status, 401);
    } finally {
      plain.close();
      forged.close();
    }
    const post = await s.client.post('/debug/cluster', {});
    assert.equal(post.status, 405, post.text);
  });
});
