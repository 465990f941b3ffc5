/**
 * Real Kubernetes 1.28 components beside a server the bench started (`density`): the kube-scheduler,
 * kubemark hollow nodes (the real kubelet on a fake container runtime) and a controller manager —
 * kube-controller-manager, or orch's own. The binaries come from a directory (by default
 * `$HOME/orch-reference/bin`, where the reference build puts them); nothing here ships with orch.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClusterFiles } from '../cluster-files.js';
import { ApiClient } from './api-client.js';
import { loadKubeconfig } from './kubeconfig.js';
import { freePorts } from '../../test/support/free-ports.js';

export const DEFAULT_BIN_DIR = join(homedir(), 'orch-reference', 'bin');

const CONTROLLER_MANAGER = fileURLToPath(new URL('../../controllers/cmd/controller-manager.js', import.meta.url));

/** Client rate limits high enough that the API server, not the client's limiter, sets the pace. */
const CLIENT_RATE = ['--kube-api-qps=200', '--kube-api-burst=400'];

export interface RealComponentsOptions {
  binDir: string;
  kubeconfig: string;
  files: ClusterFiles;
  /** Where the components' logs and the kubelets' certificate directories go. */
  dir: string;
  nodes: number;
  /** `kube`: kube-controller-manager; `orch`: orch-controller-manager (k8s.io mode). */
  controllerManager: 'kube' | 'orch';
}

export interface RealComponents {
  /** The controller manager's pid (its CPU is not the server's). */
  controllerManagerPid: number;
  stop(): Promise<void>;
}

function launch(dir: string, name: string, command: string, args: string[]): ChildProcess {
  const log = openSync(join(dir, `${name}.log`), 'w');
  const child = spawn(command, args, { stdio: ['ignore', log, log], detached: true });
  logs.set(child, join(dir, `${name}.log`));
  return child;
}

const logs = new WeakMap<ChildProcess, string>();

/** The last lines a component wrote (its log goes with the run's directory). */
function logTail(child: ChildProcess): string {
  const file = logs.get(child);
  const text = file ? readFileSync(file, 'utf8') : '';
  return text.trim().split('\n').slice(-8).join('\n');
}

async function stopAll(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.reverse().map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }),
  );
}

function controllerManagerArgs(o: RealComponentsOptions): [string, string[]] {
  const common = [`--kubeconfig=${o.kubeconfig}`, '--secure-port=0', '--leader-elect=false'];
  const keys = [`--service-account-private-key-file=${o.files.serviceAccountKeyFile}`];
  const signing = [`--cluster-signing-cert-file=${o.files.caFile}`, `--cluster-signing-key-file=${o.files.caKeyFile}`];
  if (o.controllerManager === 'orch')
    return [process.execPath, [CONTROLLER_MANAGER, '--api-domain=k8s.io', ...common, ...keys, ...signing]];
  return [join(o.binDir, 'kube-controller-manager'), [...common, ...keys, ...signing, `--root-ca-file=${o.files.caFile}`, ...CLIENT_RATE]];
}

/** Whether a Node object's Ready condition is True. */
function nodeReady(node: { status?: { conditions?: { type: string; status: string }[] } }): boolean {
  return node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

/** Starts the controller manager, the scheduler and `nodes` hollow nodes; resolves once every Node is Ready. */
export async function startRealComponents(o: RealComponentsOptions): Promise<RealComponents> {
  mkdirSync(o.dir, { recursive: true });
  const children: ChildProcess[] = [];
  const [cmCommand, cmArgs] = controllerManagerArgs(o);
  const cm = launch(o.dir, 'controller-manager', cmCommand, cmArgs);
  children.push(cm);
  const kc = `--kubeconfig=${o.kubeconfig}`;
  children.push(
    launch(o.dir, 'scheduler', join(o.binDir, 'kube-scheduler'), [
      kc,
      `--authentication-kubeconfig=${o.kubeconfig}`,
      `--authorization-kubeconfig=${o.kubeconfig}`,
      '--leader-elect=false',
      '--secure-port=0',
      ...CLIENT_RATE,
    ]),
  );
  // Ports nothing holds now (a random range could meet an ephemeral port of some connection).
  const ports = await freePorts(2 * o.nodes);
  for (let i = 1; i <= o.nodes; i++) {
    const certDir = join(o.dir, `node-${i}`);
    mkdirSync(certDir, { recursive: true });
    children.push(
      launch(o.dir, `node-${i}`, join(o.binDir, 'kubemark'), [
        '--morph=kubelet',
        `--name=hollow-node-${i}`,
        kc,
        `--cert-dir=${certDir}`,
        `--kubelet-port=${ports[2 * i - 2]}`,
        `--kubelet-read-only-port=${ports[2 * i - 1]}`,
        '--max-pods=110',
        '--use-host-image-service=false',
      ]),
    );
  }
  const stop = () => stopAll(children);
  const api = new ApiClient(loadKubeconfig(o.kubeconfig), 2);
  try {
    const deadline = Date.now() + 300_000;
    for (;;) {
      const dead = children.find((c) => c.exitCode !== null);
      if (dead)
        throw new Error(`density: ${dead.spawnargs.slice(0, 3).join(' ')} exited with ${dead.exitCode}; its last lines:\n${logTail(dead)}`);
      const r = await api.request('GET', '/api/v1/nodes');
      const ready = r.status === 200 ? (JSON.parse(r.body).items as Parameters<typeof nodeReady>[0][]).filter(nodeReady).length : 0;
      if (ready >= o.nodes) break;
      if (Date.now() > deadline) throw new Error(`density: ${ready} of ${o.nodes} hollow nodes Ready after 300 s (logs in ${o.dir})`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  } catch (err) {
    await stop();
    throw err;
  } finally {
    api.close();
  }
  return { controllerManagerPid: cm.pid!, stop };
}
