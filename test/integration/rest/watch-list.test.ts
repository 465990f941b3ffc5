/**
 * WatchList: `watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan` streams the current
 * state as ADDED events, then (with allowWatchBookmarks) a BOOKMARK annotated
 * `orch.io/initial-events-end: "true"` at the state's revision, then changes — from the watch cache
 * and, with --watch-cache=false, from the store a page at a time; for JSON and protobuf, built-in
 * kinds and custom resources, across worker processes. Kubernetes 1.28's validation and the gate.
 */
import { describe, it, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpsRequest, Agent } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { createNamespace } from '../../support/namespaces.js';
import type { TestClient, WatchStream } from '../../support/http-client.js';
import { watchProtobuf } from '../../support/protobuf-watch.js';
import { decodeReferenceEnvelope, decodeReferenceMessage, decodeReferenceWatchEvent } from '../../support/reference-proto.js';
import { createServedCrd, cronTabCrd } from '../../support/crd-fixtures.js';

const NS = 'wl';
const CM = `/api/v1/namespaces/${NS}/configmaps`;
const WL = 'watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true';
const END = 'orch.io/initial-events-end';

type Event = { type: string; object: any };

const isEnd = (e: Event) => e.type === 'BOOKMARK' && e.object.metadata.annotations?.[END] === 'true';

/** The events of a watch up to and including the bookmark ending its initial events. */
async function initialEvents(w: WatchStream, timeoutMs = 10_000): Promise<Event[]> {
  const out: Event[] = [];
  for (;;) {
    const e = await w.next(timeoutMs);
    out.push(e);
    if (isEnd(e)) return out;
  }
}

const added = (events: Event[]) =>
  events
    .filter((e) => e.type === 'ADDED')
    .map((e) => e.object.metadata.name)
    .sort();

async function create(c: TestClient, name: string, labels: Record<string, string> = {}): Promise<string> {
  const r = await c.post(CM, { metadata: { name, labels }, data: { k: name } });
  assert.equal(r.status, 201, r.text);
  return r.body.metadata.resourceVersion;
}

