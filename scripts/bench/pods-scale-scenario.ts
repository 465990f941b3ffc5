/**
 * `pods-150k` (by name only): on each server in turn (orch on etcd with its default flags and, with
 * --compare, kube-apiserver with --feature-gates=WatchList=true, each on an etcd of its own), small
 * Pods are created by POST (no scheduler: they stay Pending) up to each of --pods-steps (default
 * 10,000, 50,000, 150,000: Kubernetes' 150k-Pod limit). At each step:
 *
 * - the server's RSS (its process tree) and the RSS per Pod: (RSS − RSS before any Pod) / Pods;
 * - LIST p50 of every Pod (`/api/v1/pods`, resourceVersion unset: a consistent list, no limit), the
 *   answer read and counted, never held;
 * - a WatchList (`watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
 *   from the newest Pod's resourceVersion, as an informer resuming from what it last saw would):
 *   the time to the bookmark ending its initial events, with every Pod seen as ADDED, and the
 *   server's peak RSS meanwhile (sampled every 100 ms).
 *
 * Then how each figure grows from the first step to the last: the exponent k of figure ∝ Pods^k (the
 * log-log slope; 1 is linear), for the RSS the Pods add, LIST p50 and the WatchList time.
 *
 * Why an explicit resourceVersion: kube-apiserver 1.28 sends a watch-list from "" its end bookmark
 * only once its cache has seen the store's revision of the request, and asks etcd for progress only
 * for an explicit one, so on a resource nothing else writes that bookmark may wait for minutes.
 */
import { ApiClient, expectStatus } from './api-client.js';
import { loadKubeconfig } from './kubeconfig.js';
import type { LocalApiServer } from './local-cluster.js';
import { percentile, round, runLoad } from './stats.js';
import { residentBytes, rssSampler, type ScenarioResult } from './workload.js';

export interface PodsScaleOptions {
  /** The Pod counts measured at, increasing. */
  steps: number[];
  /** Concurrent creates. */
  concurrency: number;
}

/** A server the scenario starts, measures and stops before the next one. */
export interface PodsScaleTarget {
  name: string;
  start(): Promise<{ server: LocalApiServer; stop(): Promise<void> }>;
}

const NS = 'pods-scale';
/** LISTs timed at each step (each reads every Pod: seconds at 150k). */
const LIST_REPEATS = 3;
/** How long a WatchList may take to its end bookmark before the scenario gives up. */
const WATCH_LIST_TIMEOUT_MS = 10 * 60_000;
/** WatchLists tried again when a server ends one before its first event. */
const WATCH_LIST_RETRIES = 5;
const RESOURCE_VERSION = /"resourceVersion":"(\d+)"/;
/** How long the server is left alone before its RSS is read. */
const SETTLE_MS = 3000;

/** "10k", "150k", "1500" */
export function stepLabel(n: number): string {
  return n % 1000 === 0 ? `${n / 1000}k` : String(n);
}

/**
 * The i-th Pod's name, as a ReplicaSet names its Pods: a fixed prefix and a suffix in no order (i times
 * an odd constant mod 2^32 is one-to-one, so names never repeat), so each create lands anywhere in
 * the key order, as in a cluster, not at its end.
 */
export function podName(i: number): string {
  return `web-6d4b75cb6d-${(Math.imul(i, 0x9e3779b1) >>> 0).toString(36).padStart(7, '0')}`;
}

/** A small Pod, as kubectl run would make it (no service-account token mounted). */
function pod(i: number): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: podName(i), labels: { app: 'pods-scale' } },
    spec: { automountServiceAccountToken: false, containers: [{ name: 'pause', image: 'registry.k8s.io/pause:3.9' }] },
  });
}

/** k in y ∝ x^k between two points (undefined when either is not positive). */
export function growthExponent(x0: number, y0: number, x1: number, y1: number): number | undefined {
  if (x0 <= 0 || y0 <= 0 || x1 <= 0 || y1 <= 0 || x0 === x1) return undefined;
  return Math.round((Math.log(y1 / y0) / Math.log(x1 / x0)) * 100) / 100;
}

