/**
 * Request bodies that took a worker down, sent as they were to a server process: a JSON patch whose copies
 * double the object, and YAML nested 1.45 million levels deep posted by a user without any binding. Each is
 * a quick 4xx and the process keeps serving.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { newTestClient, type TestClient } from '../../support/http-client.js';

const JSON_PATCH = 'application/json-patch+json';
const CONFIGMAP = '/api/v1/namespaces/default/configmaps/copies';
const SSAR = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
/**
 * Generous for a shared, loaded 2-core machine: here the depth refusals took 70-700 ms and the copy patches
 * 0.1-4 s (a cold worker building the 3 MiB of small arrays the limit allows); before, 27 s to an abort.
 */
const QUICK_MS = 10_000;

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('bodies that took a worker down', () => {
  let s: TestServer;
  let nobody: TestClient;

  before(async () => {
    s = await startTestServer({
      process: true,
      args: ['--authorization-mode=RBAC', '--api-domain=k8s.io'],
      tokens: ['nobody-token,nobody,2001'],
    });
    nobody = newTestClient({ url: s.url, token: 'nobody-token', ca: s.ca });
    const annotations: Record<string, string> = {};
    for (let i = 0; i < 20; i++) annotations[`k${i}`] = 'v'.repeat(40);
    const created = await s.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'copies', annotations } });
    assert.equal(created.status, 201, created.text);
  });

  after(async () => {
    nobody?.close();
    await s?.stop();
  });

  /** The server still answers, and the ConfigMap is as it was. */
  async function alive(): Promise<void> {
    const r = await s.client.get(CONFIGMAP);
    assert.equal(r.status, 200, r.text);
    assert.equal(Object.keys(r.body.metadata.annotations).length, 20);
  }

  async function timed<T>(fn: () => Promise<T>): Promise<{ r: T; ms: number }> {
    const started = performance.now();
    const r = await fn();
    return { r, ms: performance.now() - started };
  }

  it('40 copies of a 1 KB annotation map into itself (4.5 KB, dryRun=All): 422 past the 3 MiB copy limit', async (t) => {
    const patch = Array.from({ length: 40 }, (_, i) => ({
      op: 'copy',
      from: '/metadata/annotations',
      path: `/metadata/annotations/c${i}`,
    }));
    assert.ok(JSON.stringify(patch).length < 4600);
    const { r, ms } = await timed(() => s.client.patch(`${CONFIGMAP}?dryRun=All`, patch, JSON_PATCH));
    t.diagnostic(`answered in ${ms.toFixed(0)} ms`);
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.kind, 'Status');
    assert.equal(r.body.reason, 'Invalid');
    assert.match(
      r.body.details.causes[0].message,
      /Unable to complete the copy, the accumulated size increase of copy is \d+, exceeding the limit 3145728$/,
    );
    assert.ok(ms < QUICK_MS, `took ${ms} ms`);
    await alive();
  });

  it("a JSON patch of 10,001 operations: 413 with Kubernetes' words, nothing applied", async () => {
    const patch = Array.from({ length: 10_001 }, (_, i) => ({ op: 'add', path: `/metadata/annotations/x${i}`, value: 'v' }));
    const r = await s.client.patch(CONFIGMAP, patch, JSON_PATCH);
    assert.equal(r.status, 413, r.text);
    assert.equal(r.body.reason, 'RequestEntityTooLarge');
    assert.equal(r.body.message, 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001');
    await alive();
  });

  it('30 copies of an array appended to itself (1.7 KB): 422', async (t) => {
    const patch = [{ op: 'add', path: '/spec', value: { a: [0] } }, ...Array(30).fill({ op: 'copy', from: '/spec/a', path: '/spec/a/-' })];
    const { r, ms } = await timed(() => s.client.patch(CONFIGMAP, patch, JSON_PATCH));
    t.diagnostic(`answered in ${ms.toFixed(0)} ms`);
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.reason, 'Invalid');
    assert.match(r.body.details.causes[0].message, /: Unable to complete the copy, the accumulated size increase of copy is \d+/);
    assert.ok(ms < QUICK_MS, `took ${ms} ms`);
    await alive();
  });

  it('9 copies of a 990-deep object into its own innermost object (1 MB, 500,000 levels): 422, not a stack overflow', async () => {
    let chain: unknown = {};
    for (let i = 0; i < 990; i++) chain = { a: chain };
    const patch: unknown[] = [{ op: 'add', path: '/spec', value: chain }];
    let leaf = '/a'.repeat(990);
    for (let i = 0; i < 9; i++) {
      patch.push({ op: 'copy', from: '/spec', path: `/spec${leaf}/b` });
      leaf = `${leaf}/b${leaf}`;
    }
    const { r, ms } = await timed(() => s.client.patch(CONFIGMAP, patch, JSON_PATCH));
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.details.causes[0].message, 'Invalid value: null: the patched object exceeded max depth of 1000');
    assert.ok(ms < QUICK_MS, `took ${ms} ms`);
    await alive();
  });

  it('YAML nested 1.45M levels (2.9 MB), a SelfSubjectAccessReview by a user without bindings: 400 exceeded max depth', async (t) => {
    const body = nested(1_450_000);
    const { r, ms } = await timed(() => nobody.request('POST', SSAR, { raw: body, contentType: 'application/yaml' }));
    t.diagnostic(`answered in ${ms.toFixed(0)} ms`);
    assert.equal(r.status, 400, r.text);
    assert.equal(r.body.reason, 'BadRequest');
    assert.equal(r.body.message, 'error decoding YAML: exceeded max depth of 500');
    assert.ok(ms < QUICK_MS, `took ${ms} ms`);
    // The same user's shallow review still works.
    const review = await nobody.post(SSAR, { spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } });
    assert.equal(review.status, 201, review.text);
    assert.equal(review.body.status.allowed, false);
    await alive();
  });

  it("Kubernetes' 300,000 levels (600 KB), 16 at once, as YAML and as JSON: 400 each", async (t) => {
    const body = nested(300_000);
    for (const [type, message] of [
      ['application/yaml', 'error decoding YAML: exceeded max depth of 500'],
      ['application/json', 'error decoding JSON: exceeded max depth of 1000'],
    ]) {
      const { r: answers, ms } = await timed(() =>
        Promise.all(Array.from({ length: 16 }, () => nobody.request('POST', SSAR, { raw: body, contentType: type }))),
      );
      t.diagnostic(`${type}: 16 answered in ${ms.toFixed(0)} ms`);
      for (const r of answers) {
        assert.equal(r.status, 400, r.text);
        assert.equal(r.body.message, message);
      }
      assert.ok(ms < QUICK_MS, `took ${ms} ms`);
    }
    await alive();
  });
});
