/**
 * --max-requests-inflight / --max-mutating-requests-inflight with --enable-priority-and-fairness=false: requests beyond a limit are answered
 * 429 with Retry-After at once (nothing queues), long-running requests are not counted, system:masters
 * is always answered, and a burst of ten times the limit leaves memory bounded.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ClientRequest } from 'node:http';
import { request } from 'node:https';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { newTestClient, type TestClient } from '../../support/http-client.js';

const CM = '/api/v1/namespaces/default/configmaps';

describe('max in-flight limits', () => {
  let s: TestServer;
  let user: TestClient;
  before(async () => {
    s = await startTestServer({
      args: ['--max-requests-inflight=20', '--max-mutating-requests-inflight=2', '--enable-priority-and-fairness=false'],
      tokens: ['user-token,jane,jane,"devs"'],
    });
    user = newTestClient({ url: s.url, token: 'user-token', ca: s.ca });
  });
  after(async () => {
    user.close();
    await s.stop();
  });

  /** A POST whose body never ends: it holds a mutating slot until `end()`. */
  const heldWrite = (name: string): { req: ClientRequest; status: Promise<number> } => {
    let req!: ClientRequest;
    const status = new Promise<number>((resolve, reject) => {
      req = request(
        `${s.url}${CM}`,
        { method: 'POST', ca: s.ca, headers: { Authorization: 'Bearer user-token', 'Content-Type': 'application/json' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.write(`{"metadata":{"name":"${name}"`);
    });
    return { req, status };
  };

  it('answers mutating requests over the limit with 429 and Retry-After, and frees the slot when a request ends', async () => {
    const held = [heldWrite('held-1'), heldWrite('held-2')];
    // Both held requests are in flight once the server counts them.
    await waitForMetric(s, /apiserver_current_inflight_requests\{request_kind="mutating"\} 2/);
    const refused = await user.post(CM, { metadata: { name: 'refused' } });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['retry-after'], '1');
    assert.equal(refused.text, 'Too many requests, please try again later.\n');
    assert.equal(refused.headers['content-type'], 'text/plain; charset=utf-8');
    // Reads have their own limit; system:masters is always answered.
    assert.equal((await user.get(CM)).status, 200);
    assert.equal((await s.client.post(CM, { metadata: { name: 'admin' } })).status, 201);
    for (const h of held) h.req.end('}}');
    assert.deepEqual(await Promise.all(held.map((h) => h.status)), [201, 201]);
    assert.equal((await user.post(CM, { metadata: { name: 'after' } })).status, 201);
    const metrics = (await s.client.get('/metrics')).text;
    assert.match(
      metrics,
      /apiserver_request_total\{verb="POST",dry_run="",group="",version="v1",resource="configmaps",subresource="",scope="resource",component="apiserver",code="429"\} 1/,
    );
  });

  it('does not count watches, and a burst of ten times the read limit is shed without growing memory', async () => {
    // Watches beyond the read limit are all served.
    const watches = await Promise.all(Array.from({ length: 25 }, () => user.watch(`${CM}?watch=true`)));
    assert.ok(watches.every((w) => w.status === 200));
    assert.match(
      (await s.client.get('/metrics')).text,
      /apiserver_longrunning_requests\{verb="WATCH",group="",version="v1",resource="configmaps",subresource="",scope="namespace",component="apiserver"\} 25/,
    );
    for (let i = 0; i < 50; i++)
      assert.equal((await s.client.post(CM, { metadata: { name: `bulk-${i}` }, data: { v: 'x'.repeat(1024) } })).status, 201);
    const heapBefore = process.memoryUsage().heapUsed;
    const burst = await Promise.all(Array.from({ length: 200 }, () => user.get(CM)));
    const codes = new Map<number, number>();
    for (const r of burst) codes.set(r.status, (codes.get(r.status) ?? 0) + 1);
    assert.deepEqual(
      [...codes.keys()].sort(),
      [200, 429].filter((c) => codes.has(c)),
      `only 200 and 429: ${JSON.stringify([...codes])}`,
    );
    assert.ok((codes.get(200) ?? 0) >= 20, `at least the limit is served: ${JSON.stringify([...codes])}`);
    assert.ok(burst.filter((r) => r.status === 429).every((r) => r.headers['retry-after'] === '1'));
    const grown = process.memoryUsage().heapUsed - heapBefore;
    assert.ok(grown < 256 * 1024 * 1024, `heap grew ${Math.round(grown / 1048576)} MiB`);
    for (const w of watches) w.close();
    assert.equal((await user.get(CM)).status, 200);
  });
});

async function waitForMetric(s: TestServer, pattern: RegExp): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (pattern.test((await s.client.get('/metrics')).text)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`no metric matching ${pattern}`);
}