for (const cached of [true, false]) {
  describe(`WatchList ${cached ? 'from the watch cache' : 'with --watch-cache=false (from the store)'}`, () => {
    let s: TestServer;
    before(async () => {
      s = await startTestServer({ args: cached ? [] : ['--watch-cache=false'] });
      await createNamespace(s.client, NS);
      await create(s.client, 'a', { app: 'x' });
      await create(s.client, 'b', { app: 'y' });
      await create(s.client, 'c', { app: 'x' });
    });
    after(() => s.stop());

    it('sends every object as ADDED, then the bookmark ending them at their revision, then changes', async () => {
      const listed = Number((await s.client.get(CM)).body.metadata.resourceVersion);
      const w = await s.client.watch(`${CM}?${WL}`);
      try {
        assert.equal(w.status, 200);
        const events = await initialEvents(w);
        assert.deepEqual(
          events.map((e) => e.type),
          ['ADDED', 'ADDED', 'ADDED', 'BOOKMARK'],
        );
        assert.deepEqual(added(events), ['a', 'b', 'c']);
        const end = events.at(-1)!.object;
        assert.deepEqual(end, {
          kind: 'ConfigMap',
          apiVersion: 'v1',
          metadata: { resourceVersion: end.metadata.resourceVersion, annotations: { [END]: 'true' } },
        });
        const revision = Number(end.metadata.resourceVersion);
        assert.ok(revision >= listed, `the initial state (${revision}) is at least as new as the list before it (${listed})`);
        for (const e of events.slice(0, -1)) assert.ok(Number(e.object.metadata.resourceVersion) <= revision);
        const rv = await create(s.client, 'live');
        const next = await w.next();
        assert.equal(next.type, 'ADDED');
        assert.equal(next.object.metadata.name, 'live');
        assert.ok(Number(rv) > revision);
      } finally {
        w.close();
        assert.equal((await s.client.delete(`${CM}/live`)).status, 200);
      }
    });

    it('honours a label selector, in the initial events and after them', async () => {
      const w = await s.client.watch(`${CM}?${WL}&labelSelector=app%3Dx`);
      try {
        const events = await initialEvents(w);
        assert.deepEqual(added(events), ['a', 'c']);
        assert.equal(events.length, 3);
        await create(s.client, 'other', { app: 'y' });
        await create(s.client, 'selected', { app: 'x' });
        const next = await w.next();
        assert.equal(next.type, 'ADDED');
        assert.equal(next.object.metadata.name, 'selected');
      } finally {
        w.close();
        for (const n of ['other', 'selected']) assert.equal((await s.client.delete(`${CM}/${n}`)).status, 200);
      }
    });

    it('from an explicit resourceVersion: a state at least that new', async () => {
      const rv = await create(s.client, 'newest');
      try {
        for (const from of [rv, '0']) {
          const w = await s.client.watch(`${CM}?${WL}&resourceVersion=${from}`);
          const events = await initialEvents(w);
          w.close();
          assert.deepEqual(added(events), ['a', 'b', 'c', 'newest'], `from ${from}`);
          assert.ok(Number(events.at(-1)!.object.metadata.resourceVersion) >= Number(rv));
        }
      } finally {
        assert.equal((await s.client.delete(`${CM}/newest`)).status, 200);
      }
    });

    it('a too-new resourceVersion ends the watch with a 504 ERROR event, as Kubernetes', async () => {
      const w = await s.client.watch(`${CM}?${WL}&resourceVersion=99999999`);
      assert.equal(w.status, 200);
      const e = await w.next(10_000);
      assert.equal(e.type, 'ERROR');
      assert.equal(e.object.code, 504);
      assert.equal(e.object.reason, 'Timeout');
      assert.match(e.object.message, /^Too large resource version: 99999999, current: \d+$/);
      await w.ended;
    });

    it('without allowWatchBookmarks: the initial events and no end bookmark', async () => {
      const w = await s.client.watch(`${CM}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan`);
      try {
        const events = [await w.next(), await w.next(), await w.next(), ...(await w.drain(300))];
        assert.deepEqual(
          events.map((e) => e.type),
          ['ADDED', 'ADDED', 'ADDED'],
        );
      } finally {
        w.close();
      }
    });

    it('sendInitialEvents=false: only the changes from now on', async () => {
      const w = await s.client.watch(`${CM}?watch=1&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`);
      try {
        assert.equal(w.status, 200);
        assert.deepEqual(await w.drain(300), []);
        await create(s.client, 'later');
        const next = await w.next();
        assert.deepEqual([next.type, next.object.metadata.name], ['ADDED', 'later']);
      } finally {
        w.close();
        assert.equal((await s.client.delete(`${CM}/later`)).status, 200);
      }
    });

    it('one object by name: its ADDED, then the end bookmark', async () => {
      const w = await s.client.watch(`${CM}?${WL}&fieldSelector=metadata.name%3Db`);
      try {
        const events = await initialEvents(w);
        assert.deepEqual(
          events.map((e) => [e.type, e.object.metadata.name]),
          [
            ['ADDED', 'b'],
            ['BOOKMARK', undefined],
          ],
        );
      } finally {
        w.close();
      }
    });

    it('in protobuf: the same events, the end bookmark with its annotation', async () => {
      const w = await watchProtobuf(s.client, `${CM}?${WL}`);
      try {
        assert.equal(w.status, 200);
        const events: { type: string; object: Record<string, any> }[] = [];
        for (let i = 0; i < 4; i++) {
          const e = decodeReferenceWatchEvent(await w.next());
          const env = decodeReferenceEnvelope(e.object);
          events.push({ type: e.type, object: decodeReferenceMessage('k8s.io.api.core.v1.ConfigMap', env.raw) });
        }
        assert.deepEqual(
          events.map((e) => e.type),
          ['ADDED', 'ADDED', 'ADDED', 'BOOKMARK'],
        );
        assert.deepEqual(events[3].object.metadata.annotations, { [END]: 'true' });
        assert.ok(Number(events[3].object.metadata.resourceVersion) > 0);
      } finally {
        w.close();
      }
    });

    it('streams more than a page of the store (500) whole, in key order', async () => {
      const names = Array.from({ length: 1100 }, (_, i) => `p${String(i).padStart(4, '0')}`);
      for (let i = 0; i < names.length; i += 50)
        await Promise.all(names.slice(i, i + 50).map((n) => create(s.client, n, { app: 'paged' })));
      const w = await s.client.watch(`${CM}?${WL}&labelSelector=app%3Dpaged`);
      try {
        const events = await initialEvents(w);
        assert.equal(events.length, names.length + 1);
        assert.deepEqual(
          events.slice(0, -1).map((e) => e.object.metadata.name),
          names,
        );
      } finally {
        w.close();
      }
    });
  });
}

