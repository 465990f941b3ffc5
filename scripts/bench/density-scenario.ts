/**
 * `density` (run by hand, with real components): on each server in turn (orch in k8s.io mode and,
 * with --compare, kube-apiserver, each on an etcd of its own), a controller manager, the real
 * kube-scheduler and --density-nodes kubemark hollow nodes; once every Node is Ready, a Deployment
 * of --density-pods Pods, timed from its create until a watch has seen every Pod Running. Figures:
 * the time to all Running, Pod startup latency (the watch's first sight of a Pod to its first sight
 * Running; Kubernetes' SLO: p99 ≤ 5 s), the API server's CPU seconds and peak RSS over that time
 * (its process tree), and the API call latency p99 per verb from the server's own request histogram
 * (Kubernetes' SLO: ≤ 1 s).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient, expectStatus, type WatchStream } from './api-client.js';
import { loadKubeconfig } from './kubeconfig.js';
import type { LocalApiServer } from './local-cluster.js';
import { startRealComponents } from './real-components.js';
import { latencyQuantilesMs, parseRequestBuckets } from './request-latency.js';
import { percentile, round } from './stats.js';
import { cpuSeconds, residentBytes, rssSampler, type ScenarioResult } from './workload.js';

export interface DensityOptions {
  nodes: number;
  pods: number;
  /** Where kube-scheduler, kubemark and kube-controller-manager are. */
  binDir: string;
  /** The controller manager beside orch: kube-controller-manager (the same clients for both servers) or orch's own. */
  orchControllerManager: 'kube' | 'orch';
  /** How long to wait for every Pod to be Running (s). */
  timeoutSeconds: number;
}

/** A server the scenario starts, measures and stops before the next one. */
export interface DensityTarget {
  name: string;
  isOrch: boolean;
  start(): Promise<{ server: LocalApiServer; etcdPid?: number; stop(): Promise<void> }>;
}

const NS = 'density';
/** The verbs whose p99 the report shows (those the workload sends). */
export const DENSITY_VERBS = ['GET', 'LIST', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

function deployment(replicas: number): string {
  const labels = { app: 'density' };
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'density' },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'pause', image: 'registry.k8s.io/pause:3.9' }] } },
    },
  });
}

