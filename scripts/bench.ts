/**
 * `npm run bench`: throughput and latency of an API server speaking this API, side by side with raw
 * etcd.
 *
 *   npm run bench -- [--kubeconfig FILE] [--etcd URL] [--server-pid PID] [--scenario all|LIST]
 *                    [--concurrency 50] [--count 10000] [--seconds 5] [--list-repeats 10]
 *                    [--page-size 500] [--watchers 1000] [--events-per-second 100] [--watch-seconds 5]
 *                    [--watch-threads 2] [--warmup-seconds 5]
 *                    [--rbac-role-bindings 10000] [--rbac-cluster-role-bindings 1000]
 *                    [--targets etcd,sqlite] [--server-node-args "--cpu-prof ..."]
 *
 * With --kubeconfig it measures that server (orch or any other), in a fresh namespace it leaves
 * behind; --etcd adds the raw etcd baselines, --server-pid the server's RSS around the lists.
 * Without --kubeconfig it starts everything itself on temporary directories: an etcd, then
 * orch-apiserver on that etcd and orch-apiserver on the embedded store, one after the other.
 *
 * Scenarios: etcd-put, etcd-get (baselines, with --etcd or self-started), create, get, update, list,
 * watch, rbac-get (self-started only: a GET authorized by RBAC among 11,000 bindings against the
 * same GET as system:masters, scripts/bench/rbac-scenario.ts), authn (in process: what
 * authenticating one request costs with a client certificate, a static token and a service-account
 * JWT, repeated or fresh) and webhooks (creates with 0, 1 and 3 local validating webhooks). Each
 * prints a JSON line as it
 * finishes; a table and the targets follow.
 */
import { randomBytes } from 'node:crypto';
import { ApiClient, expectStatus } from './bench/api-client.js';
import { runCreate, runGet, runList, runUpdate } from './bench/api-scenarios.js';
import { runEtcdBaseline } from './bench/etcd-baseline.js';
import { loadKubeconfig } from './bench/kubeconfig.js';
import { startLocalApiServer, startLocalEtcd, type LocalEtcd } from './bench/local-cluster.js';
import { formatTable, formatTargets, printJsonLine, type TargetResults } from './bench/report.js';
import { runWatch } from './bench/watch-scenario.js';
import { runRbacGet } from './bench/rbac-scenario.js';
import { runAuthn } from './bench/authn-scenario.js';
import { runWebhookCreates } from './bench/webhook-scenario.js';
import { round } from './bench/stats.js';
import { cpuSeconds, DEFAULT_OPTIONS, type BenchOptions, type ScenarioResult } from './bench/workload.js';

const SCENARIOS = ['etcd-put', 'etcd-get', 'create', 'get', 'update', 'list', 'watch', 'rbac-get', 'authn', 'webhooks'] as const;
type Scenario = (typeof SCENARIOS)[number];

interface Flags {
  kubeconfig?: string;
  etcd?: string;
  serverPid?: number;
  /** The etcd's pid when the bench started it. */
  etcdPid?: number;
  scenarios: Set<Scenario>;
  targets: string[];
  serverNodeArgs: string[];
  options: BenchOptions;
}

const NUMERIC: Record<string, keyof BenchOptions> = {
  '--concurrency': 'concurrency',
  '--count': 'count',
  '--seconds': 'seconds',
  '--list-repeats': 'listRepeats',
  '--page-size': 'pageSize',
  '--watchers': 'watchers',
  '--events-per-second': 'eventsPerSecond',
  '--watch-seconds': 'watchSeconds',
  '--watch-threads': 'watchThreads',
  '--warmup-seconds': 'warmupSeconds',
  '--rbac-role-bindings': 'rbacRoleBindings',
  '--rbac-cluster-role-bindings': 'rbacClusterRoleBindings',
};

