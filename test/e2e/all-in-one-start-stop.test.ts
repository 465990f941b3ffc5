/**
 * End to end: what a person at a terminal sees when `npm start`'s all-in-one starts and is stopped
 * with Ctrl+C. The all-in-one runs in a process group of its own, as a shell's foreground job, and
 * Ctrl+C is SIGINT to that whole group. It says what it is doing, a normal start and stop log no
 * warning or error, every line names its component, and the controller manager stops before the API
 * server (it used to get SIGINT at the same moment as the API server: ~47 warnings, `socket hang up`,
 * `failed to release lease`).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/free-ports.js';
import { startProcess, type Proc } from '../support/processes.js';

const ALL_IN_ONE = 'dist/scripts/all-in-one.js';
const COMPONENTS = ['orch-apiserver', 'orch-controller-manager'];

/** Lines that are not JSON log lines of a component at info or below: what must not appear. */
function problems(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n').filter(Boolean)) {
    if (line.startsWith('all-in-one: ') || line.startsWith('orch is ready: ')) continue;
    let entry: { level?: string; component?: string };
    try {
      entry = JSON.parse(line);
    } catch {
      out.push(`not a log line of a component: ${line}`);
      continue;
    }
    if (!COMPONENTS.includes(String(entry.component))) out.push(`no component: ${line}`);
    if (entry.level === 'warn' || entry.level === 'error') out.push(line);
  }
  return out;
}

/** Ctrl+C in a terminal: SIGINT to the foreground process group. */
function ctrlC(proc: Proc): Promise<number | null> {
  process.kill(-proc.child.pid!, 'SIGINT');
  const kill = setTimeout(() => process.kill(-proc.child.pid!, 'SIGKILL'), 30_000);
  return proc.exited.finally(() => clearTimeout(kill));
}

describe('all-in-one start and Ctrl+C, as in a terminal', () => {
  let dir: string;
  let port: number;
  let aio: Proc;

  const start = async (): Promise<Proc> => {
    const p = startProcess(
      process.execPath,
      [ALL_IN_ONE, '--data-dir', join(dir, 'data'), '--secure-port', String(port)],
      {},
      { detached: true },
    );
    await p.waitFor(/orch is ready: /, 90_000);
    // The controller manager is up and leading; give its controllers a moment of their first syncs.
    await p.waitFor(/"msg":"successfully acquired lease"/, 30_000);
    await p.waitFor(/all resource monitors have synced/, 30_000);
    await new Promise((r) => setTimeout(r, 2000));
    return p;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-aio-start-'));
    port = await freePort();
    aio = await start();
  });

  after(async () => {
    if (aio && aio.child.exitCode === null) await ctrlC(aio);
    await rm(dir, { recursive: true, force: true });
  });

  it('says what it is doing on the first start, in order', () => {
    const out = aio.output();
    const steps = [
      'all-in-one: first start: creating the CA, certificates, keys and kubeconfigs in',
      'all-in-one: created the cluster files in',
      `all-in-one: starting the API server on https://127.0.0.1:${port} (the embedded store in`,
      'all-in-one: waiting for the API server to be ready (/readyz)…',
      'all-in-one: the API server is ready',
      `orch is ready: kubectl --kubeconfig ${join(dir, 'data', 'admin.kubeconfig')} get ns · console: https://127.0.0.1:${port}/console/`,
    ];
    const at = steps.map((s) => out.indexOf(s));
    assert.ok(
      at.every((i, n) => i >= 0 && (n === 0 || i > at[n - 1])),
      `steps ${JSON.stringify(at)}:\n${out}`,
    );
  });

  it('logs no warning at a normal start (no "health check failed"), and every line names its component', () => {
    const out = aio.output();
    assert.deepEqual(problems(out), []);
    for (const c of COMPONENTS) assert.match(out, new RegExp(`"component":"${c}"`));
  });

  it('Ctrl+C stops the controller manager, then the API server, with no warning, and exits 0', async () => {
    const before = aio.output().length;
    assert.equal(await ctrlC(aio), 0, aio.output());
    const out = aio.output().slice(before);
    assert.deepEqual(problems(out), []);
    assert.doesNotMatch(out, /socket hang up|failed to release lease/);
    const manager = out.indexOf('all-in-one: stopping the controller manager…');
    const apiserver = out.indexOf('all-in-one: stopping the API server…');
    const stopped = out.indexOf('all-in-one: stopped');
    assert.ok(manager >= 0 && apiserver > manager && stopped > apiserver, out);
  });

  it('a later start on the same data dir skips creating the cluster files and starts as cleanly', async () => {
    aio = await start();
    const out = aio.output();
    assert.doesNotMatch(out, /first start/);
    assert.deepEqual(problems(out), []);
    assert.equal(await ctrlC(aio), 0, aio.output());
    assert.deepEqual(problems(aio.output()), []);
  });
});
