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
 *                    [--compare PATH/kube-apiserver] [--big-list-count 50000] [--workers N]
 *                    [--apf-objects 5000] [--apf-flooders 400] [--apf-flooder-nice 0] [--console-idle-seconds 30] [--restore-objects 5000]
 *                    [--density-nodes 20] [--density-pods 1000] [--density-runs 1] [--density-timeout-seconds 600]
 *                    [--density-bin-dir DIR] [--density-controller-manager kube|orch] [--pods-steps 10000,50000,150000]
 *
 * With --kubeconfig it measures that server (orch or any other), in a fresh namespace it leaves
 * behind; --etcd adds the raw etcd baselines, --server-pid the server's RSS around the lists.
 * Without --kubeconfig it starts everything itself on temporary directories: an etcd, then
 * orch-apiserver on that etcd and orch-apiserver on the embedded store, one after the other.
 *
 * With --compare it starts, besides orch on each of --targets (default etcd), that kube-apiserver
 * binary, each server on an etcd of its own, runs every scenario on each server in turn (so load
 * on the machine falls alike on both) and ends with the issue's side-by-side table: rates,
 * latencies, and the server's CPU microseconds per request (process CPU time / requests).
 *
 * --workers N starts orch-apiserver with that many worker processes (default: its own default, the
 * number of CPUs less one); CPU and RSS figures are summed over a server's processes.
 * ORCH_BENCH_APISERVER=PATH/dist/apiserver/cmd/apiserver.js times another build of orch with this
 * bench (scripts/bench/local-cluster.ts), so two commits are measured with the same load.
 *
 * Scenarios: etcd-put, etcd-get (baselines, with --etcd or self-started), tls-get (the bench's GET
 * load against a bare Node HTTPS server's fixed answer, with that server's CPU per request,
 * scripts/bench/tls-baseline.ts; with the etcd baselines, a table puts each server's create rate
 * beside raw etcd puts and its GET CPU beside the bare server's), create, get, update, list,
 * watch, list-big (--big-list-count objects listed whole and paged; by default only with --compare),
 * rbac-get (self-started only: a GET authorized by RBAC among 11,000 bindings against the
 * same GET as system:masters, scripts/bench/rbac-scenario.ts), apf-cost (self-started: the same GET
 * as an ordinary user on a server with API Priority and Fairness and one without, interleaved,
 * scripts/bench/apf-cost-scenario.ts), authn (in process: what
 * authenticating one request costs with a client certificate, a static token and a service-account
 * JWT, repeated or fresh), webhooks (creates with 0, 1 and 3 local validating webhooks),
 * custom-resources (create and LIST of custom objects with a 20-field schema and two CEL rules
 * against the same for ConfigMaps, scripts/bench/crd-scenario.ts) and protobuf (self-started: JSON
 * against protobuf for the codec, GET, LIST and watch fan-out, scripts/bench/protobuf-scenario.ts)
 * and apf-flood (self-started, on the embedded store or, with --compare, on etcd beside the
 * reference: one user LISTs --apf-objects ConfigMaps from --apf-flooders connections per worker process (kube-apiserver: one) in a process at
 * nice level --apf-flooder-nice while system:masters GETs, the controller manager renews its Lease
 * and another tenant GETs, each timed unloaded and flooded, scripts/bench/apf-flood-scenario.ts),
 * and ledger (self-started, on etcd and on the embedded store: creates and updates with the
 * revision ledger on and off, interleaved, with each side's CPU and disk bytes per request;
 * bytes per revision; history read p99, scripts/bench/ledger-scenario.ts), console
 * (self-started: GET and create latency with --console and --console=false, interleaved, no browser
 * open; the server's idle CPU without a browser and with headless Chromium on the overview,
 * scripts/bench/console-scenario.ts), and restore (self-started
 * on etcd with the controllers: time to restore a 5,000-object namespace, scripts/bench/restore-scenario.ts).
 * By name only: density (--density-nodes kubemark hollow nodes, the real kube-scheduler and a
 * controller manager, --density-controller-manager kube (kube-controller-manager, the default, the
 * same clients for both servers) or orch, binaries from --density-bin-dir (default
 * ~/orch-reference/bin), beside orch on etcd in k8s.io mode and, with --compare, kube-apiserver, each
 * on an etcd of its own; a Deployment of --density-pods pause Pods timed from its create to all
 * Running, Pod startup p50/p99 as a watch sees it, the server's CPU seconds and peak RSS, the API's
 * p99 per verb from apiserver_request_duration_seconds; --density-runs rounds, the table takes the
 * median; scripts/bench/density-scenario.ts) and pods-150k (Kubernetes' 150k-Pod limit: on orch on etcd
 * with its default flags and, with --compare, on kube-apiserver with --feature-gates=WatchList=true,
 * each on a fresh etcd, small Pods created by POST up to each of --pods-steps; at each step the
 * server's RSS and RSS per Pod, LIST p50 of every Pod (consistent, no limit, 3 repeats) and a
 * WatchList (sendInitialEvents=true) timed to its initial-events-end bookmark with the server's peak
 * RSS meanwhile; then the growth exponents from the first step to the last, for RSS, LIST p50 and
 * the WatchList, scripts/bench/pods-scale-scenario.ts).
 * Each prints a JSON line as it
 * finishes; a table and the issue's targets follow.
 */
import { isOneOf } from '../apiserver/api/object.js';
import { availableParallelism } from 'node:os';
import { defaultWorkers } from '../apiserver/server/options.js';
import { runAuthn } from './bench/authn-scenario.js';
import { formatComparison, formatPhysicalLine } from './bench/compare-report.js';
import { runEtcdBaseline } from './bench/etcd-baseline.js';
import { runTlsBaseline } from './bench/tls-baseline.js';
import {
  type LocalApiServer,
  type LocalEtcd,
  startLocalApiServer,
  startLocalEtcd,
  startReferenceApiServer,
} from './bench/local-cluster.js';
import { runRbacGet } from './bench/rbac-scenario.js';
import { runApfCost } from './bench/apf-cost-scenario.js';
import { runProtobuf } from './bench/protobuf-scenario.js';
import { type FloodTarget, runApfFlood } from './bench/apf-flood-scenario.js';
import { runLedger } from './bench/ledger-scenario.js';
import { runConsole } from './bench/console-scenario.js';
import { runRestore } from './bench/restore-scenario.js';
import { type DensityOptions, type DensityTarget, runDensity } from './bench/density-scenario.js';
import { type PodsScaleTarget, runPodsScale } from './bench/pods-scale-scenario.js';
import { DEFAULT_BIN_DIR } from './bench/real-components.js';
import { formatTable, formatTargets, printJsonLine, type TargetResults } from './bench/report.js';
import { SERVER_SCENARIOS, ServerSession, type ServerScenario, withCpuUse } from './bench/server-session.js';
import { DEFAULT_OPTIONS, type BenchOptions, type ScenarioResult } from './bench/workload.js';

const SCENARIOS = [
  'etcd-put',
  'etcd-get',
  'tls-get',
  ...SERVER_SCENARIOS,
  'rbac-get',
  'apf-cost',
  'authn',
  'protobuf',
  'apf-flood',
  'ledger',
  'console',
  'restore',
  'density',
  'pods-150k',
] as const;
type Scenario = (typeof SCENARIOS)[number];
/** Run only when named: they need binaries the bench does not build (real Kubernetes components), or an hour. */
const BY_NAME_ONLY: readonly Scenario[] = ['density', 'pods-150k'];
const DEFAULT_SCENARIOS = SCENARIOS.filter((s) => s !== 'list-big' && !BY_NAME_ONLY.includes(s));
const COMPARE_SCENARIOS: Scenario[] = ['etcd-put', 'etcd-get', 'tls-get', 'create', 'get', 'update', 'list', 'watch', 'list-big'];

interface Flags {
  kubeconfig?: string;
  etcd?: string;
  serverPid?: number;
  /** The etcd's pid when the bench started it. */
  etcdPid?: number;
  /** The reference kube-apiserver binary to compare with. */
  compare?: string;
  /** orch-apiserver --workers; absent: the server's default (the number of CPUs − 1, at least 1). */
  workers?: number;
  scenarios: Set<Scenario>;
  targets: string[];
  serverNodeArgs: string[];
  options: BenchOptions;
  /** density: where kube-scheduler, kubemark and kube-controller-manager are. */
  densityBinDir: string;
  /** density: the controller manager beside orch. */
  densityControllerManager: 'kube' | 'orch';
}

const NUMERIC: Record<string, Exclude<keyof BenchOptions, 'podsSteps'>> = {
  '--concurrency': 'concurrency',
  '--count': 'count',
  '--seconds': 'seconds',
  '--list-repeats': 'listRepeats',
  '--page-size': 'pageSize',
  '--big-list-count': 'bigListCount',
  '--watchers': 'watchers',
  '--events-per-second': 'eventsPerSecond',
  '--watch-seconds': 'watchSeconds',
  '--watch-threads': 'watchThreads',
  '--warmup-seconds': 'warmupSeconds',
  '--rbac-role-bindings': 'rbacRoleBindings',
  '--rbac-cluster-role-bindings': 'rbacClusterRoleBindings',
  '--apf-objects': 'apfObjects',
  '--apf-flooders': 'apfFlooders',
  '--apf-flooder-nice': 'apfFlooderNice',
  '--ledger-stored-revisions': 'ledgerStoredRevisions',
  '--console-idle-seconds': 'consoleIdleSeconds',
  '--restore-objects': 'restoreObjects',
  '--density-nodes': 'densityNodes',
  '--density-pods': 'densityPods',
  '--density-runs': 'densityRuns',
  '--density-timeout-seconds': 'densityTimeoutSeconds',
};

function parseFlags(argv: string[]): Flags {
  const flags: Flags = {
    scenarios: new Set(),
    targets: [],
    serverNodeArgs: [],
    options: { ...DEFAULT_OPTIONS },
    densityBinDir: DEFAULT_BIN_DIR,
    densityControllerManager: 'kube',
  };
  let scenarios: Scenario[] | undefined;
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].split(/=(.*)/s, 2);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`flag needs an argument: ${name}`);
    if (name === '--kubeconfig') flags.kubeconfig = value;
    else if (name === '--etcd') flags.etcd = value;
    else if (name === '--server-pid') flags.serverPid = Number(value);
    else if (name === '--compare') flags.compare = value;
    else if (name === '--density-bin-dir') flags.densityBinDir = value;
    else if (name === '--pods-steps') {
      flags.options.podsSteps = value.split(',').map(Number);
      const steps = flags.options.podsSteps;
      if (steps.some((n, i) => !Number.isInteger(n) || n <= 0 || (i > 0 && n <= steps[i - 1])))
        throw new Error('--pods-steps must be increasing positive integers, e.g. 10000,50000,150000');
    } else if (name === '--density-controller-manager') {
      if (value !== 'kube' && value !== 'orch') throw new Error('--density-controller-manager must be kube or orch');
      flags.densityControllerManager = value;
    } else if (name === '--workers') {
      flags.workers = Number(value);
      if (!Number.isInteger(flags.workers) || flags.workers < 1) throw new Error('--workers must be a positive integer');
    } else if (name === '--targets') flags.targets = value.split(',');
    else if (name === '--server-node-args') flags.serverNodeArgs = value.split(' ').filter(Boolean);
    else if (name === '--scenario') {
      const names = value === 'all' ? SCENARIOS.filter((s) => !BY_NAME_ONLY.includes(s)) : value.split(',');
      const picked: Scenario[] = [];
      for (const s of names) {
        if (!isOneOf(SCENARIOS, s)) throw new Error(`unknown scenario ${s}; known: all, ${SCENARIOS.join(', ')}`);
        picked.push(s);
      }
      scenarios = picked;
    } else if (NUMERIC[name]) {
      const n = Number(value);
      const min = name === '--warmup-seconds' || name === '--apf-flooder-nice' ? 0 : Number.MIN_VALUE;
      if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a ${min ? 'positive' : 'non-negative'} number`);
      if (name === '--apf-flooder-nice' && !(Number.isInteger(n) && n <= 19))
        throw new Error('--apf-flooder-nice must be an integer from 0 to 19');
      flags.options[NUMERIC[name]] = n;
    } else throw new Error(`unknown flag ${name}`);
  }
  if (flags.compare && flags.kubeconfig) throw new Error('--compare starts its servers itself; it cannot be used with --kubeconfig');
  flags.scenarios = new Set(scenarios ?? (flags.compare ? COMPARE_SCENARIOS : DEFAULT_SCENARIOS));
  if (flags.targets.length === 0) flags.targets = flags.compare ? ['etcd'] : ['etcd', 'sqlite'];
  for (const t of flags.targets) if (t !== 'etcd' && t !== 'sqlite') throw new Error(`unknown target ${t}; known: etcd, sqlite`);
  if (flags.options.count < flags.options.concurrency) throw new Error('--count must be at least --concurrency');
  return flags;
}

/** The server scenarios asked for, in the order they run. */
function serverScenarios(flags: Flags): ServerScenario[] {
  return SERVER_SCENARIOS.filter((s) => flags.scenarios.has(s));
}

/** Runs the server scenarios on every session, each scenario on one session after the other. */
async function benchInterleaved(sessions: ServerSession[], scenarios: ServerScenario[]): Promise<void> {
  for (const s of sessions) await s.setup();
  for (const scenario of scenarios) for (const s of sessions) await s.run(scenario);
}

/** A started server and what stops it (with its own etcd, when it has one). */
interface Started {
  name: string;
  server: LocalApiServer;
  etcd?: LocalEtcd;
}

/** Starts a server, first on an etcd of its own when `ownEtcd`; stops that etcd again if the server fails. */
async function startWithEtcd(name: string, ownEtcd: boolean, start: (etcd?: string) => Promise<LocalApiServer>): Promise<Started> {
  const etcd = ownEtcd ? await startLocalEtcd() : undefined;
  try {
    return { name, etcd, server: await start(etcd?.endpoint) };
  } catch (err) {
    await etcd?.stop();
    throw err;
  }
}

/**
 * Starts the servers to measure: orch on each target (on the shared etcd, or in --compare mode on
 * an etcd of its own) and, with --compare, the reference kube-apiserver on an etcd of its own.
 */
async function startServers(flags: Flags, sharedEtcd: string | undefined, started: Started[]): Promise<void> {
  const nodeArgs = flags.serverNodeArgs;
  const args = flags.workers ? [`--workers=${flags.workers}`] : [];
  for (const t of flags.targets) {
    const onEtcd = t === 'etcd';
    started.push(
      await startWithEtcd(`orch-${t}`, onEtcd && !!flags.compare, (own) =>
        startLocalApiServer({ etcd: onEtcd ? (own ?? sharedEtcd) : undefined, nodeArgs, args }),
      ),
    );
  }
  const reference = flags.compare;
  if (reference)
    started.push(await startWithEtcd('kube-apiserver', true, (own) => startReferenceApiServer({ binary: reference, etcd: own! })));
}

/** density's servers: orch on etcd in k8s.io mode (the real components speak it) and, with --compare, the reference. */
function densityTargets(flags: Flags): DensityTarget[] {
  const args = ['--api-domain=k8s.io', ...(flags.workers ? [`--workers=${flags.workers}`] : [])];
  const start = async (name: string, launch: (etcd: string) => Promise<LocalApiServer>) => {
    const s = await startWithEtcd(name, true, (own) => launch(own!));
    return {
      server: s.server,
      etcdPid: s.etcd?.pid,
      stop: async () => {
        await s.server.stop();
        await s.etcd?.stop();
      },
    };
  };
  const targets: DensityTarget[] = [
    {
      name: 'orch-etcd',
      isOrch: true,
      start: () => start('orch-etcd', (etcd) => startLocalApiServer({ etcd, nodeArgs: flags.serverNodeArgs, args, serviceAccounts: true })),
    },
  ];
  const reference = flags.compare;
  if (reference)
    targets.push({
      name: 'kube-apiserver',
      isOrch: false,
      start: () => start('kube-apiserver', (etcd) => startReferenceApiServer({ binary: reference, etcd })),
    });
  return targets;
}

/** A server on an etcd of its own, and how to stop both. */
async function startOnOwnEtcd(name: string, launch: (etcd: string) => Promise<LocalApiServer>) {
  const s = await startWithEtcd(name, true, (own) => launch(own!));
  return {
    server: s.server,
    stop: async () => {
      await s.server.stop();
      await s.etcd?.stop();
    },
  };
}

/** pods-150k's servers: orch on etcd with its default flags and, with --compare, the reference with the WatchList gate on (alpha in 1.28). */
function podsScaleTargets(flags: Flags): PodsScaleTarget[] {
  const args = flags.workers ? [`--workers=${flags.workers}`] : [];
  const start = startOnOwnEtcd;
  const targets: PodsScaleTarget[] = [
    { name: 'orch-etcd', start: () => start('orch-etcd', (etcd) => startLocalApiServer({ etcd, nodeArgs: flags.serverNodeArgs, args })) },
  ];
  const reference = flags.compare;
  if (reference)
    targets.push({
      name: 'kube-apiserver',
      start: () =>
        start('kube-apiserver', (etcd) => startReferenceApiServer({ binary: reference, etcd, args: ['--feature-gates=WatchList=true'] })),
    });
  return targets;
}

/** apf-flood's servers: orch on the embedded store or, with --compare, orch and the reference each on an etcd of its own. */
function floodTargets(flags: Flags): FloodTarget[] {
  const args = flags.workers ? [`--workers=${flags.workers}`] : [];
  const workers = flags.workers ?? defaultWorkers(availableParallelism());
  const nodeArgs = flags.serverNodeArgs;
  const reference = flags.compare;
  if (!reference)
    return [
      {
        name: 'orch-apf',
        domain: 'orch.io',
        workers,
        start: async (tokens) => {
          const server = await startLocalApiServer({ tokens, nodeArgs, args });
          return { server, stop: () => server.stop() };
        },
      },
    ];
  const onEtcd = (name: string, launch: (etcd: string) => Promise<LocalApiServer>) => () => startOnOwnEtcd(name, launch);
  return [
    {
      name: 'orch-apf-etcd',
      domain: 'orch.io',
      workers,
      start: (tokens) => onEtcd('orch-apf-etcd', (etcd) => startLocalApiServer({ etcd, tokens, nodeArgs, args }))(),
    },
    {
      name: 'kube-apf',
      domain: 'k8s.io',
      workers: 1,
      start: (tokens) => onEtcd('kube-apf', (etcd) => startReferenceApiServer({ binary: reference, etcd, tokens }))(),
    },
  ];
}

function densityOptions(flags: Flags): DensityOptions {
  const o = flags.options;
  return {
    nodes: o.densityNodes,
    pods: o.densityPods,
    binDir: flags.densityBinDir,
    orchControllerManager: flags.densityControllerManager,
    timeoutSeconds: o.densityTimeoutSeconds,
  };
}

async function main(): Promise<void> {
  const flags = parseFlags(process.argv.slice(2));
  const all: TargetResults[] = [];
  let localEtcd: LocalEtcd | undefined;
  const started: Started[] = [];
  const stopServers = async () => {
    for (const s of started.splice(0).reverse()) {
      await s.server.stop();
      await s.etcd?.stop();
    }
  };
  const stopAll = async () => {
    await stopServers();
    await localEtcd?.stop();
    localEtcd = undefined;
  };
  // Interrupted: the servers and etcds it started go too (with their temporary directories).
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stopAll().finally(() => process.exit(130)));
  try {
    let etcd = flags.etcd;
    const scenarios = serverScenarios(flags);
    const baselines = flags.scenarios.has('etcd-put') || flags.scenarios.has('etcd-get');
    const sharedEtcdNeeded = (scenarios.length > 0 && flags.targets.includes('etcd') && !flags.compare) || baselines;
    if (!flags.kubeconfig && !etcd && sharedEtcdNeeded) {
      localEtcd = await startLocalEtcd();
      etcd = localEtcd.endpoint;
      flags.etcdPid = localEtcd.pid;
    }
    let baseline: ScenarioResult[] = [];
    if (etcd && baselines) {
      const [put, get] = await runEtcdBaseline(etcd, flags.options, (run) => withCpuUse({ etcd: flags.etcdPid }, run));
      baseline = [put, get].filter((r) => flags.scenarios.has(r.scenario as Scenario));
      for (const r of baseline) printJsonLine('etcd', r);
      all.push({ target: 'etcd', results: [...baseline] });
    }
    if (flags.scenarios.has('tls-get')) {
      const bare = await runTlsBaseline(flags.options);
      printJsonLine('bare-tls', bare);
      baseline.push(bare);
      all.push({ target: 'bare-tls', results: [bare] });
    }
    if (flags.scenarios.has('authn')) {
      const results = await runAuthn(flags.options.seconds);
      for (const r of results) printJsonLine('authn', r);
      all.push({ target: 'authn', results });
    }
    const servers: { name: string; results: ScenarioResult[] }[] = [];
    if (scenarios.length === 0) {
      // nothing to measure on a server
    } else if (flags.kubeconfig) {
      const session = new ServerSession('server', flags.kubeconfig, flags.options, { server: flags.serverPid, etcd: flags.etcdPid });
      try {
        await benchInterleaved([session], scenarios);
      } finally {
        session.close();
      }
      servers.push(session);
    } else if (flags.compare) {
      await startServers(flags, etcd, started);
      const sessions = started.map(
        (s) => new ServerSession(s.name, s.server.kubeconfig, flags.options, { server: s.server.pid, etcd: s.etcd?.pid ?? flags.etcdPid }),
      );
      try {
        await benchInterleaved(sessions, scenarios);
      } finally {
        for (const s of sessions) s.close();
      }
      servers.push(...sessions);
    } else {
      // one server at a time, as on a machine with room for one
      for (const t of flags.targets) {
        await startServers({ ...flags, targets: [t] }, etcd, started);
        const { name, server } = started[started.length - 1];
        const pids = { server: server.pid, etcd: t === 'etcd' ? flags.etcdPid : undefined };
        const session = new ServerSession(name, server.kubeconfig, flags.options, pids);
        try {
          await benchInterleaved([session], scenarios);
        } finally {
          session.close();
          await stopServers();
        }
        servers.push(session);
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
    if (flags.scenarios.has('apf-cost')) {
      if (flags.kubeconfig) process.stderr.write('bench: apf-cost needs servers the bench starts itself; skipped with --kubeconfig\n');
      else {
        const results = await runApfCost(flags.options, flags.serverNodeArgs);
        for (const r of results) printJsonLine('orch-apf-cost', r);
        servers.push({ name: 'orch-apf-cost', results });
      }
    }
    if (flags.scenarios.has('ledger')) {
      if (flags.kubeconfig) process.stderr.write('bench: ledger needs servers the bench starts itself; skipped with --kubeconfig\n');
      else {
        // On etcd first (the default HA setup), then on the embedded store, each target asked for.
        for (const backend of (['etcd', 'sqlite'] as const).filter((t) => flags.targets.includes(t))) {
          const name = backend === 'etcd' ? 'orch-ledger-etcd' : 'orch-ledger';
          const results = await runLedger(flags.options, (line) => process.stderr.write(`${line}\n`), {
            backend,
            nodeArgs: flags.serverNodeArgs,
          });
          for (const r of results) printJsonLine(name, r);
          servers.push({ name, results });
        }
      }
    }
    if (flags.scenarios.has('console')) {
      if (flags.kubeconfig) process.stderr.write('bench: console needs servers the bench starts itself; skipped with --kubeconfig\n');
      else {
        const results = await runConsole(flags.options, (line) => process.stderr.write(`${line}\n`));
        for (const r of results) printJsonLine('orch-console', r);
        servers.push({ name: 'orch-console', results });
      }
    }
    if (flags.scenarios.has('restore')) {
      if (flags.kubeconfig) process.stderr.write('bench: restore needs servers the bench starts itself; skipped with --kubeconfig\n');
      else {
        const results = await runRestore(flags.options, (line) => process.stderr.write(`${line}\n`));
        for (const r of results) printJsonLine('orch-restore', r);
        servers.push({ name: 'orch-restore', results });
      }
    }
    if (flags.scenarios.has('density')) {
      if (flags.kubeconfig) process.stderr.write('bench: density needs servers the bench starts itself; skipped with --kubeconfig\n');
      else
        for (const { name, results } of await runDensity(densityTargets(flags), densityOptions(flags), flags.options.densityRuns, (line) =>
          process.stderr.write(`${line}\n`),
        )) {
          for (const r of results) printJsonLine(name, r);
          const known = servers.find((s) => s.name === name);
          if (known) known.results.push(...results);
          else servers.push({ name, results });
        }
    }
    if (flags.scenarios.has('pods-150k')) {
      if (flags.kubeconfig) process.stderr.write('bench: pods-150k needs servers the bench starts itself; skipped with --kubeconfig\n');
      else
        for (const { name, results } of await runPodsScale(
          podsScaleTargets(flags),
          { steps: flags.options.podsSteps, concurrency: flags.options.concurrency },
          (line) => process.stderr.write(`${line}\n`),
        )) {
          for (const r of results) printJsonLine(name, r);
          const known = servers.find((s) => s.name === name);
          if (known) known.results.push(...results);
          else servers.push({ name, results });
        }
    }
    if (flags.scenarios.has('protobuf')) {
      if (flags.kubeconfig) process.stderr.write('bench: protobuf needs a server the bench starts itself; skipped with --kubeconfig\n');
      else {
        const results = await runProtobuf(flags.options, (line) => process.stderr.write(`${line}\n`));
        for (const r of results) printJsonLine('orch-protobuf', r);
        servers.push({ name: 'orch-protobuf', results });
      }
    }
    if (flags.scenarios.has('apf-flood')) {
      if (flags.kubeconfig) process.stderr.write('bench: apf-flood needs a server the bench starts itself; skipped with --kubeconfig\n');
      else {
        for (const { name, results } of await runApfFlood(flags.options, floodTargets(flags), (line) =>
          process.stderr.write(`${line}\n`),
        )) {
          for (const r of results) printJsonLine(name, r);
          servers.push({ name, results });
        }
      }
    }
    for (const s of servers) all.push({ target: s.name, results: s.results });
    process.stdout.write(`\n${formatTable(all)}\n\n`);
    if (flags.compare) process.stdout.write(`${formatComparison(servers, flags.options)}\n\n`);
    const physical = formatPhysicalLine(servers, baseline);
    if (physical) process.stdout.write(`${physical}\n\n`);
    for (const s of servers) {
      const text = formatTargets(s.name, s.results, baseline);
      if (text) process.stdout.write(`${text}\n`);
    }
  } finally {
    await stopAll();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
