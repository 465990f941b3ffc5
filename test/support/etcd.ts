/**
 * A real, throwaway etcd for tests: /usr/bin/etcd on free loopback ports with a fresh data dir.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { freePorts } from './free-ports.js';

export interface EtcdProcess {
  /** The client URL, e.g. http://127.0.0.1:41234. */
  endpoint: string;
  /** Kills etcd and removes its data dir. Safe to call more than once. */
  stop(): Promise<void>;
}

const ETCD_BINARY = '/usr/bin/etcd';
const START_TIMEOUT_MS = 15_000;
const START_ATTEMPTS = 3;

/**
 * Starts a single-member etcd bound to 127.0.0.1 on free client and peer ports and resolves once it
 * answers /health. Retries on another pair of ports when one was taken in the meantime.
 */
export async function startEtcd(): Promise<EtcdProcess> {
  let lastError: unknown;
  for (let attempt = 0; attempt < START_ATTEMPTS; attempt++) {
    try {
      return await startOnce();
    } catch (err) {
      lastError = err;
    }
  }
  throw lastError;
}

/**
 * Registers before/after hooks in the current node:test scope that run one etcd for the whole scope;
 * call the returned function inside tests for its client endpoint.
 */
export function useEtcd(): () => string {
  let etcd: EtcdProcess | undefined;
  before(async () => {
    etcd = await startEtcd();
  });
  after(async () => {
    await etcd?.stop();
  });
  return () => {
    if (!etcd) throw new Error('useEtcd: etcd is not running (call the getter inside a test)');
    return etcd.endpoint;
  };
}

async function startOnce(): Promise<EtcdProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), 'orch-etcd-'));
  const [clientPort, peerPort] = await freePorts(2);
  const clientUrl = `http://127.0.0.1:${clientPort}`;
  const peerUrl = `http://127.0.0.1:${peerPort}`;
  const child = spawn(
    ETCD_BINARY,
    [
      '--name=test',
      `--data-dir=${dataDir}`,
      `--listen-client-urls=${clientUrl}`,
      `--advertise-client-urls=${clientUrl}`,
      `--listen-peer-urls=${peerUrl}`,
      `--initial-advertise-peer-urls=${peerUrl}`,
      `--initial-cluster=test=${peerUrl}`,
      '--unsafe-no-fsync',
      '--logger=zap',
      '--log-outputs=stderr',
      '--log-level=error',
    ],
    { env: withoutEtcdVariables(process.env), stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', (err) => {
      stderr += err.message;
      resolve();
    });
  });

  // Should the test process exit without stop(), take etcd and its data along.
  const onExit = (): void => {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.once('exit', onExit);

  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopped ??= kill(child, exited).then(async () => {
      process.off('exit', onExit);
      await rm(dataDir, { recursive: true, force: true });
    }));

  try {
    await waitHealthy(clientUrl, exited, () => stderr);
  } catch (err) {
    await stop();
    throw err;
  }
  return { endpoint: clientUrl, stop };
}

/** Waits until etcd reports healthy, failing early when the process exits. */
async function waitHealthy(clientUrl: string, exited: Promise<void>, stderr: () => string): Promise<void> {
  let hasExited = false;
  void exited.then(() => (hasExited = true));
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (hasExited) throw new Error(`etcd exited during startup: ${stderr()}`);
    try {
      const res = await fetch(`${clientUrl}/health`, { signal: AbortSignal.timeout(1000) });
      const body = (await res.json()) as { health?: string };
      if (res.ok && body.health === 'true') return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`etcd did not become healthy within ${START_TIMEOUT_MS} ms: ${stderr()}`);
}

async function kill(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** The environment without ETCD_* variables, which etcd would read as flags. */
function withoutEtcdVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('ETCD_')));
}
