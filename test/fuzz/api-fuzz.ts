/**
 * The fuzz suite against one running orch-apiserver process (run by a small *.test.ts per backend).
 * Lanes of seeded random inputs (generators.ts) for a time budget; every answer is checked as it
 * comes, the server watched beside them, and what was written before the fuzzing read back after it:
 *
 * - no 5xx, but 504 "Too large resource version" for a read at a resourceVersion the store has not
 *   reached (Kubernetes' documented answer after its 3 s wait); no request without an answer; no
 *   request over 5 s (to the answer's headers for a watch);
 * - the server alive, its process tree the same pids (a worker that died and was replaced is a
 *   crash), /readyz 200 within 5 s throughout, its resident memory (the tree's VmRSS) bounded;
 * - every 2xx write of an object reads back as the answer said, the object in the lane's namespace,
 *   its resourceVersion never behind an earlier one (and only the same for the same object); a 2xx
 *   delete leaves the object gone or being deleted;
 * - the sentinels (one object of each kind and the CRD, written before the fuzzing, then only read
 *   or written with dryRun=All) read back unchanged, and their namespace holds nothing else.
 */
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { newApiDomain } from '../../apiserver/api/domain.js';
import { definitions } from '../../apiserver/api/generated/definitions.js';
import { newProtobufCodec } from '../../apiserver/runtime/protobuf/codec.js';
import type { TestServer } from '../support/api-server.js';
import { cronTabCrd, createServedCrd } from '../support/crd-fixtures.js';
import { createDefaultServiceAccount, createNamespace } from '../support/namespaces.js';
import { type FuzzAnswer, type FuzzRequest, jsonOf, newFuzzClient } from './fuzz-client.js';
import {
  CATEGORIES,
  type Category,
  generate,
  type Input,
  KNOWN_BUG_CATEGORIES,
  type Lane,
  NAMES_PER_KIND,
  pickCategory,
  SENTINEL_NAMESPACE,
  sentinelName,
} from './generators.js';
import { itemPath, KIND_NAMES, KINDS, laneNames } from './kinds.js';
import { watchHarnessStalls } from './harness-stalls.js';
import { isAlive, processTree, treeRss } from './process-tree.js';
import { newRandom } from './random.js';

/** The longest any request may take (to its answer's headers for a watch). */
const SLOW_MS = 5000;
/** A request still unanswered after this is aborted and reported. */
const ABORT_MS = 15_000;
/** The server's resident memory may grow to this many times what it held after the setup, plus RSS_HEADROOM. */
const RSS_FACTOR = 2;
const RSS_HEADROOM = 256 * 1024 * 1024;
const MONITOR_MS = 500;
const READYZ_EVERY_MS = 2000;
/** Failures kept in detail (all are counted). */
const MAX_FAILURES = 40;

export interface FuzzSettings {
  /** The whole budget of fuzzing, all passes together (ORCH_FUZZ_SECONDS, default 150). */
  seconds: number;
  /** ORCH_FUZZ_SEED; a random one when absent (printed, so any run can be replayed). */
  seed: number;
  /** Concurrent lanes (ORCH_FUZZ_LANES, default 4). */
  lanes: number;
  /** The generators of bugs known and being fixed (ORCH_FUZZ_KNOWN_BUGS=0 leaves them out; on by default). */
  knownBugs: boolean;
  /** ORCH_FUZZ_CATEGORIES: only these categories (comma-separated), to chase one finding. */
  categories?: Category[];
}

export function fuzzSettings(env = process.env): FuzzSettings {
  const num = (v: string | undefined, d: number) => (v === undefined || v === '' || !Number.isFinite(Number(v)) ? d : Number(v));
  return {
    seconds: num(env.ORCH_FUZZ_SECONDS, 150),
    seed: num(env.ORCH_FUZZ_SEED, randomInt(1, 2 ** 31)) >>> 0,
    lanes: Math.max(1, Math.floor(num(env.ORCH_FUZZ_LANES, 4))),
    knownBugs: env.ORCH_FUZZ_KNOWN_BUGS !== '0',
    categories: env.ORCH_FUZZ_CATEGORIES
      ? (env.ORCH_FUZZ_CATEGORIES.split(',').filter((c) => (CATEGORIES as readonly string[]).includes(c)) as Category[])
      : undefined,
  };
}

