/** Behaviour that depends on orch-apiserver flags: body limits, authorization modes, API domain, compaction, restarts. */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { newKubectl } from '../../support/kubectl.js';

const servers: TestServer[] = [];
after(async () => {
  for (const s of servers) await s.stop();
});
async function start(args: string[]) {
  const s = await startTestServer({ args });
  servers.push(s);
  return s;
}

describe('--max-request-bytes', () => {
  it('answers 413 for a declared or streamed body over the limit and keeps serving', async () => {
    const s = await start(['--max-request-bytes=2048']);
    const big = { metadata: { name: 'big' }, data: { a: 'x'.repeat(4096) } };
    const r = await s.client.post('/api/v1/namespaces/default/configmaps', big);
    assert.equal(r.status, 413);
    assert.equal(r.body.reason, 'RequestEntityTooLarge');
    assert.equal(r.body.message, 'Request entity too large: limit is 2048');
    // Chunked, without Content-Length.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${s.url}/api/v1/namespaces/default/configmaps`,
        { method: 'POST', ca: s.ca, headers: { Authorization: `Bearer ${s.token}`, 'Content-Type': 'application/json' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      for (let i = 0; i < 8; i++) req.write(i === 0 ? `{"metadata":{"name":"big"},"data":{"a":"${'x'.repeat(1000)}` : 'x'.repeat(1000));
      req.end('"}}');
    });
    assert.equal(status, 413);
    assert.equal((await s.client.get('/api/v1/namespaces/default/configmaps/big')).status, 404);
    const small = await s.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'small' } });
    assert.equal(small.status, 201);
  });
});

describe('--authorization-mode', () => {
  it('AlwaysDeny refuses everyone but system:masters, with Kubernetes wording', async () => {
    const s = await start(['--authorization-mode=AlwaysDeny']);
    const r = await s.anonymous.get('/api/v1/namespaces/default/configmaps');
    assert.equal(r.status, 403);
    assert.equal(
      r.body.message,
      'configmaps is forbidden: User "system:anonymous" cannot list resource "configmaps" in API group "" in the namespace "default": Everything is forbidden.',
    );
    const ns = await s.anonymous.get('/api/v1/namespaces/kube');
    assert.equal(ns.status, 403);
    const path = await s.anonymous.get('/version');
    assert.equal(path.status, 403);
    assert.equal(path.body.message, 'forbidden: User "system:anonymous" cannot get path "/version": Everything is forbidden.');
    assert.equal((await s.client.get('/api/v1/namespaces/default/configmaps')).status, 200);
  });

  it('a path request info cannot parse is a 400 Status, not a crash', async () => {
    const s = await start(['--authorization-mode=AlwaysDeny']);
    for (const path of ['/api/v1/namespaces/%zz/pods', '/api/v1/watch']) {
      const r = await s.client.get(path);
      assert.equal(r.status, 400, path);
      assert.equal(r.body.reason, 'BadRequest', path);
    }
    assert.equal((await s.client.get('/api/v1/namespaces')).status, 200);
  });

  it('AlwaysAllow turns anonymous access off, even when asked for, as kube-apiserver does', async () => {
    for (const args of [[], ['--anonymous-auth=true'], ['--authorization-mode=AlwaysDeny,AlwaysAllow']]) {
      const s = await start(args);
      const r = await s.anonymous.get('/api/v1/secrets');
      assert.equal(r.status, 401);
      assert.deepEqual(r.body, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Unauthorized',
        reason: 'Unauthorized',
        code: 401,
      });
      assert.equal((await s.anonymous.get('/readyz')).status, 401);
    }
  });

  it('--anonymous-auth=false makes credential-less requests 401 under other modes', async () => {
    const s = await start(['--anonymous-auth=false', '--authorization-mode=AlwaysDeny']);
    assert.equal((await s.anonymous.get('/api/v1/namespaces')).status, 401);
  });
});

