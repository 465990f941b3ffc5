/**
 * The highly available shape as local processes on one machine: 3 etcd members, N orch-apiserver
 * replicas sharing them, orch-proxy in front, and 2 leader-elected controller managers talking to
 * the front door. Used by `npm run cluster`, the fault tests and benchmarks.
 *
 * Everything lives in one directory: the cluster files (certs/, tokens.csv, kubeconfigs), the
 * front-proxy CA, etcd data (etcd-<i>/), each process's log (logs/<name>.log) and topology.json, the
 * ports picked the first time: a later start on the same directory reuses them, so etcd members find
 * their peers and the kubeconfigs stay right (the "restart everything" case).
 *
 * Every process can be signalled (kill -9, SIGSTOP/SIGCONT) and started again on its own. With
 * `supervise` (npm run cluster) a process that exits unasked is reported and started again, as a
 * supervisor (systemd's Restart=on-failure) would: after 1 s, then twice as long each time it fails
 * again, at most 30 s, back to 1 s once it has run a minute. The fault tests leave it off: they kill
 * and restart processes themselves.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newApiDomain } from '../apiserver/api/domain.js';
import { withServerHeapArgs } from '../apiserver/component-base/runtime/server-heap.js';
import { freePorts } from '../test/support/free-ports.js';
import { apiserverArgs, controllerManagerArgs } from './all-in-one-options.js';
import { READY_TIMEOUT_MS, waitReadyz } from './cluster-readyz.js';
import {
  ensureClusterFiles,
  ensureFrontProxyFiles,
  FRONT_PROXY_CN,
  writeAdminKubeconfig,
  writeClientCertKubeconfig,
  writeControllerManagerKubeconfigs,
  type ClusterFiles,
} from './cluster-files.js';

const APISERVER = fileURLToPath(new URL('../apiserver/cmd/apiserver.js', import.meta.url));
const PROXY = fileURLToPath(new URL('../apiserver/cmd/proxy.js', import.meta.url));
const CONTROLLER_MANAGER = fileURLToPath(new URL('../controllers/cmd/controller-manager.js', import.meta.url));
const STOP_GRACE_MS = 15_000;

export interface ClusterOptions {
  dir: string;
  /** API server replicas; default 2. */
  replicas?: number;
  /** The front door's port; 0 (default) picks a free one the first time. */
  port?: number;
  /** Controller managers; default 2. */
  controllerManagers?: number;
  /** etcd without fsync (tests: faster, still loses nothing when a process is killed); default false. */
  unsafeNoFsync?: boolean;
  /** More orch-apiserver flags. */
  apiserverArgs?: string[];
  /** More orch-proxy flags. */
  proxyArgs?: string[];
  /**
   * Restart every process that exits when not asked to (after it was ready once), with backoff, and
   * tell `say` (one line each: the exit, with the name, pid and signal or code, then the return).
   * The processes run in process groups of their own then, so a terminal's Ctrl+C reaches only this
   * process, which stops them in order. Off by default.
   */
  supervise?: { say: (line: string) => void; initialBackoffMs?: number };
}

/** The ports of one cluster, picked once and kept in topology.json. */
interface Topology {
  etcd: { client: number; peer: number }[];
  apiservers: number[];
  proxy: number;
  proxyMetrics: number;
}

/** One process of the cluster. */
export interface Member {
  readonly name: string;
  readonly url: string;
  /** The running child; undefined once it exited. */
  child(): ChildProcess | undefined;
  /** Sends a signal (SIGKILL, SIGSTOP, SIGCONT, …) to the running child. */
  signal(sig: NodeJS.Signals): void;
  /** Starts the process (again) and waits until it is ready. */
  start(): Promise<void>;
  /** SIGTERM, SIGKILL after a grace period; resolves once it exited. */
  stop(): Promise<void>;
  /** The end of its log file. */
  log(lines?: number): string;
}

export interface Cluster {
  dir: string;
  files: ClusterFiles;
  etcd: Member[];
  etcdEndpoints: string[];
  apiservers: Member[];
  proxy: Member;
  /** The front door, e.g. https://127.0.0.1:6443. */
  url: string;
  /** The front door's own /metrics, /healthz and /readyz (plain HTTP). */
  proxyMetricsUrl: string;
  controllerManagers: Member[];
  /** Admin by client certificate (CN admin, O system:masters), through the front door. */
  kubeconfig: string;
  /** Admin by bearer token, through the front door. */
  tokenKubeconfig: string;
  /** Stops everything: controller managers, front door, replicas, etcd. The directory stays. */
  stop(): Promise<void>;
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const dir = options.dir;
  mkdirSync(join(dir, 'logs'), { recursive: true });
  const topology = await ensureTopology(dir, options.replicas ?? 2, options.port ?? 0);
  const files = ensureClusterFiles(dir);
  const frontProxy = ensureFrontProxyFiles(dir);
  const url = `https://127.0.0.1:${topology.proxy}`;
  const kubeconfig = join(dir, 'admin.kubeconfig');
  const tokenKubeconfig = join(dir, 'admin-token.kubeconfig');
  writeClientCertKubeconfig(kubeconfig, url, files.caPem, 'admin', files.admin);
  writeAdminKubeconfig(tokenKubeconfig, url, files);
  const domainFlag = [...(options.apiserverArgs ?? [])].reverse().find((a) => a.startsWith('--api-domain='));
  const manager = writeControllerManagerKubeconfigs(dir, url, files, newApiDomain(domainFlag?.slice('--api-domain='.length)));

