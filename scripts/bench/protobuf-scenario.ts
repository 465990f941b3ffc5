/**
 * The `protobuf` scenario: JSON against Kubernetes' protobuf, on a server the scenario starts (the
 * embedded store), in the same runs:
 * - codec: encoding and decoding one stored Pod and one ConfigMap in process (µs and bytes per object);
 * - get: GETs of one Pod from `concurrency` callers for `seconds` (rate, p50, server CPU µs per GET);
 * - list: a LIST of `count` ConfigMaps, `listRepeats` times (p50, MB, server CPU µs per object);
 * - watch: `watchers` (at most 500) watches of one ConfigMap while it is updated
 *   `eventsPerSecond × watchSeconds` times, one write after the other (server CPU µs per event
 *   delivered, bytes per event; every watcher must get every event).
 */
import { Agent, request } from 'node:https';
import { newApiDomain } from '../../apiserver/api/domain.js';
import { definitions } from '../../apiserver/api/generated/definitions.js';
import { newProtobufCodec } from '../../apiserver/runtime/protobuf/codec.js';
import { loadKubeconfig, type ApiTarget } from './kubeconfig.js';
import { startLocalApiServer } from './local-cluster.js';
import { percentile, round, runLoad } from './stats.js';
import { configMap, cpuSeconds, objectName, type BenchOptions, type ScenarioResult } from './workload.js';

const PB = 'application/vnd.kubernetes.protobuf';
const ENCODINGS = { json: 'application/json', protobuf: PB } as const;
type Encoding = keyof typeof ENCODINGS;
const MAX_WATCHERS = 500;

interface Raw {
  status: number;
  bytes: Buffer;
}

function client(target: ApiTarget, maxSockets: number) {
  const agent = new Agent({ keepAlive: true, maxSockets, ca: target.ca, cert: target.cert, key: target.key });
  // Watches hold their connection: they get their own, never queued behind each other or the writes.
  const watchAgent = new Agent({ ca: target.ca, cert: target.cert, key: target.key });
  const auth: Record<string, string> = target.token ? { Authorization: `Bearer ${target.token}` } : {};
  const send = (method: string, path: string, accept: string, body?: string, contentType = 'application/json') =>
    new Promise<Raw>((resolve, reject) => {
      const headers: Record<string, string> = { Accept: accept, ...auth };
      if (body !== undefined) Object.assign(headers, { 'Content-Type': contentType, 'Content-Length': String(Buffer.byteLength(body)) });
      const req = request(new URL(path, target.server), { method, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  /** A watch counting what arrives: events (JSON lines or length-prefixed frames) and bytes. */
  const watch = (path: string, encoding: Encoding) =>
    new Promise<{ events: () => number; bytes: () => number; close: () => void }>((resolve, reject) => {
      let events = 0;
      let bytes = 0;
      let pending: Buffer = Buffer.alloc(0);
      const req = request(new URL(path, target.server), { headers: { Accept: ENCODINGS[encoding], ...auth }, agent: watchAgent }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`watch: ${res.statusCode}`));
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (encoding === 'json') {
            for (const b of chunk) if (b === 0x0a) events++;
            return;
          }
          pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
          while (pending.length >= 4 && pending.length >= 4 + pending.readUInt32BE(0)) {
            pending = pending.subarray(4 + pending.readUInt32BE(0));
            events++;
          }
        });
        res.on('error', () => {});
        resolve({ events: () => events, bytes: () => bytes, close: () => req.destroy() });
      });
      req.on('error', reject);
      req.end();
    });
  return {
    send,
    watch,
    close: () => {
      agent.destroy();
      watchAgent.destroy();
    },
  };
}

/** µs per call of fn, over at least 200 ms. */
function microseconds(fn: () => unknown): number {
  for (let i = 0; i < 200; i++) fn();
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < 200) {
    for (let i = 0; i < 50; i++) fn();
    n += 50;
  }
  return round(((performance.now() - t0) * 1000) / n);
}

function codecResults(objects: Record<string, Record<string, unknown>>): ScenarioResult[] {
  const codec = newProtobufCodec(newApiDomain(), definitions);
  return Object.entries(objects).map(([kind, obj]) => {
    const json = JSON.stringify(obj);
    const pb = codec.encode(obj);
    return {
      scenario: `protobuf-codec-${kind}`,
      jsonBytes: Buffer.byteLength(json),
      protobufBytes: pb.length,
      jsonEncodeUs: microseconds(() => JSON.stringify(obj)),
      protobufEncodeUs: microseconds(() => codec.encode(obj)),
      jsonDecodeUs: microseconds(() => JSON.parse(json)),
      protobufDecodeUs: microseconds(() => codec.decode(pb)),
    };
  });
}