interface Failure {
  what: string;
  category: Category | 'monitor' | 'sentinel';
  lane?: number;
  input?: number;
  request?: FuzzRequest;
  answer?: FuzzAnswer;
  detail?: string;
}

interface CategoryStats {
  inputs: number;
  refused: number;
  byStatus: Record<string, number>;
  maxMs: number;
  /** The slowest input, summarized. */
  slowest: string;
}

export interface FuzzReport {
  inputs: number;
  perCategory: Record<string, CategoryStats>;
  readBacks: number;
  peakRss: number;
  baselineRss: number;
  failures: Failure[];
  failureCount: number;
}

/** One object of each kind and the CronTab CRD in the sentinel namespace, as read after they were written. */
async function writeSentinels(s: TestServer): Promise<Map<string, unknown>> {
  await createNamespace(s.client, SENTINEL_NAMESPACE);
  await createDefaultServiceAccount(s.client, SENTINEL_NAMESPACE);
  await createServedCrd(s.client, cronTabCrd());
  const r = newRandom(1);
  const snapshot = new Map<string, unknown>();
  for (const name of KIND_NAMES) {
    const kind = KINDS[name];
    const path = itemPath(kind, SENTINEL_NAMESPACE, sentinelName(kind));
    if (name !== 'crd') {
      const w = await s.client.post(kind.collection(SENTINEL_NAMESPACE), kind.template(sentinelName(kind), SENTINEL_NAMESPACE, r));
      assert.equal(w.status, 201, `sentinel ${path}: ${w.text}`);
    }
    const g = await s.client.get(path);
    assert.equal(g.status, 200, `sentinel ${path}: ${g.text}`);
    snapshot.set(path, g.body);
  }
  const ns = await s.client.get(`/api/v1/namespaces/${SENTINEL_NAMESPACE}`);
  snapshot.set(`/api/v1/namespaces/${SENTINEL_NAMESPACE}`, ns.body);
  return snapshot;
}

/** Each lane's namespace and objects (its CRD pool's first name too), so patches find something to patch. */
async function writeLaneObjects(s: TestServer, lanes: number): Promise<void> {
  const r = newRandom(2);
  for (let lane = 0; lane < lanes; lane++) {
    const ns = `fuzz-${lane}`;
    await createNamespace(s.client, ns);
    await createDefaultServiceAccount(s.client, ns);
    for (const name of KIND_NAMES) {
      const kind = KINDS[name];
      const names = laneNames(kind, lane, NAMES_PER_KIND).slice(0, name === 'crd' ? 1 : NAMES_PER_KIND);
      for (const n of names) {
        const w = await s.client.post(kind.collection(ns), kind.template(n, ns, r));
        assert.equal(w.status, 201, `lane object ${kind.collection(ns)}/${n}: ${w.text}`);
      }
    }
  }
}

function isAllowed5xx(a: FuzzAnswer, req: FuzzRequest): boolean {
  // Kubernetes' answer to a read at a resourceVersion the store has not reached, after its 3 s wait.
  if (a.status !== 504) return false;
  const body = jsonOf(a);
  return (
    body?.reason === 'Timeout' && body?.details?.causes?.[0]?.reason === 'ResourceVersionTooLarge' && /[?&;]resourceVersion=/.test(req.path)
  );
}

/** Node's HTTP server reads request heads (request line and headers) up to 16 KiB. */
const MAX_HEAD_BYTES = 16 * 1024;

/**
 * A request whose head is beyond what Node's HTTP parser reads: it answers 431 and closes the
 * connection, which a client still sending its head sees as a reset. Go's server answers 431 too.
 */
function isHeadOverflow(req: FuzzRequest, a: FuzzAnswer): boolean {
  const head = req.path.length + Object.entries(req.headers ?? {}).reduce((n, [k, v]) => n + k.length + v.length + 4, 0);
  return head > MAX_HEAD_BYTES - 512 && (a.status === 431 || /ECONNRESET|EPIPE|socket hang up/.test(a.error ?? ''));
}

