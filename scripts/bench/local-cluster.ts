/**
 * What `npm run bench` starts when it is given no kubeconfig: an etcd (with fsync, as deployed) and
 * orch-apiserver processes on temporary directories, with the admin files of scripts/cluster-files.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureClusterFiles, writeAdminKubeconfig, type ClusterFiles } from '../cluster-files.js';
import { ApiClient } from './api-client.js';
import { loadKubeconfig } from './kubeconfig.js';
import { freePort, freePorts } from '../../test/support/free-ports.js';
import { seedClusterFiles, seedServingCerts } from '../../test/support/test-pki.js';
import { withServerHeapArgs } from '../../apiserver/component-base/runtime/server-heap.js';

/**
 * The orch-apiserver the bench starts: this build's, or with ORCH_BENCH_APISERVER another build's
 * dist/apiserver/cmd/apiserver.js (timing two commits with one bench; it must take the same flags).
 */
const APISERVER = process.env.ORCH_BENCH_APISERVER || fileURLToPath(new URL('../../apiserver/cmd/apiserver.js', import.meta.url));
const START_TIMEOUT_MS = 60_000;

export interface LocalProcess {
  pid: number;
  stop(): Promise<void>;
}

export interface LocalEtcd extends LocalProcess {
  endpoint: string;
}

export interface LocalApiServer extends LocalProcess {
  kubeconfig: string;
  /** The admin files it was started with (CA, keys, token), for the components started beside it. */
  files: ClusterFiles;
}

function stopper(child: ChildProcess, dir: string): () => Promise<void> {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };
}

/** Keeps the last few KiB a child writes to stderr, for the error when it fails to start. */
function stderrTail(child: ChildProcess): () => string {
  let tail = '';
  child.stderr?.on('data', (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-4000)));
  return () => tail.trim();
}

async function waitUntil(what: string, ready: () => Promise<boolean>, child: ChildProcess): Promise<void> {
  const stderr = stderrTail(child);
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}: ${stderr()}`);
    if (await ready().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} not ready after ${START_TIMEOUT_MS} ms; its last stderr lines:\n${stderr() || '(none)'}`);
}

/** Starts etcd (the binary on PATH, or ETCD_BIN) on free loopback ports. */
export async function startLocalEtcd(): Promise<LocalEtcd> {
  const dir = await mkdtemp(join(tmpdir(), 'orch-bench-etcd-'));
  const [clientPort, peerPort] = await freePorts(2);
  const endpoint = `http://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ETCD_')));
  const child = spawn(
    process.env.ETCD_BIN ?? 'etcd',
    [
      '--name=bench',
      `--data-dir=${join(dir, 'data')}`,
      `--listen-client-urls=${endpoint}`,
      `--advertise-client-urls=${endpoint}`,
      `--listen-peer-urls=${peer}`,
      `--initial-advertise-peer-urls=${peer}`,
      `--initial-cluster=bench=${peer}`,
      '--log-level=error',
      '--logger=zap',
    ],
    { env, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const stop = stopper(child, dir);
  try {
    await waitUntil('etcd', async () => (await fetch(`${endpoint}/health`)).ok, child);
  } catch (err) {
    await stop();
    throw err;
  }
  return { endpoint, pid: child.pid!, stop };
}

/** Spawns an API server that serves on `port` with `files`' admin token; resolves once /readyz answers. */
async function launchApiServer(
  what: string,
  dir: string,
  port: number,
  files: ClusterFiles,
  command: string,
  args: string[],
): Promise<LocalApiServer> {
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const stop = stopper(child, dir);
  const kubeconfig = join(dir, 'admin.kubeconfig');
  writeAdminKubeconfig(kubeconfig, `https://127.0.0.1:${port}`, files);
  try {
    const api = new ApiClient(loadKubeconfig(kubeconfig), 1);
    await waitUntil(what, async () => (await api.request('GET', '/readyz')).status === 200, child);
    api.close();
  } catch (err) {
    await stop();
    throw err;
  }
  return { kubeconfig, pid: child.pid!, stop, files };
}