describe('WatchList validation (Kubernetes 1.28 ListOptions)', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.stop());

  it('answers 422 Invalid ListOptions with kube-apiserver body', async () => {
    const r = await s.client.get(`${CM}?watch=1&sendInitialEvents=true`);
    assert.equal(r.status, 422);
    assert.deepEqual(r.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'ListOptions.meta.orch.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
      reason: 'Invalid',
      details: {
        group: 'meta.orch.io',
        kind: 'ListOptions',
        causes: [
          {
            reason: 'FieldValueForbidden',
            message: 'Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
            field: 'resourceVersionMatch',
          },
        ],
      },
      code: 422,
    });
  });

  it('refuses the other combinations kube-apiserver refuses, with its messages', async () => {
    const cases: [string, string][] = [
      [
        'watch=1&resourceVersionMatch=Exact&resourceVersion=1&sendInitialEvents=true',
        '[resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan, resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"]',
      ],
      [
        'watch=1&resourceVersionMatch=NotOlderThan&resourceVersion=1',
        'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
      ],
      [
        'watch=1&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&continue=abc',
        'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided',
      ],
      ['sendInitialEvents=true', 'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list'],
      ['sendInitialEvents=false', 'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list'],
    ];
    for (const [q, message] of cases) {
      const r = await s.client.get(`${CM}?${q}`);
      assert.equal(r.status, 422, `${q}: ${r.text}`);
      assert.equal(r.body.reason, 'Invalid');
      assert.equal(r.body.message, `ListOptions.meta.orch.io "" is invalid: ${message}`, q);
    }
  });
});

describe('the WatchList gate off', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ args: ['--feature-gates=WatchList=false'] });
    await createNamespace(s.client, NS);
    await create(s.client, 'a');
  });
  after(() => s.stop());

  it('refuses sendInitialEvents on a watch', async () => {
    const r = await s.client.get(`${CM}?${WL}`);
    assert.equal(r.status, 422);
    assert.deepEqual(r.body.details.causes, [
      {
        reason: 'FieldValueForbidden',
        message: 'Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
        field: 'sendInitialEvents',
      },
    ]);
  });

  it('a watch from "" is not defaulted to one: no end bookmark after its initial events', async () => {
    const w = await s.client.watch(`${CM}?watch=1&allowWatchBookmarks=true`);
    try {
      const events = [await w.next(), ...(await w.drain(300))];
      assert.deepEqual(
        events.map((e) => [e.type, e.object.metadata.name]),
        [['ADDED', 'a']],
      );
    } finally {
      w.close();
    }
  });
});

describe('WatchList of a custom resource, and across worker processes', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ process: true, args: ['--workers=2'] });
    await createNamespace(s.client, NS);
  });
  after(() => s.stop());

  it('streams custom objects with the end bookmark of their kind, on every worker', async () => {
    const crd = cronTabCrd();
    await createServedCrd(s.client, crd);
    const { group, names } = crd.spec;
    const path = `/apis/${group}/v1/namespaces/${NS}/${names.plural}`;
    for (const n of ['one', 'two']) {
      const r = await s.client.post(path, {
        apiVersion: `${group}/v1`,
        kind: names.kind,
        metadata: { name: n },
        spec: { cronSpec: '* * * * *' },
      });
      assert.equal(r.status, 201, r.text);
    }
    // Several watches: the connections land on both workers.
    for (let i = 0; i < 4; i++) {
      const w = await s.client.watch(`${path}?${WL}`);
      const events = await initialEvents(w);
      w.close();
      assert.deepEqual(added(events), ['one', 'two']);
      assert.deepEqual(events.at(-1)!.object.kind, names.kind);
      assert.deepEqual(events.at(-1)!.object.apiVersion, `${group}/v1`);
    }
  });
});

/** The resident memory of a process, in MB. */
function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

/**
 * A watch whose client reads slowly: after each chunk it stops reading for `pauseMs` (so the server
 * sees a full socket). Resolves with the ADDED count once the initial events' end bookmark came.
 */