function summarizeRequest(req: FuzzRequest | undefined): string {
  if (!req) return '';
  const body = req.body === undefined ? '' : Buffer.from(req.body);
  const shown = body ? JSON.stringify(body.subarray(0, 600).toString('utf8')) : '';
  const headers = Object.entries(req.headers ?? {}).map(([k, v]) => `${k}: ${v.length > 120 ? `${v.slice(0, 120)}…(${v.length})` : v}`);
  return `${req.method} ${req.path.length > 400 ? `${req.path.slice(0, 400)}…(${req.path.length})` : req.path}\n    ${headers.join('\n    ')}${body ? `\n    body (${body.length} bytes): ${shown}` : ''}`;
}

function summarizeAnswer(a: FuzzAnswer | undefined): string {
  if (!a) return '';
  return `${a.status}${a.error ? ` (${a.error})` : ''} in ${Math.round(a.ms)} ms: ${a.bytes.subarray(0, 600).toString('utf8')}`;
}

/** Undefined when the two are deeply equal, else the difference. */
function sameObject(a: unknown, b: unknown): string | undefined {
  try {
    assert.deepStrictEqual(a, b);
    return undefined;
  } catch (err) {
    return (err as Error).message.slice(0, 2000);
  }
}

/**
 * A CRD without what the server's own CRD controller writes right after a change (its status: names
 * accepted, established; and so its resourceVersion and managed fields).
 */
function withoutStatus(crd: any): unknown {
  const { resourceVersion: _rv, managedFields: _mf, ...metadata } = crd?.metadata ?? {};
  return { ...crd, status: undefined, metadata };
}