export async function runProtobuf(options: BenchOptions, log: (line: string) => void): Promise<ScenarioResult[]> {
  const server = await startLocalApiServer({});
  const target = loadKubeconfig(server.kubeconfig);
  const api = client(target, options.concurrency);
  const cpu = async () => (await cpuSeconds(server.pid)) ?? 0;
  const results: ScenarioResult[] = [];
  try {
    const ns = 'bench-protobuf';
    const post = async (path: string, body: unknown) => {
      const r = await api.send('POST', path, 'application/json', JSON.stringify(body));
      if (r.status !== 201) throw new Error(`POST ${path}: ${r.status} ${r.bytes.toString('utf8').slice(0, 300)}`);
      return JSON.parse(r.bytes.toString('utf8'));
    };
    await post('/api/v1/namespaces', { metadata: { name: ns } });
    await post(`/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'default' } });
    const pod = await post(`/api/v1/namespaces/${ns}/pods`, {
      metadata: { name: 'web', labels: { app: 'web', tier: 'front' } },
      spec: {
        containers: [
          {
            name: 'web',
            image: 'nginx:1.25',
            ports: [{ name: 'http', containerPort: 80 }],
            resources: { limits: { cpu: '500m', memory: '128Mi' } },
            readinessProbe: { httpGet: { path: '/', port: 'http' } },
            env: [{ name: 'MODE', value: 'bench' }],
          },
        ],
      },
    });
    log(`bench protobuf: creating ${options.count} ConfigMaps`);
    await runLoad({ concurrency: options.concurrency, count: options.count }, async (i) => {
      const r = await api.send('POST', `/api/v1/namespaces/${ns}/configmaps`, 'application/json', configMap(objectName(i)));
      if (r.status !== 201) throw new Error(`create: ${r.status}`);
    });
    const cm = JSON.parse(
      (await api.send('GET', `/api/v1/namespaces/${ns}/configmaps/${objectName(0)}`, 'application/json')).bytes.toString(),
    );
    results.push(...codecResults({ pod, configmap: cm }));
    log('bench protobuf: GET and LIST');

    for (const encoding of Object.keys(ENCODINGS) as Encoding[]) {
      const accept = ENCODINGS[encoding];
      let bytes = 0;
      const get = () => api.send('GET', `/api/v1/namespaces/${ns}/pods/web`, accept);
      if (options.warmupSeconds)
        await runLoad({ concurrency: options.concurrency, seconds: Math.min(options.warmupSeconds, 2) }, async () => void (await get()));
      const cpu0 = await cpu();
      const load = await runLoad({ concurrency: options.concurrency, seconds: options.seconds }, async () => {
        const r = await get();
        if (r.status !== 200) throw new Error(`get: ${r.status}`);
        bytes = r.bytes.length;
      });
      results.push({
        scenario: `protobuf-get-${encoding}`,
        rate: round(load.rate),
        p50Ms: round(load.p50Ms),
        p99Ms: round(load.p99Ms),
        bytesPerObject: bytes,
        serverCpuUsPerGet: round((((await cpu()) - cpu0) * 1e6) / load.count),
      });

      const times: number[] = [];
      let listBytes = 0;
      const cpu1 = await cpu();
      for (let i = 0; i < options.listRepeats; i++) {
        const t0 = performance.now();
        const r = await api.send('GET', `/api/v1/namespaces/${ns}/configmaps`, accept);
        if (r.status !== 200) throw new Error(`list: ${r.status}`);
        times.push(performance.now() - t0);
        listBytes = r.bytes.length;
      }
      results.push({
        scenario: `protobuf-list-${encoding}`,
        p50Ms: round(percentile(times, 50)),
        objects: options.count,
        responseMB: round(listBytes / 1e6),
        bytesPerObject: round(listBytes / options.count),
        serverCpuUsPerObject: round((((await cpu()) - cpu1) * 1e6) / (options.count * options.listRepeats)),
      });
    }

    log('bench protobuf: watch fan-out');
    const events = Math.max(1, Math.round(options.eventsPerSecond * options.watchSeconds));
    for (const encoding of Object.keys(ENCODINGS) as Encoding[]) {
      const watchers = Math.min(options.watchers, MAX_WATCHERS);
      const wns = `${ns}-watch-${encoding}`;
      await post('/api/v1/namespaces', { metadata: { name: wns } });
      await post(`/api/v1/namespaces/${wns}/configmaps`, JSON.parse(configMap('watched')));
      const rv = JSON.parse((await api.send('GET', `/api/v1/namespaces/${wns}/configmaps`, 'application/json')).bytes.toString()).metadata
        .resourceVersion;
      const streams = await Promise.all(
        Array.from({ length: watchers }, () => api.watch(`/api/v1/namespaces/${wns}/configmaps?watch=1&resourceVersion=${rv}`, encoding)),
      );
      const cpu0 = await cpu();
      const t0 = performance.now();
      for (let i = 0; i < events; i++) {
        const body = JSON.stringify({ data: { payload: `${i}`.padEnd(800, 'x') } });
        const r = await api.send(
          'PATCH',
          `/api/v1/namespaces/${wns}/configmaps/watched`,
          'application/json',
          body,
          'application/merge-patch+json',
        );
        if (r.status !== 200) throw new Error(`patch: ${r.status}`);
      }
      const expected = watchers * events;
      while (streams.reduce((n, s) => n + s.events(), 0) < expected && performance.now() - t0 < 60_000)
        await new Promise((r) => setTimeout(r, 20));
      const delivered = streams.reduce((n, s) => n + s.events(), 0);
      const bytes = streams.reduce((n, s) => n + s.bytes(), 0);
      results.push({
        scenario: `protobuf-watch-${encoding}`,
        watchers,
        events,
        lost: expected - delivered,
        bytesPerEvent: round(bytes / Math.max(delivered, 1)),
        serverCpuUsPerDelivery: round((((await cpu()) - cpu0) * 1e6) / Math.max(delivered, 1)),
        seconds: round((performance.now() - t0) / 1000),
      });
      for (const s of streams) s.close();
    }
  } finally {
    api.close();
    await server.stop();
  }
  return results;
}