  const peers = topology.etcd.map((p, i) => `etcd-${i + 1}=http://127.0.0.1:${p.peer}`).join(',');
  const etcd = topology.etcd.map((p, i) => {
    const name = `etcd-${i + 1}`;
    const clientUrl = `http://127.0.0.1:${p.client}`;
    const peerUrl = `http://127.0.0.1:${p.peer}`;
    const args = [
      `--name=${name}`,
      `--data-dir=${join(dir, name)}`,
      `--listen-client-urls=${clientUrl}`,
      `--advertise-client-urls=${clientUrl}`,
      `--listen-peer-urls=${peerUrl}`,
      `--initial-advertise-peer-urls=${peerUrl}`,
      `--initial-cluster=${peers}`,
      '--initial-cluster-state=new',
      '--initial-cluster-token=orch-etcd',
      '--logger=zap',
      '--log-level=warn',
      ...(options.unsafeNoFsync ? ['--unsafe-no-fsync'] : []),
    ];
    return newMember(dir, name, clientUrl, 'etcd', args, () => waitHttp(`${clientUrl}/health`), options.supervise);
  });
  const etcdEndpoints = etcd.map((m) => m.url);

  const childFiles = {
    ...files,
    controllerManagerKubeconfigFile: manager.kubeconfig,
    controllerKubeconfigDir: manager.controllersDir,
  };
  const apiservers = topology.apiservers.map((port, i) => {
    const name = `apiserver-${i + 1}`;
    const args = [
      ...withServerHeapArgs([]),
      APISERVER,
      ...apiserverArgs({ dataDir: join(dir, name), securePort: port }, { ...childFiles, controllerManagerCertDir: '' }),
      '--bind-address=127.0.0.1',
      `--etcd-servers=${etcdEndpoints.join(',')}`,
      `--token-auth-file=${files.tokensFile}`,
      `--requestheader-client-ca-file=${frontProxy.caFile}`,
      `--requestheader-allowed-names=${FRONT_PROXY_CN}`,
      '--requestheader-username-headers=X-Remote-User',
      '--requestheader-group-headers=X-Remote-Group',
      '--requestheader-extra-headers-prefix=X-Remote-Extra-',
      // Draining: /readyz fails for a moment before the replica stops listening, so the front door moves on first.
      '--shutdown-delay-duration=2s',
      ...(options.apiserverArgs ?? []),
    ];
    const replicaUrl = `https://127.0.0.1:${port}`;
    return newMember(dir, name, replicaUrl, process.execPath, args, () => waitReadyz(replicaUrl, files), options.supervise);
  });

  const proxy = newMember(
    dir,
    'proxy',
    url,
    process.execPath,
    [
      PROXY,
      `--secure-port=${topology.proxy}`,
      '--bind-address=127.0.0.1',
      `--tls-cert-file=${files.certFile}`,
      `--tls-private-key-file=${files.keyFile}`,
      `--client-ca-file=${files.caFile}`,
      `--proxy-client-cert-file=${frontProxy.client.certFile}`,
      `--proxy-client-key-file=${frontProxy.client.keyFile}`,
      `--backend-ca-file=${files.caFile}`,
      `--backends=${apiservers.map((a) => a.url).join(',')}`,
      `--metrics-port=${topology.proxyMetrics}`,
      '--shutdown-timeout=5s',
      ...(options.proxyArgs ?? []),
    ],
    () => waitHttp(`http://127.0.0.1:${topology.proxyMetrics}/readyz`),
    options.supervise,
  );

  const controllerManagers = Array.from({ length: options.controllerManagers ?? 2 }, (_, i) => {
    const name = `controller-manager-${i + 1}`;
    const args = [CONTROLLER_MANAGER, ...controllerManagerArgs({ ...childFiles, controllerManagerCertDir: join(dir, name) })];
    return newMember(dir, name, url, process.execPath, args, async () => {}, options.supervise);
  });

  const all = [...etcd, ...apiservers, proxy, ...controllerManagers];
  const stop = async (): Promise<void> => {
    for (const group of [controllerManagers, [proxy], apiservers, etcd]) await Promise.all(group.map((m) => m.stop()));
  };
  try {
    await Promise.all(etcd.map((m) => m.start()));
    await Promise.all(apiservers.map((m) => m.start()));
    await proxy.start();
    await Promise.all(controllerManagers.map((m) => m.start()));
  } catch (err) {
    const logs = all.map((m) => `--- ${m.name}\n${m.log(15)}`).join('\n');
    await stop();
    throw new Error(`${(err as Error).message}\n${logs}`);
  }
  return {
    dir,
    files,
    etcd,
    etcdEndpoints,
    apiservers,
    proxy,
    url,
    proxyMetricsUrl: `http://127.0.0.1:${topology.proxyMetrics}`,
    controllerManagers,
    kubeconfig,
    tokenKubeconfig,
    stop,
  };
}

