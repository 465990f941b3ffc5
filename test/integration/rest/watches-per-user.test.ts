/**
 * --max-watches-per-user: one user cannot hold more watches open than the limit (429 with
 * Retry-After, room again once one closes); other users and system:masters are not held back.
 */
import { describe, it, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { newTestClient, type TestClient, type WatchStream } from '../../support/http-client.js';
import { eventually } from '../../support/eventually.js';

const WATCH = '/api/v1/namespaces/default/configmaps?watch=1';

describe('--max-watches-per-user=3', () => {
  let s: TestServer;
  let alice: TestClient;
  let bob: TestClient;
  const open: WatchStream[] = [];
  before(async () => {
    s = await startTestServer({ args: ['--max-watches-per-user=3'], tokens: ['alice-token,alice,alice,"devs"', 'bob-token,bob,bob'] });
    alice = newTestClient({ url: s.url, token: 'alice-token', ca: s.ca });
    bob = newTestClient({ url: s.url, token: 'bob-token', ca: s.ca });
  });
  after(async () => {
    for (const w of open) w.close();
    alice?.close();
    bob?.close();
    await s?.stop();
  });

  it('answers a fourth watch of one user 429 TooManyRequests with Retry-After, and serves it once one closed', async () => {
    for (let i = 0; i < 3; i++) {
      const w = await alice.watch(WATCH);
      assert.equal(w.status, 200);
      open.push(w);
    }
    const refused = await alice.get(WATCH);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['retry-after'], '1');
    assert.equal(refused.body.kind, 'Status');
    assert.equal(refused.body.reason, 'TooManyRequests');
    assert.match(refused.body.message, /too many watches open for user "alice"/);
    // Lists and gets are not watches.
    assert.equal((await alice.get('/api/v1/namespaces/default/configmaps')).status, 200);

    const other = await bob.watch(WATCH);
    assert.equal(other.status, 200, 'another user has his own count');
    open.push(other);
    for (let i = 0; i < 5; i++) {
      const admin = await s.client.watch(WATCH);
      assert.equal(admin.status, 200, 'system:masters is not limited');
      open.push(admin);
    }

    open.shift()!.close();
    const again = await eventually('a watch is served again', async () => {
      const w = await alice.watch(WATCH);
      if (w.status === 200) return w;
      w.close();
      return undefined;
    });
    open.push(again);
  });
});