export async function runFuzz(t: TestContext, s: TestServer, settings: FuzzSettings, seconds: number, label: string): Promise<FuzzReport> {
  const enabled = CATEGORIES.filter(
    (c) => (settings.knownBugs || !KNOWN_BUG_CATEGORIES.includes(c)) && (!settings.categories || settings.categories.includes(c)),
  );
  assert.ok(enabled.length > 0, 'no fuzz category enabled');
  const sentinels = await writeSentinels(s);
  await writeLaneObjects(s, settings.lanes);

  const pids = processTree(s.pid);
  const baselineRss = treeRss(pids);
  const rssBound = baselineRss * RSS_FACTOR + RSS_HEADROOM;
  const report: FuzzReport = { inputs: 0, perCategory: {}, readBacks: 0, peakRss: baselineRss, baselineRss, failures: [], failureCount: 0 };
  for (const c of enabled) report.perCategory[c] = { inputs: 0, refused: 0, byStatus: {}, maxMs: 0, slowest: '' };
  const outDir = join(tmpdir(), `orch-fuzz-${settings.seed}-${label}`);
  /** Each lane's last inputs, with when they ran: what held the server shows here when other lanes' requests time out. */
  const recent = new Map<number, { category: string; what: string; since: number; until?: number }[]>();
  const fail = (f: Failure) => {
    report.failureCount++;
    if (f.what.startsWith('took') && f.lane !== undefined && f.answer) {
      const end = performance.now();
      const start = end - f.answer.ms;
      const overlapping = [...recent.entries()]
        .filter(([lane]) => lane !== f.lane)
        .flatMap(([lane, xs]) => xs.filter((x) => x.since <= end && (x.until ?? end) >= start).map((x) => ({ lane, ...x })));
      f.detail = `${f.detail ? `${f.detail}\n` : ''}    other lanes meanwhile: ${overlapping
        .map((x) => `lane ${x.lane} ${x.category} ${Math.round((x.until ?? end) - x.since)} ms${x.until ? '' : ' (in flight)'}: ${x.what}`)
        .join('\n      ')}`;
    }
    if (report.failures.length >= MAX_FAILURES) return;
    report.failures.push(f);
    if (f.request) {
      mkdirSync(outDir, { recursive: true });
      const body = f.request.body === undefined ? undefined : Buffer.from(f.request.body).toString('base64');
      writeFileSync(
        join(outDir, `failure-${report.failures.length}.json`),
        JSON.stringify({ ...f, request: { ...f.request, body }, answer: f.answer && summarizeAnswer(f.answer) }, null, 2),
      );
    }
  };

  const stalls = watchHarnessStalls();
  /** The answer's time less the time this process itself was stalled meanwhile. */
  const serverMs = (a: FuzzAnswer) => {
    const end = performance.now();
    return a.ms - stalls.within(end - a.ms, end);
  };
  const client = newFuzzClient({ url: s.url, ca: s.ca, token: s.token, abortMs: ABORT_MS, stalledWithin: stalls.within });
  const anonymous = newFuzzClient({ url: s.url, ca: s.ca, abortMs: ABORT_MS, stalledWithin: stalls.within });
  const codec = newProtobufCodec(newApiDomain(), definitions);
  const deadline = Date.now() + seconds * 1000;
  let running = true;

  // The server beside the lanes: alive, the same processes, ready, within its memory.
  const monitorClient = newFuzzClient({ url: s.url, ca: s.ca, token: s.token, abortMs: ABORT_MS, stalledWithin: stalls.within });
  let lastReadyz = 0;
  let rssOver = false;
  const monitor = (async () => {
    while (running) {
      await new Promise((r) => setTimeout(r, MONITOR_MS));
      const now = processTree(s.pid);
      if (!isAlive(s.pid)) {
        fail({ category: 'monitor', what: 'the server process exited' });
        running = false;
        return;
      }
      if (now.join() !== pids.join()) {
        fail({ category: 'monitor', what: `the server's processes changed (a worker died?): ${pids.join()} → ${now.join()}` });
        pids.splice(0, pids.length, ...now);
      }
      const rss = treeRss(now);
      report.peakRss = Math.max(report.peakRss, rss);
      if (rss > rssBound && !rssOver) {
        rssOver = true;
        fail({
          category: 'monitor',
          what: `server RSS ${(rss / 2 ** 20).toFixed(0)} MiB over its bound ${(rssBound / 2 ** 20).toFixed(0)} MiB (baseline ${(baselineRss / 2 ** 20).toFixed(0)} MiB)`,
        });
      }
      if (Date.now() - lastReadyz >= READYZ_EVERY_MS) {
        lastReadyz = Date.now();
        const a = await monitorClient.send({ method: 'GET', path: '/readyz' });
        if (a.status !== 200 || serverMs(a) > SLOW_MS) fail({ category: 'monitor', what: '/readyz not 200 within 5 s', answer: a });
      }
    }
  })();

  const laneLoop = async (index: number) => {
    // Each lane its own stream of the seed.
    const r = newRandom((settings.seed + Math.imul(index + 1, 0x9e3779b9)) >>> 0);
    const lane: Lane = { index, namespace: `fuzz-${index}`, r, codec, token: s.token };
    const lastRv = new Map<string, { rv: number; object: unknown }>();
    let n = 0;
    while (running && Date.now() < deadline) {
      const category = pickCategory(lane.r, enabled);
      let input: Input;
      try {
        input = generate(lane, category);
      } catch (err) {
        // A value too deep for this process's own stack (structuredClone, JSON.stringify): not an input.
        if (err instanceof RangeError) continue;
        throw err;
      }
      n++;
      report.inputs++;
      const stats = report.perCategory[category];
      stats.inputs++;
      const unauthenticated = input.req.headers?.Authorization !== undefined;
      const entry: { category: string; what: string; since: number; until?: number } = {
        category,
        what: `${input.req.method} ${input.req.path.slice(0, 300)} (${input.req.body?.length ?? 0} bytes${input.req.streamMs !== undefined ? ', a stream' : ''})`,
        since: performance.now(),
      };
      const mine = recent.get(index) ?? [];
      mine.push(entry);
      if (mine.length > 4) mine.shift();
      recent.set(index, mine);
      const a = await (unauthenticated ? anonymous : client).send(input.req);
      entry.until = performance.now();
      if (a.refused) {
        stats.refused++;
        continue;
      }
      const cls = a.status === 0 ? 'none' : `${Math.floor(a.status / 100)}xx`;
      stats.byStatus[cls] = (stats.byStatus[cls] ?? 0) + 1;
      if (a.ms > stats.maxMs) {
        stats.maxMs = a.ms;
        stats.slowest = `${input.req.method} ${input.req.path.slice(0, 160)} (${input.req.body?.length ?? 0} bytes) → ${a.status}`;
      }
      const where = { category, lane: index, input: n, request: input.req, answer: a };
      if (isHeadOverflow(input.req, a)) {
        stats.byStatus['431'] = (stats.byStatus['431'] ?? 0) + 1;
        continue;
      }
      if (a.status === 0) fail({ ...where, what: 'no answer' });
      else if (a.status >= 500 && !isAllowed5xx(a, input.req)) fail({ ...where, what: `answered ${a.status}` });
      const ms = serverMs(a);
      if (ms > SLOW_MS)
        fail({
          ...where,
          what: `took ${Math.round(a.ms)} ms${ms < a.ms - 1 ? ` (${Math.round(a.ms - ms)} ms of it this process was stalled)` : ''}`,
        });
      if (a.status >= 200 && a.status < 300) await checkWrite(lane, input, a, lastRv, (what, detail) => fail({ ...where, what, detail }));
    }
  };

  /** A 2xx write reads back as answered, in the lane's namespace, its resourceVersion never going back. */
  const checkWrite = async (
    lane: Lane,
    input: Input,
    a: FuzzAnswer,
    lastRv: Map<string, { rv: number; object: unknown }>,
    bad: (what: string, detail?: string) => void,
  ) => {
    if (input.expect.deleted) {
      report.readBacks++;
      const g = await client.send({ method: 'GET', path: input.expect.deleted });
      const obj = jsonOf(g);
      if (!(g.status === 404 || (g.status === 200 && obj?.metadata?.deletionTimestamp)))
        bad('a deleted object is still there', summarizeAnswer(g));
      return;
    }
    const o = input.expect.object;
    if (!o) return;
    const answer = jsonOf(a);
    if (answer?.kind !== o.kind.kind || answer?.apiVersion !== o.kind.apiVersion || typeof answer?.metadata?.name !== 'string') return;
    const ns = answer.metadata.namespace;
    if (o.kind.namespaced ? ns !== o.namespace : ns !== undefined) {
      bad(`a write to ${o.namespace} answered an object in namespace ${JSON.stringify(ns)}`);
      return;
    }
    const path = itemPath(o.kind, o.namespace, answer.metadata.name);
    report.readBacks++;
    const g = await client.send({ method: 'GET', path });
    // An update that takes the last finalizer off an object being deleted deletes it (as in Kubernetes).
    if (g.status === 404 && answer.metadata.deletionTimestamp) return;
    if (g.status !== 200) {
      bad(`read back ${path} after a ${a.status} write: ${g.status}`, summarizeAnswer(g));
      return;
    }
    const read = jsonOf(g);
    const diff = o.kind.name === 'crd' ? sameObject(withoutStatus(read), withoutStatus(answer)) : sameObject(read, answer);
    if (diff) bad(`${path} read back differs from the write's answer`, diff);
    if (Number(read?.metadata?.resourceVersion) < Number(answer.metadata.resourceVersion))
      bad(`${path} read back older than the write's answer`);
    const rv = Number(answer.metadata.resourceVersion);
    const prev = lastRv.get(path);
    if (!Number.isSafeInteger(rv) || rv <= 0) bad(`${path}: resourceVersion ${JSON.stringify(answer.metadata.resourceVersion)}`);
    else if (prev && rv < prev.rv) bad(`${path}: resourceVersion went back from ${prev.rv} to ${rv}`);
    else if (prev && rv === prev.rv && sameObject(prev.object, answer))
      bad(`${path}: changed, but its resourceVersion ${rv} did not move`, sameObject(prev.object, answer));
    lastRv.set(path, { rv, object: answer });
    // An object a mutated body named outside the lane's pool is removed again, so objects do not pile up.
    if (!laneNames(o.kind, lane.index, NAMES_PER_KIND).includes(answer.metadata.name)) {
      await client.send({ method: 'DELETE', path });
      lastRv.delete(path);
    }
  };

  const started = Date.now();
  await Promise.all(Array.from({ length: settings.lanes }, (_, i) => laneLoop(i)));
  const elapsed = (Date.now() - started) / 1000;
  running = false;
  await monitor;

  // After the fuzzing: alive, ready, the sentinels unchanged and alone in their namespace.
  if (!isAlive(s.pid)) fail({ category: 'monitor', what: 'the server process is gone after the fuzzing' });
  else {
    const ready = await monitorClient.send({ method: 'GET', path: '/readyz' });
    if (ready.status !== 200)
      fail({ category: 'monitor', what: '/readyz after the fuzzing (so the sentinels were not read)', answer: ready });
    else
      for (const [path, before] of sentinels) {
        for (const q of ['', '?resourceVersion=0']) {
          const g = await monitorClient.send({ method: 'GET', path: path + q });
          const diff = g.status === 200 ? sameObject(jsonOf(g), before) : `${g.status}: ${g.bytes.toString('utf8').slice(0, 500)}`;
          if (diff) fail({ category: 'sentinel', what: `sentinel ${path}${q} changed`, detail: diff });
        }
      }
    for (const name of ready.status === 200 ? KIND_NAMES : []) {
      const kind = KINDS[name];
      if (!kind.namespaced) continue;
      const l = jsonOf(await monitorClient.send({ method: 'GET', path: kind.collection(SENTINEL_NAMESPACE) }));
      const names = (l?.items ?? [])
        .map((i: any) => i.metadata.name)
        .filter((n: string) => n !== 'default' && n !== 'kube-root-ca.crt' && !n.startsWith('default-token'));
      if (names.join() !== sentinelName(kind))
        fail({ category: 'sentinel', what: `${kind.collection(SENTINEL_NAMESPACE)} holds ${JSON.stringify(names)}` });
    }
  }
  client.close();
  anonymous.close();
  monitorClient.close();
  stalls.stop();

  const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
  t.diagnostic(
    `${label}: seed ${settings.seed}, ${settings.lanes} lanes, ${elapsed.toFixed(1)} s, ${report.inputs} inputs (${(report.inputs / elapsed).toFixed(0)}/s), ${report.readBacks} read backs, this process's longest stall ${Math.round(stalls.longest())} ms`,
  );
  for (const [c, st] of Object.entries(report.perCategory)) {
    t.diagnostic(
      `${label}: ${c}: ${st.inputs} inputs, ${JSON.stringify(st.byStatus)}, refused by the client ${st.refused}, slowest ${Math.round(st.maxMs)} ms: ${st.slowest}`,
    );
  }
  t.diagnostic(`${label}: server RSS ${mib(baselineRss)} after setup, peak ${mib(report.peakRss)} (bound ${mib(rssBound)})`);
  if (report.failureCount) t.diagnostic(`${label}: ${report.failureCount} failures; inputs in ${outDir}`);
  return report;
}

/** Fails the test with every failure kept: what, the input (and how to replay it), the answer, and the server's last log lines. */
export function assertNoFailures(report: FuzzReport, s: TestServer, settings: FuzzSettings): void {
  if (report.failureCount === 0) return;
  const lines = report.failures.map(
    (f, i) =>
      `#${i + 1} [${f.category}${f.lane !== undefined ? ` lane ${f.lane} input ${f.input}` : ''}] ${f.what}` +
      (f.request ? `\n  input: ${summarizeRequest(f.request)}` : '') +
      (f.answer ? `\n  answer: ${summarizeAnswer(f.answer)}` : '') +
      (f.detail ? `\n  ${f.detail}` : ''),
  );
  assert.fail(
    `${report.failureCount} fuzz failures (replay: ORCH_FUZZ_SEED=${settings.seed} ORCH_FUZZ_LANES=${settings.lanes}):\n${lines.join('\n')}\n\nserver log tail:\n${s.logs().split('\n').slice(-60).join('\n')}`,
  );
}