/** The flags that let an API server issue and check service-account tokens (kubelets mount them). */
function serviceAccountArgs(files: ClusterFiles): string[] {
  return [
    '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
    `--service-account-key-file=${files.serviceAccountPublicKeyFile}`,
    `--service-account-signing-key-file=${files.serviceAccountKeyFile}`,
  ];
}

/**
 * Starts orch-apiserver on the embedded store, or on etcd when `etcd` is given (under its own
 * prefix), with extra node flags (e.g. --cpu-prof); resolves once /readyz answers.
 */
export async function startLocalApiServer(opts: {
  etcd?: string;
  nodeArgs?: string[];
  args?: string[];
  /** More --token-auth-file lines besides the admin's. */
  tokens?: string[];
  /** Issue service-account tokens with the cluster files' keys (as kube-apiserver is started). */
  serviceAccounts?: boolean;
}): Promise<LocalApiServer> {
  const dir = await mkdtemp(join(tmpdir(), 'orch-bench-'));
  // Under scripts/run-tests.mjs (tests, the bench smoke test): the run's certificates, not new keys (a no-op otherwise).
  seedClusterFiles(dir);
  seedServingCerts(join(dir, 'data', 'certs'));
  const files = ensureClusterFiles(dir, ['127.0.0.1']);
  if (opts.tokens?.length) appendFileSync(files.tokensFile, opts.tokens.map((l) => `${l}\n`).join(''));
  const port = await freePort();
  return launchApiServer('orch-apiserver', dir, port, files, process.execPath, [
    ...withServerHeapArgs(opts.nodeArgs ?? []),
    APISERVER,
    `--secure-port=${port}`,
    '--bind-address=127.0.0.1',
    `--data-dir=${join(dir, 'data')}`,
    `--tls-cert-file=${files.certFile}`,
    `--tls-private-key-file=${files.keyFile}`,
    `--token-auth-file=${files.tokensFile}`,
    ...(opts.etcd ? [`--etcd-servers=${opts.etcd}`, `--etcd-prefix=/registry-${port}`] : []),
    ...(opts.serviceAccounts ? serviceAccountArgs(files) : []),
    ...(opts.args ?? []),
  ]);
}

/**
 * Starts the bare Node TLS server (scripts/bench/bare-tls-server.ts) with an admin kubeconfig that
 * points at it, so the bench's client loads it as it loads a server.
 */
export async function startBareTlsServer(): Promise<LocalApiServer> {
  const dir = await mkdtemp(join(tmpdir(), 'orch-bench-bare-'));
  const files = ensureClusterFiles(dir, ['127.0.0.1']);
  const port = await freePort();
  const script = fileURLToPath(new URL('./bare-tls-server.js', import.meta.url));
  return launchApiServer('bare TLS server', dir, port, files, process.execPath, [script, String(port), files.certFile, files.keyFile]);
}

/**
 * Starts a reference kube-apiserver binary on `etcd` with the same admin files as orch (token
 * file, serving certificate, service-account keys) and its defaults otherwise (admission,
 * AlwaysAllow authorization, watch cache) and `args` (e.g. --feature-gates); resolves once /readyz answers.
 */
export async function startReferenceApiServer(opts: {
  binary: string;
  etcd: string;
  args?: string[];
  /** More --token-auth-file lines besides the admin's. */
  tokens?: string[];
}): Promise<LocalApiServer> {
  const dir = await mkdtemp(join(tmpdir(), 'orch-bench-reference-'));
  const files = ensureClusterFiles(dir, ['127.0.0.1']);
  if (opts.tokens?.length) appendFileSync(files.tokensFile, opts.tokens.map((l) => `${l}\n`).join(''));
  const port = await freePort();
  return launchApiServer('kube-apiserver', dir, port, files, opts.binary, [
    `--secure-port=${port}`,
    '--bind-address=127.0.0.1',
    `--cert-dir=${join(dir, 'cert-dir')}`,
    `--tls-cert-file=${files.certFile}`,
    `--tls-private-key-file=${files.keyFile}`,
    `--token-auth-file=${files.tokensFile}`,
    `--etcd-servers=${opts.etcd}`,
    ...serviceAccountArgs(files),
    '--service-cluster-ip-range=10.96.0.0/12',
    ...(opts.args ?? []),
  ]);
}
