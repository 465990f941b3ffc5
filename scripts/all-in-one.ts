/**
 * `npm start`: a one-machine orch cluster on the embedded store (or on etcd with --etcd-servers).
 *
 * The first start creates, in the data directory, a CA, a serving certificate, client certificates
 * for the admin (CN admin, O system:masters), the controller manager (CN
 * system:kube-controller-manager) and each controller (its ServiceAccount), a service-account
 * signing key pair (certs/), and the kubeconfigs admin.kubeconfig, controller-manager.kubeconfig and
 * controllers/<controller>.kubeconfig; later starts reuse them.
 * It then runs orch-apiserver (--authorization-mode=Node,RBAC, anonymous requests on: they reach
 * only what system:public-info-viewer allows), prints one line once /readyz answers ok, and keeps
 * orch-controller-manager running (restarted with backoff when it fails) with least privilege: it
 * runs as system:kube-controller-manager and each controller as its own ServiceAccount. SIGINT/SIGTERM stop
 * everything, the controller manager first (so it still gives its Lease back and closes its watches
 * through a live API server), then the API server; if the API server dies, so does this process, with
 * a non-zero code.
 *
 * It says what it does on stdout, each line prefixed `all-in-one: ` (creating the cluster files,
 * starting, waiting for ready, stopping); the children's JSON log lines on stderr carry their
 * `component`. The children run in their own process group: Ctrl+C in a terminal signals the whole
 * foreground group, and the API server must not stop before the controller manager.
 *
 *   node dist/scripts/all-in-one.js [--data-dir DIR] [--secure-port PORT] [orch-apiserver and
 *                                   orch-controller-manager flags, e.g. --etcd-servers URLS]
 *
 * Its command line is read by all-in-one-options.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  allInOneCommand,
  apiserverArgs,
  controllerManagerArgs,
  freeLocalPort,
  parseAllInOne,
  type AllInOneOptions,
} from './all-in-one-options.js';
import { waitReadyz } from './cluster-readyz.js';
import { ensureClusterFiles, writeClientCertKubeconfig, writeControllerManagerKubeconfigs } from './cluster-files.js';
import { newApiDomain } from '../apiserver/api/domain.js';
import { OptionsError } from '../apiserver/component-base/flag/options-error.js';
import { withServerHeapArgs } from '../apiserver/component-base/runtime/server-heap.js';

const APISERVER = fileURLToPath(new URL('../apiserver/cmd/apiserver.js', import.meta.url));
const CONTROLLER_MANAGER = fileURLToPath(new URL('../controllers/cmd/controller-manager.js', import.meta.url));
const STOP_GRACE_MS = 15_000;
const MAX_BACKOFF_MS = 30_000;
/** A controller manager that ran this long before failing restarts without delay growth. */
const STABLE_RUN_MS = 60_000;

/** Children still running, signalled if this process exits without stopping them (a crash). */
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) child.kill('SIGTERM');
});

/** A child in its own process group (detached), so a terminal's Ctrl+C reaches only this process. */
function startNode(script: string, args: string[], nodeArgs: string[] = []): ChildProcess {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], { stdio: ['ignore', 'inherit', 'inherit'], detached: true });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

function say(line: string): void {
  process.stdout.write(`all-in-one: ${line}\n`);
}

