/**
 * The one way tests start an orch-apiserver: real HTTPS on a free loopback port, real storage (a
 * SQLite file in a temp dir, or a given etcd under its own prefix), an admin token, clients and an
 * admin kubeconfig. In this test process (`startTestServer()`, fast, the default) or as its own
 * `node dist/apiserver/cmd/apiserver.js` process (`{ process: true }`, what e2e suites drive).
 * Fails loudly when the server is not ready in time: the error names the time waited, the last
 * /readyz answer and the server's last log lines. Once ready, server logs reach the test's stderr
 * at warning level and above only, unless ORCH_TEST_LOG is set (see server-log.ts).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { newLogger } from '../../apiserver/component-base/logs/logger.js';
import { parseServerOptions } from '../../apiserver/server/options.js';
import { runServer } from '../../apiserver/server/run-server.js';
import type { KindDeclaration } from '../../apiserver/registry/generic/kind-declaration.js';
import { writeAdminKubeconfig } from '../../scripts/cluster-files.js';
import { newTestClient, type TestClient } from './http-client.js';
import { newServerLog, type ServerLog } from './server-log.js';
import { seedServingCerts } from './test-pki.js';

const APISERVER = fileURLToPath(new URL('../../apiserver/cmd/apiserver.js', import.meta.url));
const READY_TIMEOUT_MS = 30_000;
/** Flags that bring certificates of their own: such a server is not given the run's shared ones. */
const CERT_FLAGS = /^--(cert-dir|tls-cert-file|tls-private-key-file|proxy-client-cert-file|proxy-client-key-file)(=|$)/;
const STOP_GRACE_MS = 10_000;

export interface TestServerOptions {
  /** Run `orch-apiserver` as a child process instead of in this process. */
  process?: boolean;
  /** etcd client URL; absent = the embedded SQLite store. */
  etcd?: string;
  /** The etcd prefix; by default a fresh one, so servers sharing one etcd do not see each other. */
  etcdPrefix?: string;
  /** Extra orch-apiserver flags. */
  args?: string[];
  /** Extra node flags of the child process (e.g. --cpu-prof). */
  nodeArgs?: string[];
  /** Use this data dir and leave it in place on stop (the caller removes it). */
  dataDir?: string;
  /** More --token-auth-file lines (`token,user,uid,"group1,group2"`) besides the admin's. */
  tokens?: string[];
  /** The kinds the server serves (in-process only); default every built-in kind. */
  resources?: readonly KindDeclaration[];
  /** false: return once the server listens, for servers that can never be ready (AlwaysDeny admission). */
  waitReady?: boolean;
}

export interface TestServer {
  url: string;
  port: number;
  /** The server's process id: this process for an in-process server, else the child's (the supervisor of its workers). */
  pid: number;
  /** The CA of the serving certificate (PEM). */
  ca: string;
  /** The admin bearer token (user admin in system:masters). */
  token: string;
  /** A client with the admin token. */
  client: TestClient;
  /** A client without credentials (anonymous). */
  anonymous: TestClient;
  /** An admin kubeconfig for kubectl and the controllers' client. */
  kubeconfig: string;
  dataDir: string;
  /** The server's last log lines. */
  logs(): string;
  /** Stops the server (gracefully, as on SIGTERM) and leaves clients and data dir alone. */
  shutdown(): Promise<void>;
  /** Stops the server, closes the clients and removes the temp dirs it made. Safe to call twice. */
  stop(): Promise<void>;
  /** Stops this server and starts another on the same data dir (and etcd), which then owns the dir. */
  restart(opts?: Pick<TestServerOptions, 'args'>): Promise<TestServer>;
}

/** A started server before its clients exist: where it listens and how it stops. */
interface Running {
  port: number;
  pid: number;
  /** Rejects when the server stops by itself (a child process exiting). */
  died: Promise<never>;
  shutdown(): Promise<void>;
}

export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const ownsDir = !opts.dataDir;
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'orch-test-')));
  try {
    // A fresh data dir starts from the run's test certificates (test-pki.ts), not four new RSA keys.
    if (ownsDir && !(opts.args ?? []).some((a) => CERT_FLAGS.test(a))) seedServingCerts(join(dataDir, 'certs'));
    return await startIn(dataDir, ownsDir, opts);
  } catch (err) {
    if (ownsDir) await rm(dataDir, { recursive: true, force: true });
    throw err;
  }
}