function slowWatch(c: TestClient, path: string, pauseMs: number): { done: Promise<{ added: number; ended: boolean }>; close(): void } {
  const agent = new Agent({ ca: c.config.ca });
  let res: IncomingMessage | undefined;
  const done = new Promise<{ added: number; ended: boolean }>((resolve, reject) => {
    const req = httpsRequest(
      new URL(path, c.config.url),
      { headers: { Accept: 'application/json', Authorization: `Bearer ${c.config.token}` }, agent },
      (r) => {
        res = r;
        let buf = '';
        let count = 0;
        r.setEncoding('utf8');
        r.on('data', (chunk: string) => {
          buf += chunk;
          let nl: number;
          while ((nl = buf.indexOf('\n')) >= 0) {
            const e = JSON.parse(buf.slice(0, nl)) as Event;
            buf = buf.slice(nl + 1);
            if (e.type === 'ADDED') count++;
            else if (isEnd(e)) return resolve({ added: count, ended: true });
            else return reject(new Error(`unexpected ${e.type}: ${JSON.stringify(e.object).slice(0, 300)}`));
          }
          r.pause();
          setTimeout(() => r.resume(), pauseMs);
        });
        r.on('end', () => resolve({ added: count, ended: false }));
      },
    );
    req.on('error', reject);
    req.end();
  });
  return {
    done,
    close() {
      res?.destroy();
      agent.destroy();
    },
  };
}

async function metric(s: TestServer, line: RegExp): Promise<number> {
  const text = (await s.client.get('/metrics')).text;
  const m = text.split('\n').find((l) => line.test(l));
  return m ? Number(m.split(' ').at(-1)) : 0;
}

describe('a client that reads 5,000 objects slowly', () => {
  const COUNT = 5000;
  /** 2 kB each: ~11 MB of stream, more than a watch may leave unread (4 MiB) if the server did not wait for the client. */
  const BYTES = 2000;
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'orch-watch-list-'));
    const s = await startTestServer({ dataDir });
    try {
      await createNamespace(s.client, NS);
      const names = Array.from({ length: COUNT }, (_, i) => `o${i}`);
      for (let i = 0; i < names.length; i += 64)
        await Promise.all(
          names.slice(i, i + 64).map(async (name) => {
            const r = await s.client.post(CM, { metadata: { name }, data: { v: ''.padEnd(BYTES, 'x') } });
            assert.equal(r.status, 201, r.text);
          }),
        );
    } finally {
      await s.stop();
    }
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  for (const cached of [true, false]) {
    it(`gets all of them ${cached ? 'from the watch cache' : 'from the store (--watch-cache=false)'} while the server stays responsive and bounded`, async () => {
      const s = await startTestServer({ dataDir, process: true, args: ['--workers=1', ...(cached ? [] : ['--watch-cache=false'])] });
      try {
        // Warm: the cache loaded (or the store read once), so the baseline holds what any list needs.
        const warm = await s.client.watch(`${CM}?${WL}&labelSelector=none%3Dnone`);
        await initialEvents(warm);
        warm.close();
        const baseline = rssMb(s.pid);
        let peak = baseline;
        const sampler = setInterval(() => (peak = Math.max(peak, rssMb(s.pid))), 100);
        const started = Date.now();
        const w = slowWatch(s.client, `${CM}?${WL}`, 5);
        const getMs: number[] = [];
        let finished = false;
        const probes = (async () => {
          while (!finished) {
            const t0 = Date.now();
            const r = await s.client.get(`${CM}/o42`);
            assert.equal(r.status, 200);
            getMs.push(Date.now() - t0);
            await new Promise((r) => setTimeout(r, 200));
          }
        })();
        const result = await w.done;
        finished = true;
        await probes;
        clearInterval(sampler);
        w.close();
        const seconds = (Date.now() - started) / 1000;
        const grown = peak - baseline;
        const worstGet = Math.max(...getMs);
        process.stderr.write(
          `watch-list ${cached ? 'cached' : 'store'}: ${COUNT} objects in ${seconds.toFixed(1)} s, RSS +${grown.toFixed(0)} MB, ${getMs.length} GETs, worst ${worstGet} ms\n`,
        );
        assert.deepEqual(result, { added: COUNT, ended: true });
        assert.ok(seconds > 2, `the client read slowly (${seconds} s)`);
        assert.ok(getMs.length >= 5, `GETs answered while the stream went on (${getMs.length})`);
        assert.ok(worstGet < 2000, `the slowest GET took ${worstGet} ms`);
        assert.equal(await metric(s, /^apiserver_terminated_watchers_total\{resource="configmaps"\}/), 0);
        // The stream is ~11 MB; held whole (as JSON strings and frames) it would be several times that.
        assert.ok(grown < 60, `the server grew by ${grown.toFixed(0)} MB`);
      } finally {
        await s.stop();
      }
    });
  }
});
