/**
 * The revision ledger over real HTTPS on a real store, run once per backend (ledger-sqlite.test.ts,
 * ledger-etcd.test.ts): the history subresource, time-travel reads, retention with compaction, and
 * who may read history.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import type { TestClient } from '../../support/http-client.js';
import { newTestClient } from '../../support/http-client.js';
import { createNamespace } from '../../support/namespaces.js';
import { applyJsonPatch } from '../../../apiserver/patch/json-patch.js';
import { eventually } from '../../support/eventually.js';
import { createServedCrd, cronTabCrd } from '../../support/crd-fixtures.js';

const JSON_PATCH = 'application/json-patch+json';
const MERGE = 'application/merge-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';
const APPLY = 'application/apply-patch+yaml';

/** JSON with object keys sorted: two equal documents give the same string. */
function canonical(v: unknown): string {
  return JSON.stringify(sortKeys(v));
}
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

/** A small seeded generator (mulberry32), so a failing sequence replays. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every page of an object's history, newest first. */
async function allHistory(c: TestClient, path: string, limit: number): Promise<any[]> {
  const items: any[] = [];
  let token = '';
  for (;;) {
    const r = await c.get(`${path}/history?limit=${limit}${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.kind, 'ObjectRevisionList');
    assert.equal(r.body.apiVersion, 'history.orch.io/v1');
    assert.ok(r.body.items.length <= limit);
    items.push(...r.body.items);
    token = r.body.metadata.continue ?? '';
    if (!token) return items;
  }
}

/** Replays history oldest first: each revision's patch applied to the one before. */
function replay(history: any[]): Map<string, string> {
  const states = new Map<string, string>();
  let doc: unknown = null;
  for (const entry of [...history].reverse()) {
    if (entry.operation === 'delete') {
      assert.deepEqual(entry.patch, []);
      doc = null;
      continue;
    }
    for (const op of entry.patch) {
      if (op.path === '') {
        assert.equal(op.op, 'add');
        doc = structuredClone(op.value);
      } else doc = applyJsonPatch(doc, [op]);
    }
    states.set(entry.resourceVersion, canonical(doc));
  }
  return states;
}

export interface LedgerServers {
  /** A server with the ledger on (--history-retention=24h, the default, named to say so). */
  main(): Promise<TestServer>;
  /** A server with a short retention, compaction each second and no watch cache. */
  shortRetention(): Promise<TestServer>;
  /** A server with a long retention bounded by BYTE_BOUND bytes of history, compaction each second, no watch cache. */
  byteBound(): Promise<TestServer>;
}

/** --history-retention-max-bytes of the byteBound servers: room for about 16 revisions of a 4 KiB ConfigMap. */
export const BYTE_BOUND = 64 * 1024;

/** The byteBound servers' flags (with BYTE_BOUND). */
export const BYTE_BOUND_ARGS = [
  '--history-retention=24h',
  `--history-retention-max-bytes=${BYTE_BOUND}`,
  '--etcd-compaction-interval=1s',
  '--watch-cache=false',
];

/** The users the ledger suites read as (viewer-token, editor-token), beside the admin. */
export const LEDGER_TOKENS = ['viewer-token,viewer,viewer-uid,', 'editor-token,editor,editor-uid,'];

/** The suites' main server: RBAC, the ledger on, LEDGER_TOKENS; on etcd when given its endpoint. */
export function ledgerServer(etcd?: string): Promise<TestServer> {
  return startTestServer({
    ...(etcd ? { etcd } : {}),
    tokens: LEDGER_TOKENS,
    args: ['--authorization-mode=RBAC', '--history-retention=24h'],
  });
}

export function runLedgerSuite(backend: string, servers: LedgerServers): void {
  describe(`revision ledger (${backend})`, () => {
    let s: TestServer;
    let c: TestClient;
    before(async () => {
      s = await servers.main();
      c = s.client;
    });
    after(async () => {
      await s?.stop();
    });

    it('replaying the ledger reproduces every stored revision of fuzzed write sequences', async () => {
      await createNamespace(c, 'fuzz');
      const seed = Number(process.env.ORCH_LEDGER_SEED ?? Date.now() % 100000);
      const rnd = random(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
      const names = ['a', 'b', 'c'];
      const stored = new Map<string, Map<string, string>>(names.map((n) => [n, new Map()]));
      const ops = new Map<string, string[]>(names.map((n) => [n, []]));
      const exists = new Set<string>();
      const base = '/api/v1/namespaces/fuzz/configmaps';
      for (let step = 0; step < 90; step++) {
        const name = pick(names);
        const path = `${base}/${name}`;
        const key = `k${Math.floor(rnd() * 4)}`;
        const value = `v${step}`;
        let r;
        let op: string;
        if (!exists.has(name)) {
          op = 'create';
          r = await c.post(base, {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            metadata: { name, labels: { step: String(step) } },
            data: { [key]: value },
          });
          assert.equal(r.status, 201, `seed ${seed}: ${r.text}`);
        } else {
          op = pick(['update', 'json', 'merge', 'strategic', 'apply', 'delete']);
          if (op === 'update') {
            const cur = (await c.get(path)).body;
            r = await c.put(path, { ...cur, data: { ...cur.data, [key]: value } });
          } else if (op === 'json') {
            r = await c.patch(path, [{ op: 'add', path: `/metadata/labels/${key}`, value }], JSON_PATCH);
          } else if (op === 'merge') {
            r = await c.patch(path, { data: { [key]: rnd() < 0.3 ? null : value } }, MERGE);
          } else if (op === 'strategic') {
            r = await c.patch(path, { metadata: { annotations: { [key]: value } } }, STRATEGIC);
          } else if (op === 'apply') {
            const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { applied: value } };
            r = await c.request('PATCH', `${path}?fieldManager=fuzzer&force=true`, { body, contentType: APPLY });
          } else {
            r = await c.delete(path);
            exists.delete(name);
          }
          assert.ok(r.status === 200 || r.status === 201, `seed ${seed} ${op}: ${r.status} ${r.text}`);
        }
        if (op !== 'delete') {
          exists.add(name);
          const now = (await c.get(path)).body;
          // A write that changed nothing stores nothing and records nothing.
          if (!stored.get(name)!.has(now.metadata.resourceVersion)) {
            stored.get(name)!.set(now.metadata.resourceVersion, canonical(now));
            ops.get(name)!.push(op);
          }
        } else ops.get(name)!.push('delete');
      }
      const expectedOperation: Record<string, string> = {
        create: 'create',
        update: 'update',
        json: 'patch',
        merge: 'patch',
        strategic: 'patch',
        apply: 'apply',
        delete: 'delete',
      };
      for (const name of names) {
        const history = await allHistory(c, `${base}/${name}`, 4);
        assert.deepEqual(
          history.map((h) => h.operation).reverse(),
          ops.get(name)!.map((o) => expectedOperation[o]),
          `seed ${seed}: operations of ${name}`,
        );
        for (const h of history) {
          assert.equal(h.user, 'admin');
          assert.ok(!Number.isNaN(Date.parse(h.time)), h.time);
          if (h.operation === 'apply') assert.equal(h.fieldManager, 'fuzzer');
        }
        const rvs = history.map((h) => Number(h.resourceVersion));
        assert.deepEqual(
          rvs,
          [...rvs].sort((x, y) => y - x),
          'newest first',
        );
        const replayed = replay(history);
        assert.equal(replayed.size, stored.get(name)!.size, `seed ${seed}: revisions of ${name}`);
        for (const [rv, json] of stored.get(name)!) {
          assert.equal(replayed.get(rv), json, `seed ${seed}: ${name}@${rv} replayed`);
          const at = await c.get(`${base}/${name}/history?resourceVersion=${rv}`);
          assert.equal(at.status, 200, at.text);
          assert.equal(canonical(at.body), json, `seed ${seed}: ${name}@${rv} read back`);
        }
      }
    });

    it('answers at most 500 revisions a page, however large the limit, with a continue token for the rest', async () => {
      const base = '/api/v1/namespaces/default/configmaps';
      assert.equal((await c.post(base, { metadata: { name: 'paged' }, data: { n: '0' } })).status, 201);
      for (let i = 1; i <= 500; i++) assert.equal((await c.patch(`${base}/paged`, { data: { n: String(i) } }, MERGE)).status, 200);
      const first = await c.get(`${base}/paged/history?limit=1000000`);
      assert.equal(first.status, 200, first.text);
      assert.equal(first.body.items.length, 500);
      assert.ok(first.body.metadata.continue, 'a continue token for the 501st revision');
      const rest = await c.get(`${base}/paged/history?limit=1000000&continue=${encodeURIComponent(first.body.metadata.continue)}`);
      assert.equal(rest.status, 200, rest.text);
      assert.equal(rest.body.items.length, 1);
      assert.equal(rest.body.items[0].operation, 'create');
      assert.equal(rest.body.metadata.continue, undefined);
    });

    it('answers 404 for an object or kind that never existed, 400 for a bad resourceVersion, 405 for a write', async () => {
      const missing = await c.get('/api/v1/namespaces/default/configmaps/never/history');
      assert.equal(missing.status, 404);
      assert.equal(missing.body.kind, 'Status');
      assert.equal(missing.body.reason, 'NotFound');
      assert.equal(missing.body.message, 'configmaps "never" not found');
      assert.equal((await c.get('/api/v1/namespaces/default/nothings/x/history')).status, 404);
      await c.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'before' } });
      const created = await c.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'later' } });
      const early = Number(created.body.metadata.resourceVersion) - 1;
      const notYet = await c.get(`/api/v1/namespaces/default/configmaps/later/history?resourceVersion=${early}`);
      assert.equal(notYet.status, 404, notYet.text);
      const bad = await c.get('/api/v1/namespaces/default/configmaps/later/history?resourceVersion=abc');
      assert.equal(bad.status, 400);
      assert.equal((await c.request('PUT', '/api/v1/namespaces/default/configmaps/later/history', { body: {} })).status, 405);
      const badToken = await c.get('/api/v1/namespaces/default/configmaps/later/history?continue=xyz');
      assert.equal(badToken.status, 400);
    });

    it('serves the history of cluster-scoped kinds and custom resources', async () => {
      await createNamespace(c, 'hist-ns');
      const ns = await c.get('/api/v1/namespaces/hist-ns/history');
      assert.equal(ns.status, 200, ns.text);
      assert.equal(ns.body.items.at(-1).operation, 'create');
      await createServedCrd(c, cronTabCrd());
      const path = '/apis/stable.example.com/v1/namespaces/default/crontabs';
      const made = await c.post(path, {
        apiVersion: 'stable.example.com/v1',
        kind: 'CronTab',
        metadata: { name: 'ct' },
        spec: { cronSpec: '* * * * *' },
      });
      assert.equal(made.status, 201, made.text);
      const patched = await c.patch(`${path}/ct`, { spec: { cronSpec: '*/5 * * * *' } }, MERGE);
      assert.equal(patched.status, 200, patched.text);
      const history = await c.get(`${path}/ct/history`);
      assert.equal(history.status, 200, history.text);
      assert.deepEqual(
        history.body.items.map((h: any) => h.operation),
        ['patch', 'create'],
      );
      assert.deepEqual(
        history.body.items[0].patch.filter((p: any) => p.path.startsWith('/spec')),
        [{ op: 'replace', path: '/spec/cronSpec', value: '*/5 * * * *' }],
      );
    });

    it('authorizes history as get on <resource>/history: view reads no Secret history, edit does', async () => {
      await createNamespace(c, 'team');
      await c.post('/api/v1/namespaces/team/configmaps', { metadata: { name: 'cfg' } });
      await c.post('/api/v1/namespaces/team/secrets', { metadata: { name: 'sec' }, stringData: { p: 'x' } });
      // The rules `view` and `edit` aggregate (no controller manager runs here to aggregate them):
      // view = aggregate-to-view; edit = aggregate-to-edit + aggregate-to-view.
      const bindings: [string, string][] = [
        ['system:aggregate-to-view', 'viewer'],
        ['system:aggregate-to-view', 'editor'],
        ['system:aggregate-to-edit', 'editor'],
      ];
      for (const [i, [role, user]] of bindings.entries()) {
        const r = await c.post('/apis/rbac.authorization.orch.io/v1/namespaces/team/rolebindings', {
          metadata: { name: `b${i}` },
          roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: role },
          subjects: [{ kind: 'User', name: user, apiGroup: 'rbac.authorization.orch.io' }],
        });
        assert.equal(r.status, 201, r.text);
      }
      const viewer = newTestClient({ url: s.url, ca: s.ca, token: 'viewer-token' });
      const editor = newTestClient({ url: s.url, ca: s.ca, token: 'editor-token' });
      try {
        await eventually(
          'the bindings apply',
          async () => (await viewer.get('/api/v1/namespaces/team/configmaps/cfg/history')).status === 200,
        );
        const denied = await viewer.get('/api/v1/namespaces/team/secrets/sec/history');
        assert.equal(denied.status, 403, denied.text);
        assert.match(denied.body.message, /cannot get resource "secrets\/history"/);
        assert.equal((await viewer.get('/api/v1/namespaces/team/secrets/sec/history?resourceVersion=1')).status, 403);
        assert.equal((await editor.get('/api/v1/namespaces/team/secrets/sec/history')).status, 200);
      } finally {
        viewer.close();
        editor.close();
      }
    });
  });

  describe(`revision ledger retention (${backend})`, () => {
    let s: TestServer;
    let c: TestClient;
    before(async () => {
      s = await servers.shortRetention();
      c = s.client;
    });
    after(async () => {
      await s?.stop();
    });

    it('keeps the window: older revisions answer 410, a watch from inside it continues after a compaction', async () => {
      const base = '/api/v1/namespaces/default/configmaps';
      const first = await c.post(base, { metadata: { name: 'w' }, data: { n: '0' } });
      assert.equal(first.status, 201, first.text);
      const oldRv = first.body.metadata.resourceVersion;
      const writes: { at: number; rv: string }[] = [];
      let expired;
      for (let i = 1; i < 200 && !expired; i++) {
        await new Promise((r) => setTimeout(r, 200));
        const w = await c.patch(`${base}/w`, { data: { n: String(i) } }, MERGE);
        writes.push({ at: Date.now(), rv: w.body.metadata.resourceVersion });
        const old = await c.get(`${base}/w/history?resourceVersion=${oldRv}`);
        if (old.status === 410) expired = old;
        else assert.equal(old.status, 200, old.text);
      }
      assert.ok(expired, 'the first revision left the window');
      assert.equal(expired.body.reason, 'Expired');
      assert.match(expired.body.message, new RegExp(`^too old resource version: ${oldRv} \\(\\d+\\)$`));
      // A revision written a second ago is well inside the 4 s window.
      const inside = writes.filter((w) => w.at <= Date.now() - 1000).at(-1)!;
      const watch = await c.watch(`${base}?watch=true&resourceVersion=${inside.rv}`);
      try {
        const event = await watch.next(5000);
        assert.notEqual(event.type, 'ERROR', JSON.stringify(event.object));
        assert.equal(event.type, 'MODIFIED');
        assert.ok(Number(event.object.metadata.resourceVersion) > Number(inside.rv));
      } finally {
        watch.close();
      }
      const history = await c.get(`${base}/w/history`);
      assert.equal(history.status, 200);
      // The oldest revision in the window carries the whole object.
      assert.equal(history.body.items.at(-1).patch[0].path, '');
      assert.ok(history.body.items.length < writes.length + 1, 'history older than the window is gone');
    });

    it('forgets a deleted object once its delete left the window: the ledger keeps no key for every object ever deleted', async () => {
      const base = '/api/v1/namespaces/default/configmaps';
      assert.equal((await c.post(base, { metadata: { name: 'gone' }, data: { n: '0' } })).status, 201);
      assert.equal((await c.delete(`${base}/gone`)).status, 200);
      const right = await c.get(`${base}/gone/history`);
      assert.equal(right.status, 200, right.text);
      assert.deepEqual(
        right.body.items.map((r: { operation: string }) => r.operation),
        ['delete', 'create'],
      );
      let forgotten;
      for (let i = 0; i < 100 && !forgotten; i++) {
        await new Promise((r) => setTimeout(r, 200));
        // Writes of another object move the store (and so its compaction) on.
        await c.post(base, { metadata: { generateName: 'tick-' } });
        const h = await c.get(`${base}/gone/history`);
        if (h.status === 404) forgotten = h;
        else assert.equal(h.status, 200, h.text);
      }
      assert.ok(forgotten, 'the deleted object left the ledger');
      assert.equal(forgotten.body.reason, 'NotFound');
    });
  });
  describe(`revision ledger byte bound (${backend})`, () => {
    let s: TestServer;
    let c: TestClient;
    before(async () => {
      s = await servers.byteBound();
      c = s.client;
    });
    after(async () => {
      await s?.stop();
    });

    it('compacts the oldest revisions once history passes --history-retention-max-bytes, keeping the current one; older reads answer 410', async () => {
      const base = '/api/v1/namespaces/default/configmaps';
      const payload = (i: number) => `${String(i).padStart(6, '0')}${'x'.repeat(4090)}`;
      const first = await c.post(base, { metadata: { name: 'big' }, data: { payload: payload(0) } });
      assert.equal(first.status, 201, first.text);
      const oldRv = first.body.metadata.resourceVersion;
      // 40 revisions of 4 KiB: 160 KiB superseded, far past the bound, however young (the retention is 24 h).
      const writes = 40;
      for (let i = 1; i <= writes; i++) {
        const w = await c.patch(`${base}/big`, { data: { payload: payload(i) } }, MERGE);
        assert.equal(w.status, 200, w.text);
      }
      const expired = await eventually(
        'the first revision to leave the history',
        async () => {
          const old = await c.get(`${base}/big/history?resourceVersion=${oldRv}`);
          if (old.status !== 410) assert.equal(old.status, 200, old.text);
          return old.status === 410 && old;
        },
        30_000,
      );
      assert.equal(expired.body.reason, 'Expired');
      assert.match(expired.body.message, new RegExp(`^too old resource version: ${oldRv} \\(\\d+\\)$`));
      // Once the rounds have caught up, what stays of the history fits the bound: at most
      // BYTE_BOUND / 4 KiB superseded revisions beside the current one.
      const kept = Math.floor(BYTE_BOUND / 4096);
      const history = await eventually(
        `at most ${kept} superseded revisions in the history`,
        async () => {
          const h = await c.get(`${base}/big/history`);
          assert.equal(h.status, 200, h.text);
          return h.body.items.length - 1 <= kept && h;
        },
        30_000,
      );
      // The newest revisions stay, the current one first; the oldest in the window carries the whole object.
      assert.ok(history.body.items.length >= 2, 'the bound kept recent history');
      const current = await c.get(`${base}/big`);
      assert.equal(current.status, 200, current.text);
      assert.equal(current.body.data.payload, payload(writes));
      assert.equal(history.body.items[0].resourceVersion, current.body.metadata.resourceVersion);
      assert.equal(history.body.items.at(-1).patch[0].path, '');
      // The current revision reads at its own resourceVersion.
      const still = await c.get(`${base}/big/history?resourceVersion=${current.body.metadata.resourceVersion}`);
      assert.equal(still.status, 200, still.text);
    });
  });
}