async function startIn(dataDir: string, ownsDir: boolean, opts: TestServerOptions): Promise<TestServer> {
  const etcdPrefix = opts.etcdPrefix ?? `/registry-${randomBytes(4).toString('hex')}`;
  const tokens = join(dataDir, 'tokens.csv');
  const token = randomBytes(16).toString('hex');
  await writeFile(tokens, [`${token},admin,admin,"system:masters"`, ...(opts.tokens ?? [])].map((l) => `${l}\n`).join(''));
  const args = [
    '--secure-port=0',
    '--bind-address=127.0.0.1',
    `--data-dir=${dataDir}`,
    `--token-auth-file=${tokens}`,
    ...(opts.etcd ? [`--etcd-servers=${opts.etcd}`, `--etcd-prefix=${etcdPrefix}`] : []),
    ...(opts.args ?? []),
  ];
  const log = newServerLog(opts.process ? 'orch-apiserver' : 'apiserver');
  const startedAt = Date.now();
  const running = opts.process
    ? await startChild(args, opts.nodeArgs ?? [], log, startedAt)
    : await startInProcess(args, log, opts.resources);
  const url = `https://127.0.0.1:${running.port}`;
  let ca: string;
  let client: TestClient | undefined;
  let anonymous: TestClient | undefined;
  try {
    ca = await readFile(join(dataDir, 'certs', 'ca.crt'), 'utf8');
    client = newTestClient({ url, token, ca });
    anonymous = newTestClient({ url, ca });
    if (opts.waitReady !== false) await Promise.race([waitReady(client, log, startedAt), running.died]);
    log.ready();
  } catch (err) {
    client?.close();
    anonymous?.close();
    await running.shutdown();
    throw err;
  }
  const kubeconfig = join(dataDir, 'admin.kubeconfig');
  writeAdminKubeconfig(kubeconfig, url, { caPem: ca, token });
  const closeClients = () => {
    client.close();
    anonymous.close();
  };
  let stopped: Promise<void> | undefined;
  return {
    url,
    port: running.port,
    pid: running.pid,
    ca,
    token,
    client,
    anonymous,
    kubeconfig,
    dataDir,
    logs: log.tail,
    shutdown: running.shutdown,
    stop: () =>
      (stopped ??= (async () => {
        await running.shutdown();
        closeClients();
        if (ownsDir) await rm(dataDir, { recursive: true, force: true });
      })()),
    async restart(next = {}) {
      await running.shutdown();
      closeClients();
      try {
        return await startIn(dataDir, ownsDir, { ...opts, etcdPrefix, args: next.args ?? opts.args });
      } catch (err) {
        if (ownsDir) await rm(dataDir, { recursive: true, force: true });
        throw err;
      }
    },
  };
}

async function startInProcess(args: string[], log: ServerLog, resources?: readonly KindDeclaration[]): Promise<Running> {
  const options = parseServerOptions(args);
  // The server logs at its --v level into the log, which shows warnings (or everything with ORCH_TEST_LOG).
  const server = await runServer(options, newLogger(options, log.stream), {}, resources);
  let closing: Promise<void> | undefined;
  return { port: server.port, pid: process.pid, died: new Promise<never>(() => {}), shutdown: () => (closing ??= server.close()) };
}

async function startChild(args: string[], nodeArgs: string[], log: ServerLog, startedAt: number): Promise<Running> {
  const child = spawn(process.execPath, [...nodeArgs, APISERVER, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (d: Buffer) => log.write(d.toString()));
  child.stderr.on('data', (d: Buffer) => log.write(d.toString()));
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => resolve(signal ? `signal ${signal}` : `code ${code}`));
    child.once('error', (err) => resolve(err.message));
  });
  // Should the test process exit without stop(), take the server along.
  const onExit = () => child.kill('SIGKILL');
  process.once('exit', onExit);
  let closing: Promise<void> | undefined;
  const shutdown = () =>
    (closing ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
        await exited;
        clearTimeout(timer);
      }
      process.off('exit', onExit);
    })());
  const died = exited.then((how) => {
    throw new Error(`orch-apiserver exited (${how}) ${Date.now() - startedAt} ms after it was started; its last log lines:\n${log.tail()}`);
  });
  died.catch(() => {});
  try {
    const port = await Promise.race([listeningPort(log, startedAt), died]);
    return { port, pid: child.pid!, died, shutdown };
  } catch (err) {
    await shutdown();
    throw err;
  }
}

/** The port from the child's "serving securely" log line (it was started with --secure-port=0). */
async function listeningPort(log: ServerLog, startedAt: number): Promise<number> {
  while (Date.now() - startedAt < READY_TIMEOUT_MS) {
    const m = log.tail().match(/"msg":"serving securely".*"port":(\d+)/);
    if (m) return Number(m[1]);
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`orch-apiserver did not listen within ${Date.now() - startedAt} ms; its last log lines:\n${log.tail()}`);
}

/** Waits until /readyz answers 200 (storage reachable, system namespaces and default Service made). */
async function waitReady(client: TestClient, log: ServerLog, startedAt: number): Promise<void> {
  let last = 'no answer';
  while (Date.now() - startedAt < READY_TIMEOUT_MS) {
    try {
      const r = await client.get('/readyz?verbose');
      if (r.status === 200) return;
      last = `${r.status}: ${r.text.trim()}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(
    `orch-apiserver at ${client.config.url} was not ready after ${Date.now() - startedAt} ms ` +
      `(last /readyz: ${last}); its last log lines:\n${log.tail() || '(none)'}`,
  );
}