function seconds(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(1)}s`;
}

/** Sends SIGTERM, then SIGKILL if the child outlives STOP_GRACE_MS; resolves when it has exited. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

async function main(): Promise<void> {
  let flags: AllInOneOptions;
  try {
    const parsed = parseAllInOne(process.argv.slice(2));
    if (parsed.help) {
      process.stdout.write(allInOneCommand.usage());
      process.exit(0);
    }
    flags = parsed.options;
  } catch (err) {
    if (!(err instanceof OptionsError)) throw err;
    process.stderr.write(`all-in-one: ${err.message}\n`);
    process.exit(2);
  }
  const firstStart = !existsSync(join(flags.dataDir, 'certs', 'ca.crt'));
  const began = Date.now();
  if (firstStart) say(`first start: creating the CA, certificates, keys and kubeconfigs in ${flags.dataDir}…`);
  const files = ensureClusterFiles(flags.dataDir);
  const server = `https://127.0.0.1:${flags.securePort}`;
  const kubeconfigFile = join(flags.dataDir, 'admin.kubeconfig');
  writeClientCertKubeconfig(kubeconfigFile, server, files.caPem, 'admin', files.admin);
  const domainFlag = [...flags.apiserverArgs].reverse().find((a) => a.startsWith('--api-domain='));
  const domain = newApiDomain(domainFlag ? domainFlag.slice('--api-domain='.length) : undefined);
  const manager = writeControllerManagerKubeconfigs(flags.dataDir, server, files, domain);
  const childFiles = {
    ...files,
    controllerManagerKubeconfigFile: manager.kubeconfig,
    controllerKubeconfigDir: manager.controllersDir,
    controllerManagerCertDir: join(flags.dataDir, 'controller-manager'),
  };
  if (firstStart) say(`created the cluster files in ${seconds(began)}`);
  // The controller manager's port, picked now so the API server's ComponentStatus probes where it listens.
  const controllerManagerPort = await freeLocalPort();
  const store = flags.apiserverArgs.some((a) => a.startsWith('--etcd-servers')) ? 'etcd' : `the embedded store in ${flags.dataDir}`;
  say(`starting the API server on ${server} (${store})…`);
  const apiserver = startNode(
    APISERVER,
    [...apiserverArgs(flags, childFiles, controllerManagerPort), ...flags.apiserverArgs],
    withServerHeapArgs([]),
  );

  let stopping = false;
  let controllerManager: ChildProcess | undefined;
  let restartTimer: NodeJS.Timeout | undefined;
  const shutdown = async (code: number): Promise<never> => {
    if (stopping) return new Promise<never>(() => {});
    stopping = true;
    clearTimeout(restartTimer);
    // The controller manager first, so it can still give its Lease back through the API server.
    if (controllerManager && controllerManager.exitCode === null && controllerManager.signalCode === null) {
      say('stopping the controller manager…');
      await stopChild(controllerManager);
    }
    if (apiserver.exitCode === null && apiserver.signalCode === null) {
      say('stopping the API server…');
      await stopChild(apiserver);
    }
    say('stopped');
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  apiserver.on('exit', (code, signal) => {
    if (stopping) return;
    process.stderr.write(`all-in-one: orch-apiserver exited (${signal ?? `code ${code}`})\n`);
    void shutdown(code || 1);
  });

  say('waiting for the API server to be ready (/readyz)…');
  const waiting = setInterval(() => {
    if (!stopping) say(`still waiting for the API server (${seconds(began)})…`);
  }, 10_000);
  try {
    await waitReadyz(`https://127.0.0.1:${flags.securePort}`, files);
  } catch (err) {
    clearInterval(waiting);
    if (stopping) return;
    process.stderr.write(`all-in-one: ${(err as Error).message}\n`);
    await shutdown(1);
  }
  clearInterval(waiting);
  if (stopping) return;
  say(`the API server is ready (${seconds(began)}); starting the controller manager…`);
  // The last --console wins, as the API server reads its flags.
  const consoleFlag = [...flags.apiserverArgs].reverse().find((a) => a === '--console' || a.startsWith('--console='));
  const consoleOn = consoleFlag === undefined || consoleFlag === '--console' || consoleFlag === '--console=true';
  const consoleNote = consoleOn ? ` · console: ${server}/console/ (sign in with a bearer token)` : '';
  process.stdout.write(`orch is ready: kubectl --kubeconfig ${kubeconfigFile} get ns${consoleNote}\n`);

  let backoffMs = 1000;
  const runControllerManager = (): void => {
    const startedAt = Date.now();
    controllerManager = startNode(CONTROLLER_MANAGER, [
      ...controllerManagerArgs(childFiles, controllerManagerPort),
      ...flags.controllerManagerArgs,
    ]);
    controllerManager.on('exit', (code, signal) => {
      if (stopping || code === 0) return;
      if (Date.now() - startedAt >= STABLE_RUN_MS) backoffMs = 1000;
      process.stderr.write(
        `all-in-one: orch-controller-manager exited (${signal ?? `code ${code}`}); restarting in ${backoffMs / 1000}s\n`,
      );
      restartTimer = setTimeout(runControllerManager, backoffMs);
      backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
    });
  };
  runControllerManager();
}

await main();
