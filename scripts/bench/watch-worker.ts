/**
 * A thread of watchers for the watch scenario, so that a thousand streams are not read by one
 * thread in turn (which would add its own queueing to every latency). It opens watchers
 * [first, first + count), notes when each got each event in shared memory — received[w * events + i]
 * = time (performance.timeOrigin + now(), comparable across threads) — counts deliveries and
 * duplicates in `counters`, and closes its streams when told.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ApiClient, type WatchStream } from './api-client.js';
import type { ApiTarget } from './kubeconfig.js';

export interface WatchWorkerData {
  target: ApiTarget;
  path: string;
  first: number;
  count: number;
  events: number;
  /** Float64Array over watchers × events receipt times (NaN: not yet). */
  received: SharedArrayBuffer;
  /** Int32Array [delivered, duplicates]. */
  counters: SharedArrayBuffer;
}

const NAME = Buffer.from('"name":"w-');
const ADDED = Buffer.from('{"type":"ADDED"');

/** How many watches a thread opens at once (each is a TLS handshake on the server). */
const OPEN_PARALLELISM = 25;

async function run(data: WatchWorkerData): Promise<void> {
  const received = new Float64Array(data.received);
  const counters = new Int32Array(data.counters);
  const api = new ApiClient(data.target, data.count);
  const onLine = (w: number, line: Buffer, at: number) => {
    const name = line.indexOf(NAME);
    if (name < 0 || line.compare(ADDED, 0, ADDED.length, 0, ADDED.length) !== 0) return;
    let i = 0;
    for (let p = name + NAME.length; line[p] >= 0x30 && line[p] <= 0x39; p++) i = i * 10 + line[p] - 0x30;
    const slot = w * data.events + i;
    if (!Number.isNaN(received[slot])) {
      Atomics.add(counters, 1, 1);
      return;
    }
    received[slot] = at;
    Atomics.add(counters, 0, 1);
  };
  // Lines are found in the bytes as they come; only a line split across chunks is copied.
  const onData = (w: number) => {
    let rest: Buffer | undefined;
    return (chunk: Buffer) => {
      const at = performance.timeOrigin + performance.now();
      const buf = rest ? Buffer.concat([rest, chunk]) : chunk;
      let start = 0;
      for (let nl = buf.indexOf(10); nl >= 0; nl = buf.indexOf(10, start)) {
        onLine(w, buf.subarray(start, nl), at);
        start = nl + 1;
      }
      rest = start < buf.length ? buf.subarray(start) : undefined;
    };
  };
  const streams: WatchStream[] = [];
  for (let w = data.first; w < data.first + data.count; w += OPEN_PARALLELISM) {
    const n = Math.min(OPEN_PARALLELISM, data.first + data.count - w);
    streams.push(...(await Promise.all(Array.from({ length: n }, (_, k) => api.watch(data.path, onData(w + k))))));
  }
  parentPort!.postMessage('ready');
  parentPort!.once('message', () => {
    for (const s of streams) s.close();
    api.close();
    parentPort!.close();
  });
}

run(workerData as WatchWorkerData).catch((err: unknown) => {
  parentPort!.postMessage({ error: err instanceof Error ? err.message : String(err) });
});