function parseFlags(argv: string[]): Flags {
  const flags: Flags = { scenarios: new Set(SCENARIOS), targets: ['etcd', 'sqlite'], serverNodeArgs: [], options: { ...DEFAULT_OPTIONS } };
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].split(/=(.*)/s, 2);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`flag needs an argument: ${name}`);
    if (name === '--kubeconfig') flags.kubeconfig = value;
    else if (name === '--etcd') flags.etcd = value;
    else if (name === '--server-pid') flags.serverPid = Number(value);
    else if (name === '--targets') flags.targets = value.split(',');
    else if (name === '--server-node-args') flags.serverNodeArgs = value.split(' ').filter(Boolean);
    else if (name === '--scenario') {
      const names = value === 'all' ? [...SCENARIOS] : value.split(',');
      for (const s of names)
        if (!(SCENARIOS as readonly string[]).includes(s)) throw new Error(`unknown scenario ${s}; known: all, ${SCENARIOS.join(', ')}`);
      flags.scenarios = new Set(names as Scenario[]);
    } else if (NUMERIC[name]) {
      const n = Number(value);
      const min = name === '--warmup-seconds' ? 0 : Number.MIN_VALUE;
      if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a ${min ? 'positive' : 'non-negative'} number`);
      flags.options[NUMERIC[name]] = n;
    } else throw new Error(`unknown flag ${name}`);
  }
  if (flags.options.count < flags.options.concurrency) throw new Error('--count must be at least --concurrency');
  return flags;
}

/**
 * Runs a scenario and adds to its first result the CPU the processes used meanwhile, in percent of
 * one core: this client always, the server and etcd when their pids are known.
 */
async function withCpuUse(
  pids: { server?: number; etcd?: number },
  run: () => Promise<ScenarioResult | ScenarioResult[]>,
): Promise<ScenarioResult[]> {
  const t0 = performance.now();
  const client0 = process.cpuUsage();
  const before = { server: await cpuSeconds(pids.server), etcd: await cpuSeconds(pids.etcd) };
  const out = [await run()].flat();
  const seconds = (performance.now() - t0) / 1000;
  const pct = (cpu: number) => round((cpu / seconds) * 100);
  const client = process.cpuUsage(client0);
  out[0].clientCpuPct = pct((client.user + client.system) / 1e6);
  for (const name of ['server', 'etcd'] as const) {
    const after = await cpuSeconds(pids[name]);
    if (after !== undefined && before[name] !== undefined) out[0][`${name}CpuPct`] = pct(after - before[name]!);
  }
  return out;
}

/** Runs the API scenarios against one server, in namespaces of its own. */
async function benchServer(name: string, kubeconfig: string, flags: Flags, serverPid?: number): Promise<ScenarioResult[]> {
  const target = loadKubeconfig(kubeconfig);
  const { options, scenarios } = flags;
  const api = new ApiClient(target, options.concurrency);
  const ns = `bench-${randomBytes(3).toString('hex')}`;
  const results: ScenarioResult[] = [];
  const record = (r: ScenarioResult) => {
    results.push(r);
    printJsonLine(name, r);
  };
  const measured = async (run: () => Promise<ScenarioResult | ScenarioResult[]>) => {
    for (const r of await withCpuUse({ server: serverPid, etcd: flags.etcdPid }, run)) record(r);
  };
  try {
    for (const n of [ns, `${ns}-watch`]) {
      expectStatus(
        await api.request('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: n } })),
        201,
        'namespace',
      );
    }
    const needObjects = scenarios.has('get') || scenarios.has('update') || scenarios.has('list');
    if (scenarios.has('create')) await measured(() => runCreate(api, ns, options));
    else if (needObjects) await runCreate(api, ns, options);
    if (scenarios.has('get')) await measured(() => runGet(api, ns, options));
    if (scenarios.has('update')) await measured(() => runUpdate(api, ns, options));
    if (scenarios.has('list')) await measured(() => runList(api, ns, options, serverPid));
    if (scenarios.has('watch')) await measured(() => runWatch(api, target, `${ns}-watch`, options));
    if (scenarios.has('webhooks')) await runWebhookCreates(api, ns, options, measured);
  } finally {
    api.close();
  }
  return results;
}

async function main(): Promise<void> {
  const flags = parseFlags(process.argv.slice(2));
  const all: TargetResults[] = [];
  let localEtcd: LocalEtcd | undefined;
  try {
    let etcd = flags.etcd;
    const apiScenarios = (['create', 'get', 'update', 'list', 'watch'] as const).some((s) => flags.scenarios.has(s));
    if (
      !flags.kubeconfig &&
      ((apiScenarios && flags.targets.includes('etcd')) || flags.scenarios.has('etcd-put') || flags.scenarios.has('etcd-get'))
    ) {
      localEtcd = await startLocalEtcd();
      etcd = localEtcd.endpoint;
      flags.etcdPid = localEtcd.pid;
    }
    let baseline: ScenarioResult[] = [];
    if (etcd && (flags.scenarios.has('etcd-put') || flags.scenarios.has('etcd-get'))) {
      const [put, get] = await runEtcdBaseline(etcd, flags.options, (run) => withCpuUse({ etcd: flags.etcdPid }, run));
      baseline = [put, get].filter((r) => flags.scenarios.has(r.scenario as Scenario));
      for (const r of baseline) printJsonLine('etcd', r);
      all.push({ target: 'etcd', results: baseline });
    }
    if (flags.scenarios.has('authn')) {
      const results = await runAuthn(flags.options.seconds);
      for (const r of results) printJsonLine('authn', r);
      all.push({ target: 'authn', results });
    }
    const servers: { name: string; results: ScenarioResult[] }[] = [];
    if (!apiScenarios) {
      // nothing to measure on a server
    } else if (flags.kubeconfig) {
      servers.push({ name: 'server', results: await benchServer('server', flags.kubeconfig, flags, flags.serverPid) });
    } else {
      for (const t of flags.targets) {
        if (t !== 'etcd' && t !== 'sqlite') throw new Error(`unknown target ${t}; known: etcd, sqlite`);
        const name = `orch-${t}`;
        const server = await startLocalApiServer({ etcd: t === 'etcd' ? etcd : undefined, nodeArgs: flags.serverNodeArgs });
        try {
          servers.push({ name, results: await benchServer(name, server.kubeconfig, flags, server.pid) });
        } finally {
          await server.stop();
        }
      }
    }
    if (flags.scenarios.has('rbac-get')) {
      if (flags.kubeconfig) process.stderr.write('bench: rbac-get needs a server the bench starts itself; skipped with --kubeconfig\n');
      else {
        const results = await runRbacGet(flags.options, (line) => process.stderr.write(`${line}\n`));
        for (const r of results) printJsonLine('orch-rbac', r);
        servers.push({ name: 'orch-rbac', results });
      }
    }
    for (const s of servers) all.push({ target: s.name, results: s.results });
    process.stdout.write(`\n${formatTable(all)}\n\n`);
    for (const s of servers) {
      const text = formatTargets(s.name, s.results, baseline);
      if (text) process.stdout.write(`${text}\n`);
    }
  } finally {
    await localEtcd?.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