describe('--api-domain', () => {
  it('k8s.io answers as Kubernetes: kube-system, kube-public, kube-node-lease, kubernetes.io labels and finalizer', async () => {
    const s = await start(['--api-domain=k8s.io']);
    for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      const r = await s.client.get(`/api/v1/namespaces/${name}`);
      assert.equal(r.status, 200, name);
      assert.equal(r.body.metadata.labels['kubernetes.io/metadata.name'], name);
      assert.deepEqual(r.body.spec.finalizers, ['kubernetes']);
    }
    assert.equal((await s.client.get('/api/v1/namespaces/orch-system')).status, 404);
  });

  it('k8s.io lets kubectl print server-side Tables', async () => {
    const s = await start(['--api-domain=k8s.io']);
    await s.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'printed' }, data: { a: '1', b: '2' } });
    const k = newKubectl(s.kubeconfig);
    const cms = await k.ok(['get', 'cm', 'printed']);
    assert.match(cms, /^NAME\s+DATA\s+AGE\nprinted\s+2\s+\d+s\n$/);
    const ns = await k.ok(['get', 'ns', 'kube-system']);
    assert.match(ns, /^NAME\s+STATUS\s+AGE\nkube-system\s+Active\s+\d+s\n$/);
  });
});

describe('--etcd-compaction-interval', () => {
  it('compacts history: old continue tokens and resourceVersions answer 410', async () => {
    // Storage semantics: the watch cache would still replay the compacted revisions from its window.
    // The one-interval compaction of Kubernetes: without the ledger's retention window.
    const s = await start(['--etcd-compaction-interval=1s', '--watch-cache=false', '--history-retention=0']);
    const c = s.client;
    for (let i = 0; i < 4; i++) await c.post('/api/v1/namespaces/default/configmaps', { metadata: { name: `c${i}` } });
    const page = await c.get('/api/v1/namespaces/default/configmaps?limit=2');
    const rv = page.body.metadata.resourceVersion;
    await c.patch('/api/v1/namespaces/default/configmaps/c0', { data: { x: '1' } }, 'application/merge-patch+json');
    // Two rounds: the second compacts to the revision seen by the first, which is past rv.
    let expired;
    for (let i = 0; i < 40; i++) {
      await new Promise((r) => setTimeout(r, 250));
      await c.patch('/api/v1/namespaces/default/configmaps/c1', { data: { n: String(i) } }, 'application/merge-patch+json');
      expired = await c.get(`/api/v1/namespaces/default/configmaps?limit=2&continue=${encodeURIComponent(page.body.metadata.continue)}`);
      if (expired.status === 410) break;
    }
    assert.equal(expired!.status, 410, expired!.text);
    assert.equal(expired!.body.reason, 'Expired');
    assert.match(expired!.body.message, /^The provided continue parameter is too old/);
    assert.ok(expired!.body.metadata.continue, 'an inconsistent continue token is offered');
    const inconsistent = await c.get(
      `/api/v1/namespaces/default/configmaps?limit=2&continue=${encodeURIComponent(expired!.body.metadata.continue)}`,
    );
    assert.equal(inconsistent.status, 200, inconsistent.text);
    assert.deepEqual(
      inconsistent.body.items.map((i: any) => i.metadata.name),
      ['c2', 'c3'],
    );
    const exact = await c.get(`/api/v1/namespaces/default/configmaps?resourceVersion=${rv}&resourceVersionMatch=Exact`);
    assert.equal(exact.status, 410);
    assert.match(exact.body.message, /^too old resource version: /);
    const w = await c.watch(`/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${Number(rv) - 1}`);
    assert.equal(w.status, 410);
  });
});

describe('restart', () => {
  it('keeps objects, certificates and revisions across restarts of the embedded store', async () => {
    const first = await startTestServer();
    const created = await first.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'kept' }, data: { a: '1' } });
    const ca = first.ca;
    const second = await first.restart();
    servers.push(second);
    assert.equal(second.ca, ca);
    const got = await second.client.get('/api/v1/namespaces/default/configmaps/kept');
    assert.deepEqual(got.body, created.body);
    const next = await second.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'after' } });
    assert.ok(Number(next.body.metadata.resourceVersion) > Number(created.body.metadata.resourceVersion));
  });
});

describe('graceful shutdown', () => {
  it('fails /readyz first and finishes requests in flight within --shutdown-delay-duration', async () => {
    const s = await startTestServer({ args: ['--shutdown-delay-duration=1s'] });
    const closing = s.shutdown();
    const ready = await s.client.get('/readyz?verbose');
    assert.equal(ready.status, 500);
    assert.match(ready.text, /\[-\]shutdown failed: reason withheld/);
    const live = await s.client.get('/livez');
    assert.equal(live.status, 200);
    const work = await s.client.get('/api/v1/namespaces/default/configmaps');
    assert.equal(work.status, 200);
    await closing;
    await s.stop();
  });
});