async function until(what: string, timeoutMs: number, done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`density: ${what} not within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

type PodEvent = { type: string; object: { metadata?: { name?: string; resourceVersion?: string }; status?: { phase?: string } } };

/** First sight of each Pod and of it Running, from a watch of the namespace's Pods. */
class PodTimes {
  readonly seen = new Map<string, number>();
  readonly running = new Map<string, number>();
  readonly types: Record<string, number> = {};
  /** The newest resourceVersion the watch delivered: where a resumed watch starts. */
  resourceVersion = '';
  /** The server ended the stream (kube-apiserver closes watchers it finds slow) or it answered 410. */
  restarts = 0;
  gone = false;
  private rest = '';

  onData(chunk: Buffer): void {
    const now = performance.now();
    const lines = (this.rest + chunk.toString('utf8')).split('\n');
    this.rest = lines.pop() ?? '';
    for (const line of lines) if (line) this.onEvent(JSON.parse(line) as PodEvent, now);
  }

  onEvent(ev: PodEvent, now: number): void {
    this.types[ev.type] = (this.types[ev.type] ?? 0) + 1;
    if (ev.type === 'ERROR') {
      this.gone = true;
      return;
    }
    const meta = ev.object.metadata;
    if (meta?.resourceVersion) this.resourceVersion = meta.resourceVersion;
    const name = meta?.name;
    if (!name || (ev.type !== 'ADDED' && ev.type !== 'MODIFIED')) return;
    if (!this.seen.has(name)) this.seen.set(name, now);
    if (ev.object.status?.phase === 'Running' && !this.running.has(name)) this.running.set(name, now);
  }

  startupMs(): number[] {
    return [...this.running].map(([name, t]) => t - this.seen.get(name)!);
  }
}

/**
 * Watches the namespace's Pods until closed, resuming where the stream ended as an informer does (from
 * the last resourceVersion; after a 410 from a fresh list, whose Pods count as seen now).
 */
async function watchPods(api: ApiClient, times: PodTimes): Promise<{ close(): Promise<void> }> {
  const path = `/api/v1/namespaces/${NS}/pods`;
  const relist = async () => {
    const list = JSON.parse(expectStatus(await api.request('GET', path), 200, 'list pods').body);
    const now = performance.now();
    for (const object of list.items) times.onEvent({ type: 'ADDED', object }, now);
    times.resourceVersion = list.metadata.resourceVersion;
    times.gone = false;
  };
  await relist();
  let closed = false;
  let current: WatchStream | undefined;
  const open = () => api.watch(`${path}?watch=1&allowWatchBookmarks=true&resourceVersion=${times.resourceVersion}`, (c) => times.onData(c));
  current = await open();
  const loop = (async () => {
    while (!closed) {
      await current.ended;
      if (closed) return;
      times.restarts++;
      if (times.gone) await relist();
      current = await open();
    }
  })();
  return {
    async close() {
      closed = true;
      current?.close();
      await loop.catch(() => undefined);
    },
  };
}

/** What a run that timed out saw: Pods by phase, the Deployment's status, the namespace's last events. */
async function whyNotRunning(api: ApiClient, times: PodTimes): Promise<string> {
  const get = async (path: string) => {
    const res = await api.request('GET', path);
    return res.status === 200 ? JSON.parse(res.body) : { error: res.status };
  };
  const pods = await get(`/api/v1/namespaces/${NS}/pods`);
  const phases: Record<string, number> = {};
  for (const p of pods.items ?? []) phases[p.status?.phase ?? 'none'] = (phases[p.status?.phase ?? 'none'] ?? 0) + 1;
  const dep = await get(`/apis/apps/v1/namespaces/${NS}/deployments/density`);
  const events = await get(`/api/v1/namespaces/${NS}/events`);
  const last = (events.items ?? []).slice(-5).map((e: { reason?: string; message?: string }) => `${e.reason}: ${e.message}`);
  return JSON.stringify({
    watchSaw: times.seen.size,
    watchRestarts: times.restarts,
    eventTypes: times.types,
    watchRunning: times.running.size,
    phases,
    deployment: dep.status,
    events: last,
  });
}

async function measure(target: DensityTarget, o: DensityOptions, log: (line: string) => void): Promise<ScenarioResult> {
  const dir = await mkdtemp(join(tmpdir(), 'orch-bench-density-'));
  const { server, etcdPid, stop } = await target.start();
  const api = new ApiClient(loadKubeconfig(server.kubeconfig), 4);
  let components: Awaited<ReturnType<typeof startRealComponents>> | undefined;
  let watch: { close(): Promise<void> } | undefined;
  try {
    expectStatus(
      await api.request('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } })),
      201,
      'create namespace',
    );
    log(`density: ${target.name}: starting the controller manager, the scheduler and ${o.nodes} hollow nodes`);
    components = await startRealComponents({
      binDir: o.binDir,
      kubeconfig: server.kubeconfig,
      files: server.files,
      dir,
      nodes: o.nodes,
      controllerManager: target.isOrch ? o.orchControllerManager : 'kube',
    });
    await until(
      'the default ServiceAccount',
      60_000,
      async () => (await api.request('GET', `/api/v1/namespaces/${NS}/serviceaccounts/default`)).status === 200,
    );
    await new Promise((r) => setTimeout(r, 5000)); // the nodes' first status round settles
    const times = new PodTimes();
    watch = await watchPods(api, times);
    const metricsBefore = parseRequestBuckets(expectStatus(await api.request('GET', '/metrics'), 200, 'metrics').body);
    const cpu0 = {
      server: await cpuSeconds(server.pid),
      etcd: await cpuSeconds(etcdPid),
      cm: await cpuSeconds(components.controllerManagerPid),
    };
    const rssBefore = (await residentBytes(server.pid)) ?? 0;
    const rss = rssSampler(server.pid);
    log(`density: ${target.name}: a Deployment of ${o.pods} Pods`);
    const t0 = performance.now();
    expectStatus(await api.request('POST', `/apis/apps/v1/namespaces/${NS}/deployments`, deployment(o.pods)), 201, 'create deployment');
    await until(`all ${o.pods} Pods Running`, o.timeoutSeconds * 1000, async () => times.running.size >= o.pods).catch(
      async (err: unknown) => {
        throw new Error(`${(err as Error).message}: ${await whyNotRunning(api, times)}`);
      },
    );
    const seconds = (performance.now() - t0) / 1000;
    const peak = await rss.stop();
    const used = async (pid: number | undefined, before: number | undefined) => {
      const after = await cpuSeconds(pid);
      return after === undefined || before === undefined ? undefined : round(after - before);
    };
    const result: ScenarioResult = {
      scenario: 'density',
      nodes: o.nodes,
      pods: o.pods,
      allRunningS: round(seconds),
      watchRestarts: times.restarts,
      startupP50Ms: Math.round(percentile(times.startupMs(), 50)),
      startupP99Ms: Math.round(percentile(times.startupMs(), 99)),
      startupMaxMs: Math.round(Math.max(...times.startupMs())),
      serverCpuS: (await used(server.pid, cpu0.server)) ?? 0,
      serverRssBeforeMB: Math.round(rssBefore / 2 ** 20),
      serverPeakRssMB: Math.round(peak / 2 ** 20),
      controllerManager: target.isOrch ? o.orchControllerManager : 'kube',
    };
    const etcdCpu = await used(etcdPid, cpu0.etcd);
    if (etcdCpu !== undefined) result.etcdCpuS = etcdCpu;
    const cmCpu = await used(components.controllerManagerPid, cpu0.cm);
    if (cmCpu !== undefined) result.controllerManagerCpuS = cmCpu;
    const metricsAfter = parseRequestBuckets(expectStatus(await api.request('GET', '/metrics'), 200, 'metrics').body);
    for (const [verb, { count, ms }] of latencyQuantilesMs(metricsBefore, metricsAfter, 0.99)) {
      result[`apiP99Ms_${verb}`] = ms;
      result[`apiCount_${verb}`] = count;
    }
    return result;
  } finally {
    await watch?.close();
    api.close();
    await components?.stop();
    await stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs the density measurement on each target in turn, `runs` rounds (targets interleaved). */
export async function runDensity(
  targets: DensityTarget[],
  o: DensityOptions,
  runs: number,
  log: (line: string) => void,
): Promise<{ name: string; results: ScenarioResult[] }[]> {
  const out = targets.map((t) => ({ name: t.name, results: [] as ScenarioResult[] }));
  for (let run = 0; run < runs; run++)
    for (const [i, t] of targets.entries()) {
      const r = await measure(t, o, log);
      if (runs > 1) r.run = run + 1;
      out[i].results.push(r);
      log(`density: ${t.name}: ${JSON.stringify(r)}`);
    }
  return out;
}