/** topology.json of `dir`, or new ports for a new cluster (written there). */
async function ensureTopology(dir: string, replicas: number, port: number): Promise<Topology> {
  const file = join(dir, 'topology.json');
  if (existsSync(file)) {
    const topology = JSON.parse(readFileSync(file, 'utf8')) as Topology;
    if (topology.apiservers.length !== replicas) {
      throw new Error(`${dir} holds a cluster of ${topology.apiservers.length} replicas, not ${replicas}; use another directory`);
    }
    if (port !== 0 && topology.proxy !== port) throw new Error(`${dir} holds a cluster whose front door is on port ${topology.proxy}`);
    return topology;
  }
  const ports = await freePorts(6 + replicas + 2);
  const topology: Topology = {
    etcd: [0, 1, 2].map((i) => ({ client: ports[2 * i], peer: ports[2 * i + 1] })),
    apiservers: ports.slice(6, 6 + replicas),
    proxy: port || ports[6 + replicas],
    proxyMetrics: ports[7 + replicas],
  };
  writeFileSync(file, `${JSON.stringify(topology, null, 2)}\n`);
  return topology;
}

const MAX_BACKOFF_MS = 30_000;
/** A process that ran this long before it died is restarted after the initial delay again. */
const STABLE_RUN_MS = 60_000;

function newMember(
  dir: string,
  name: string,
  url: string,
  command: string,
  args: string[],
  ready: () => Promise<void>,
  supervise?: ClusterOptions['supervise'],
): Member {
  const logFile = join(dir, 'logs', `${name}.log`);
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  /** Set by stop(), cleared by start(): an exit now was asked for. */
  let stopRequested = false;
  /** Whether it was ready once (only then does the supervisor restart it). */
  let wasReady = false;
  const initialBackoffMs = supervise?.initialBackoffMs ?? 1000;
  let backoffMs = initialBackoffMs;
  let restarts = 0;
  let restartTimer: NodeJS.Timeout | undefined;

  const onUnaskedExit = (pid: number | undefined, startedAt: number, code: number | null, signal: NodeJS.Signals | null): void => {
    if (!supervise || stopRequested || !wasReady) return;
    if (Date.now() - startedAt >= STABLE_RUN_MS) backoffMs = initialBackoffMs;
    restarts++;
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    supervise.say(`ERROR ${name} (pid ${pid}) ${how}; restarting it in ${backoffMs / 1000}s (restart ${restarts}; log: ${logFile})`);
    restartTimer = setTimeout(() => {
      restartTimer = undefined;
      if (stopRequested) return;
      const began = Date.now();
      member.start().then(
        () => supervise.say(`${name} is back (pid ${child?.pid}), ready ${((Date.now() - began) / 1000).toFixed(1)}s after the restart`),
        // Died during start-up: its exit schedules the next try. Started but not ready: it runs on, watched.
        (err: unknown) => supervise.say(`ERROR ${name} did not come back: ${(err as Error).message}`),
      );
    }, backoffMs);
    backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
  };

  const member: Member = {
    name,
    url,
    child: () => child,
    signal(sig) {
      child?.kill(sig);
    },
    async start() {
      if (child) throw new Error(`${name} is running`);
      stopRequested = false;
      const out = createWriteStream(logFile, { flags: 'a' });
      const c = spawn(command, args, {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: withoutEtcdVariables(process.env),
        detached: supervise !== undefined,
      });
      c.stdout?.pipe(out, { end: false });
      c.stderr?.pipe(out, { end: false });
      child = c;
      const startedAt = Date.now();
      exited = new Promise((resolve) =>
        c.once('exit', (code, signal) => {
          if (child === c) child = undefined;
          out.end();
          resolve();
          onUnaskedExit(c.pid, startedAt, code, signal);
        }),
      );
      const died = exited.then(() => {
        throw new Error(`${name} exited during start-up`);
      });
      await Promise.race([ready(), died]);
      wasReady = true;
    },
    async stop() {
      stopRequested = true;
      clearTimeout(restartTimer);
      const c = child;
      if (!c) return;
      c.kill('SIGCONT'); // a stopped process cannot handle SIGTERM
      c.kill('SIGTERM');
      const kill = setTimeout(() => c.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(kill);
    },
    log(lines = 30) {
      if (!existsSync(logFile)) return '';
      return readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
    },
  };
  return member;
}

/** Resolves once GET `url` answers 200. */
async function waitHttp(url: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer 200 within ${READY_TIMEOUT_MS / 1000}s`);
}

/** The environment without ETCD_* variables, which etcd would read as flags. */
function withoutEtcdVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('ETCD_')));
}
