/**
 * One API server under measurement: its client, its namespaces and its results. The bench drives
 * several sessions scenario by scenario (interleaved), so each figure of a comparison is taken
 * under the same machine load for every server.
 */
import { randomBytes } from 'node:crypto';
import { ApiClient, expectStatus } from './api-client.js';
import { runCreate, runCreateWarmup, runGet, runList, runUpdate } from './api-scenarios.js';
import { loadKubeconfig, type ApiTarget } from './kubeconfig.js';
import { printJsonLine } from './report.js';
import { round } from './stats.js';
import { runWatch } from './watch-scenario.js';
import { runWebhookCreates } from './webhook-scenario.js';
import { runCustomResources } from './crd-scenario.js';
import { cpuSeconds, type BenchOptions, type ScenarioResult } from './workload.js';

/** The scenarios a session runs, in the order they run. */
export const SERVER_SCENARIOS = ['create', 'get', 'update', 'list', 'watch', 'list-big', 'webhooks', 'custom-resources'] as const;
export type ServerScenario = (typeof SERVER_SCENARIOS)[number];

/** The processes whose CPU a session reports: the server (and its workers) and its etcd. */
export interface MeasuredPids {
  server?: number;
  etcd?: number;
}

/** Called by a scenario when its untimed warm-up ends: CPU is counted from then on. */
export type TimedStart = () => Promise<void>;

/**
 * Runs a scenario and adds to its first result the CPU the processes used meanwhile, in percent of
 * one core (this client always, the server and etcd when their pids are known) and, for scenarios
 * that count requests, the CPU microseconds each request cost the server and etcd. A scenario with a
 * warm-up calls `timedStart` when it ends, so that the warm-up's CPU is not charged to the timed
 * requests.
 */
export async function withCpuUse(
  pids: MeasuredPids,
  run: (timedStart: TimedStart) => Promise<ScenarioResult | ScenarioResult[]>,
): Promise<ScenarioResult[]> {
  const mark = async () => ({
    t0: performance.now(),
    client: process.cpuUsage(),
    server: await cpuSeconds(pids.server),
    etcd: await cpuSeconds(pids.etcd),
  });
  let before = await mark();
  const out = [await run(async () => void (before = await mark()))].flat();
  const seconds = (performance.now() - before.t0) / 1000;
  const pct = (cpu: number) => round((cpu / seconds) * 100);
  const client = process.cpuUsage(before.client);
  out[0].clientCpuPct = pct((client.user + client.system) / 1e6);
  const requests = typeof out[0].count === 'number' ? out[0].count : 0;
  for (const name of ['server', 'etcd'] as const) {
    const after = await cpuSeconds(pids[name]);
    const start = before[name];
    if (after === undefined || start === undefined) continue;
    const used = after - start;
    out[0][`${name}CpuPct`] = pct(used);
    if (requests > 0) out[0][`${name}CpuUsPerReq`] = Math.round((used * 1e6) / requests);
  }
  return out;
}

export class ServerSession {
  readonly results: ScenarioResult[] = [];
  private readonly target: ApiTarget;
  private readonly api: ApiClient;
  private readonly ns = `bench-${randomBytes(3).toString('hex')}`;
  private objectsCreated = false;

  constructor(
    readonly name: string,
    kubeconfig: string,
    private readonly options: BenchOptions,
    private readonly pids: MeasuredPids,
  ) {
    this.target = loadKubeconfig(kubeconfig);
    this.api = new ApiClient(this.target, options.concurrency);
  }

  /** Creates the namespaces the scenarios use. */
  async setup(): Promise<void> {
    for (const n of [this.ns, `${this.ns}-warmup`, `${this.ns}-watch`, `${this.ns}-big`]) await this.createNamespace(n);
  }

  /** Runs one scenario, recording (and printing) its results. */
  async run(scenario: ServerScenario): Promise<void> {
    const { api, ns, options } = this;
    switch (scenario) {
      case 'create':
        if (options.warmupSeconds) await runCreateWarmup(api, `${ns}-warmup`, options.concurrency, options.warmupSeconds);
        await this.measured(() => runCreate(api, ns, options));
        this.objectsCreated = true;
        return;
      case 'get':
        await this.ensureObjects();
        return this.measured((timedStart) => runGet(api, ns, options, timedStart));
      case 'update':
        await this.ensureObjects();
        return this.measured((timedStart) => runUpdate(api, ns, options, timedStart));
      case 'list':
        await this.ensureObjects();
        return this.measured(() => runList(api, ns, options, this.pids.server));
      case 'watch':
        return this.measured(() => runWatch(api, this.target, `${ns}-watch`, options));
      case 'list-big': {
        const big = { ...options, count: options.bigListCount };
        await runCreate(api, `${ns}-big`, big);
        return this.measured(() => runList(api, `${ns}-big`, big, this.pids.server, `list-${options.bigListCount}`));
      }
      case 'webhooks':
        return runWebhookCreates(api, ns, options, (run) => this.measured(run));
      case 'custom-resources':
        return this.measured(() => runCustomResources(api, ns, options));
    }
  }

  close(): void {
    this.api.close();
  }

  private async createNamespace(name: string): Promise<void> {
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    expectStatus(await this.api.request('POST', '/api/v1/namespaces', body), 201, 'namespace');
  }

  /** get, update and list need the objects the create scenario makes; made untimed when it did not run. */
  private async ensureObjects(): Promise<void> {
    if (this.objectsCreated) return;
    await runCreate(this.api, this.ns, this.options);
    this.objectsCreated = true;
  }

  private async measured(run: (timedStart: TimedStart) => Promise<ScenarioResult | ScenarioResult[]>): Promise<void> {
    for (const r of await withCpuUse(this.pids, run)) {
      this.results.push(r);
      printJsonLine(this.name, r);
    }
  }
}
