/**
 * The watch scenario: W watchers on one resource (a fresh namespace's ConfigMaps), then E creates
 * per second for T seconds. Every watcher must receive every event; the delivery latency of each
 * (watcher, event) pair is measured from the write's acknowledgement (its response arriving here)
 * and from the write's start. The watchers are spread over threads (watch-worker.ts).
 */
import { Worker } from 'node:worker_threads';
import { expectStatus, type ApiClient } from './api-client.js';
import type { ApiTarget } from './kubeconfig.js';
import { percentile, round } from './stats.js';
import type { WatchWorkerData } from './watch-worker.js';
import { configMap, type BenchOptions, type ScenarioResult } from './workload.js';

/** How long stragglers may take after the last write. */
const DRAIN_TIMEOUT_MS = 15_000;

/** The clock the watcher threads stamp receipts with. */
const now = () => performance.timeOrigin + performance.now();

/** Starts the watcher threads; resolves once every watch is open. */
async function startWatchers(
  target: ApiTarget,
  path: string,
  options: BenchOptions,
  shared: Omit<WatchWorkerData, 'target' | 'path' | 'first' | 'count'>,
): Promise<Worker[]> {
  const threads = Math.min(options.watchThreads, options.watchers);
  const per = Math.ceil(options.watchers / threads);
  const workers: Worker[] = [];
  for (let first = 0; first < options.watchers; first += per) {
    const data: WatchWorkerData = { target, path, first, count: Math.min(per, options.watchers - first), ...shared };
    workers.push(new Worker(new URL('./watch-worker.js', import.meta.url), { workerData: data }));
  }
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve, reject) => {
          w.once('message', (m: unknown) => (m === 'ready' ? resolve() : reject(new Error(`watch worker: ${JSON.stringify(m)}`))));
          w.once('error', reject);
        }),
    ),
  );
  return workers;
}

export async function runWatch(api: ApiClient, target: ApiTarget, ns: string, options: BenchOptions): Promise<ScenarioResult> {
  const { watchers, eventsPerSecond, watchSeconds } = options;
  const events = Math.round(eventsPerSecond * watchSeconds);
  const path = `/api/v1/namespaces/${ns}/configmaps`;
  const rv = (JSON.parse(expectStatus(await api.request('GET', path), 200, 'watch list').body) as { metadata: { resourceVersion: string } })
    .metadata.resourceVersion;

  const received = new Float64Array(new SharedArrayBuffer(watchers * events * 8)).fill(NaN);
  const counters = new Int32Array(new SharedArrayBuffer(8));
  const workers = await startWatchers(target, `${path}?watch=1&resourceVersion=${rv}&timeoutSeconds=600`, options, {
    events,
    received: received.buffer as SharedArrayBuffer,
    counters: counters.buffer as SharedArrayBuffer,
  });

  const startedAt = new Float64Array(events);
  const ackedAt = new Float64Array(events);
  const writes: Promise<void>[] = [];
  const t0 = performance.now();
  for (let i = 0; i < events; i++) {
    const wait = t0 + (i * 1000) / eventsPerSecond - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    startedAt[i] = now();
    writes.push(
      api.request('POST', path, configMap(`w-${i}`)).then((res) => {
        ackedAt[i] = now();
        expectStatus(res, 201, 'watch write');
      }),
    );
  }
  await Promise.all(writes);
  const writeSeconds = (performance.now() - t0) / 1000;
  for (const deadline = Date.now() + DRAIN_TIMEOUT_MS; Atomics.load(counters, 0) < watchers * events && Date.now() < deadline; ) {
    await new Promise((r) => setTimeout(r, 20));
  }
  await Promise.all(
    workers.map((w) => {
      w.postMessage('close');
      return new Promise((r) => w.once('exit', r));
    }),
  );

  const afterAck: number[] = [];
  const afterStart: number[] = [];
  for (let w = 0; w < watchers; w++) {
    for (let i = 0; i < events; i++) {
      const at = received[w * events + i];
      if (Number.isNaN(at)) continue;
      afterAck.push(Math.max(0, at - ackedAt[i]));
      afterStart.push(at - startedAt[i]);
    }
  }
  const delivered = Atomics.load(counters, 0);
  const writeLatencies = Array.from(ackedAt, (at, i) => at - startedAt[i]);
  return {
    scenario: 'watch',
    watchers,
    events,
    writeRate: round(events / writeSeconds),
    writeP99Ms: round(percentile(writeLatencies, 99)),
    delivered,
    lost: watchers * events - delivered,
    duplicates: Atomics.load(counters, 1),
    p50Ms: round(percentile(afterAck, 50)),
    p99Ms: round(percentile(afterAck, 99)),
    maxMs: round(percentile(afterAck, 100)),
    p99FromStartMs: round(percentile(afterStart, 99)),
  };
}