/**
 * Counts a JSON watch stream's events without parsing them: each line starts with its type (both
 * servers write `{"type":…` first); the bookmark ending the initial events is the one whose line
 * names `initial-events-end` (`k8s.io/…` or `orch.io/…`).
 */
export class WatchListCounter {
  added = 0;
  other = 0;
  ended = false;
  private head = '';
  private bookmark: string | undefined;

  onData(chunk: Buffer): void {
    let pos = 0;
    while (pos < chunk.length && !this.ended) {
      const nl = chunk.indexOf(10, pos);
      const end = nl < 0 ? chunk.length : nl;
      if (this.head.length < 20) this.head += chunk.toString('latin1', pos, Math.min(end, pos + 20 - this.head.length));
      const isBookmark = this.head.startsWith('{"type":"BOOKMARK"');
      if (isBookmark) this.bookmark = (this.bookmark ?? '') + chunk.toString('latin1', pos, end);
      if (nl < 0) return;
      if (this.head.startsWith('{"type":"ADDED"')) this.added++;
      else if (isBookmark && this.bookmark?.includes('/initial-events-end"')) this.ended = true;
      else this.other++;
      this.head = '';
      this.bookmark = undefined;
      pos = nl + 1;
    }
  }
}

/** GETs a path and reads the answer to its end, counting bytes; resolves with the time taken (ms). */
async function timedRead(api: ApiClient, path: string): Promise<{ ms: number; bytes: number }> {
  const t0 = performance.now();
  let bytes = 0;
  const stream = await api.watch(path, (c) => (bytes += c.length));
  await stream.ended;
  return { ms: performance.now() - t0, bytes };
}

