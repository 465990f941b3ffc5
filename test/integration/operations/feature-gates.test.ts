/** Feature gates that change what orch-apiserver does, seen from outside. */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';

const CM = '/api/v1/namespaces/default/configmaps';
const servers: TestServer[] = [];
after(async () => {
  for (const s of servers) await s.stop();
});

/** How many `list` requests reached the store for configmaps. */
async function storeLists(s: TestServer): Promise<number> {
  const m = /etcd_request_duration_seconds_count\{operation="list",type="configmaps"\} (\d+)/.exec((await s.client.get('/metrics')).text);
  return Number(m?.[1] ?? 0);
}

describe('--feature-gates', () => {
  it('APIListChunking=false answers every list whole', async () => {
    const s = await startTestServer({ args: ['--feature-gates=APIListChunking=false'] });
    servers.push(s);
    for (const name of ['a', 'b', 'c']) assert.equal((await s.client.post(CM, { metadata: { name } })).status, 201);
    const r = await s.client.get(`${CM}?limit=1`);
    assert.equal(r.body.items.length, 3);
    assert.equal(r.body.metadata.continue, undefined);
  });

  it('ConsistentListFromCache decides whether consistent lists are served by the watch cache or the store', async () => {
    for (const [gate, fromStore] of [
      ['true', false],
      ['false', true],
    ] as const) {
      const s = await startTestServer({ args: [`--feature-gates=ConsistentListFromCache=${gate}`] });
      servers.push(s);
      assert.equal((await s.client.post(CM, { metadata: { name: 'x' } })).status, 201);
      assert.equal((await s.client.get(CM)).status, 200); // the cache loads
      const before = await storeLists(s);
      for (let i = 0; i < 5; i++) assert.equal((await s.client.get(CM)).body.items.length, 1);
      assert.equal((await storeLists(s)) - before >= 5, fromStore, `gate ${gate}`);
    }
  });
});