/** The WatchList of every Pod: time to the end bookmark (every Pod ADDED before it) and the server's peak RSS. */
async function watchList(api: ApiClient, pid: number, pods: number, rv: string): Promise<{ ms: number; peakRss: number; retries: number }> {
  // kube-apiserver answers a WatchList from a revision its cache has not reached within 3 s with an
  // ERROR event (Too large resource version) and ends the stream, as after a burst of creates: try again.
  for (let retries = 0; ; retries++) {
    const r = await watchListOnce(api, pid, pods, rv);
    if (r.ended) return { ms: r.ms, peakRss: r.peakRss, retries };
    if (r.added > 0 || retries >= WATCH_LIST_RETRIES)
      throw new Error(`pods-150k: no initial-events-end bookmark after ${r.added} ADDED events; the stream began: ${r.start}`);
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

async function watchListOnce(
  api: ApiClient,
  pid: number,
  pods: number,
  rv: string,
): Promise<{ ended: boolean; added: number; start: string; ms: number; peakRss: number }> {
  const counter = new WatchListCounter();
  let start = '';
  const rss = rssSampler(pid);
  const t0 = performance.now();
  let ms = 0;
  let done: () => void = () => {};
  const ended = new Promise<void>((resolve) => (done = resolve));
  const stream = await api.watch(
    `/api/v1/pods?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion=${rv}`,
    (chunk) => {
      if (counter.ended) return;
      if (start.length < 300) start += chunk.toString('utf8', 0, Math.min(chunk.length, 300 - start.length));
      counter.onData(chunk);
      if (counter.ended) {
        ms = performance.now() - t0;
        done();
      }
    },
  );
  const timer = setTimeout(done, WATCH_LIST_TIMEOUT_MS);
  await Promise.race([ended, stream.ended.then(done)]);
  clearTimeout(timer);
  stream.close();
  const peakRss = await rss.stop();
  if (counter.ended && counter.added !== pods) throw new Error(`pods-150k: the WatchList sent ${counter.added} Pods of ${pods}`);
  return { ended: counter.ended, added: counter.added, start, ms, peakRss };
}

async function measure(target: PodsScaleTarget, o: PodsScaleOptions, log: (line: string) => void): Promise<ScenarioResult[]> {
  const { server, stop } = await target.start();
  const api = new ApiClient(loadKubeconfig(server.kubeconfig), o.concurrency);
  try {
    const ns = JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    expectStatus(await api.request('POST', '/api/v1/namespaces', ns), 201, 'create namespace');
    // ServiceAccount admission looks the Pods' account up; no controller manager makes it here.
    const sa = JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
    expectStatus(await api.request('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, sa), 201, 'create serviceaccount');
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const rssBefore = (await residentBytes(server.pid)) ?? 0;
    const results: ScenarioResult[] = [];
    let created = 0;
    // The newest Pod's resourceVersion: where the WatchList starts. Not the store's current revision,
    // which another resource's write (an Event, a Lease) may have set: kube-apiserver 1.28's Pod cache
    // only reaches that on a Pod event or etcd's progress notification (every 10 minutes), and until
    // then answers "Too large resource version".
    let newest = 0;
    for (const step of o.steps) {
      const from = created;
      const load = await runLoad({ concurrency: o.concurrency, count: step - from }, async (i) => {
        const body = expectStatus(await api.request('POST', `/api/v1/namespaces/${NS}/pods`, pod(from + i)), 201, 'create pod').body;
        newest = Math.max(newest, Number(RESOURCE_VERSION.exec(body)?.[1] ?? 0));
      });
      if (load.errors > 0) throw new Error(`pods-150k: ${load.errors} creates failed`);
      created = step;
      log(`pods-150k: ${target.name}: ${step} Pods (${load.rate} creates/s)`);
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      const rss = (await residentBytes(server.pid)) ?? 0;
      const lists: number[] = [];
      let listBytes = 0;
      for (let i = 0; i < LIST_REPEATS; i++) {
        const r = await timedRead(api, '/api/v1/pods');
        lists.push(r.ms);
        listBytes = r.bytes;
      }
      const wl = await watchList(api, server.pid, step, String(newest));
      const result: ScenarioResult = {
        scenario: `pods-${stepLabel(step)}`,
        pods: step,
        createRate: load.rate,
        rssBeforeMB: round(rssBefore / 2 ** 20),
        rssMB: round(rss / 2 ** 20),
        rssPerPodKB: round((rss - rssBefore) / step / 1024),
        listP50Ms: Math.round(percentile(lists, 50)),
        listMB: round(listBytes / 2 ** 20),
        watchListMs: Math.round(wl.ms),
        watchListRetries: wl.retries,
        watchListPeakRssMB: round(wl.peakRss / 2 ** 20),
      };
      log(`pods-150k: ${target.name}: ${JSON.stringify(result)}`);
      results.push(result);
    }
    results.push(growth(results));
    return results;
  } finally {
    api.close();
    await stop();
  }
}

/** The exponents between the first and the last step. */
function growth(steps: ScenarioResult[]): ScenarioResult {
  const first = steps[0];
  const last = steps[steps.length - 1];
  const n = (r: ScenarioResult, k: string) => Number(r[k]);
  const exp = (y: (r: ScenarioResult) => number) => growthExponent(n(first, 'pods'), y(first), n(last, 'pods'), y(last)) ?? '';
  return {
    scenario: 'pods-growth',
    from: n(first, 'pods'),
    to: n(last, 'pods'),
    rssExponent: exp((r) => n(r, 'rssMB') - n(r, 'rssBeforeMB')),
    listP50Exponent: exp((r) => n(r, 'listP50Ms')),
    watchListExponent: exp((r) => n(r, 'watchListMs')),
  };
}

/** Runs the scenario on each target in turn (one server and its etcd at a time). */
export async function runPodsScale(
  targets: PodsScaleTarget[],
  o: PodsScaleOptions,
  log: (line: string) => void,
): Promise<{ name: string; results: ScenarioResult[] }[]> {
  const steps = o.steps;
  if (steps.length === 0 || steps.some((s, i) => !Number.isInteger(s) || s <= 0 || (i > 0 && s <= steps[i - 1])))
    throw new Error('--pods-steps must be increasing positive integers');
  const out: { name: string; results: ScenarioResult[] }[] = [];
  for (const t of targets) out.push({ name: t.name, results: await measure(t, o, log) });
  return out;
}
