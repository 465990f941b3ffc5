/**
 * End to end: `npm run cluster` supervises its processes. An API replica killed with SIGKILL is
 * reported on the terminal (its name, pid and signal) and started again with backoff, and serves
 * again; Ctrl+C (SIGINT to the script's process group) stops everything.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/free-ports.js';
import { newTestClient } from '../support/http-client.js';
import { newKubectl } from '../support/kubectl.js';
import { startProcess, type Proc } from '../support/processes.js';
import { seedClusterFiles } from '../support/test-pki.js';

const CLUSTER = 'dist/scripts/cluster.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('npm run cluster supervises its processes', () => {
  let dir: string;
  let proc: Proc;
  let pids: Map<string, number>;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-cluster-supervisor-'));
    seedClusterFiles(dir);
    const port = await freePort();
    proc = startProcess(process.execPath, [CLUSTER, '--data-dir', dir, '--secure-port', String(port)], {}, { detached: true });
    const [, list] = await proc.waitFor(/^processes: (.+)$/m, 180_000);
    pids = new Map([...list.matchAll(/([\w-]+) \(pid (\d+)\)/g)].map((m) => [m[1], Number(m[2])]));
  });

  after(async () => {
    if (proc && proc.child.exitCode === null) {
      process.kill(-proc.child.pid!, 'SIGINT');
      await proc.exited;
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('lists every process with its pid once the cluster is ready', () => {
    assert.deepEqual(
      [...pids.keys()],
      ['etcd-1', 'etcd-2', 'etcd-3', 'apiserver-1', 'apiserver-2', 'proxy', 'controller-manager-1', 'controller-manager-2'],
    );
    for (const pid of pids.values()) assert.ok(alive(pid));
  });

  it('a replica killed with SIGKILL is reported loudly, restarted with backoff, and serves again', async () => {
    const old = pids.get('apiserver-1')!;
    process.kill(old, 'SIGKILL');
    await proc.waitFor(
      new RegExp(`^cluster: ERROR apiserver-1 \\(pid ${old}\\) was killed by SIGKILL; restarting it in 1s \\(restart 1;`, 'm'),
    );
    const [, back] = await proc.waitFor(/^cluster: apiserver-1 is back \(pid (\d+)\), ready [\d.]+s after the restart$/m, 60_000);
    const pid = Number(back);
    assert.notEqual(pid, old);
    assert.ok(alive(pid));

    // It serves: a write through the front door is read back from the restarted replica itself.
    const topology = JSON.parse(await readFile(join(dir, 'topology.json'), 'utf8'));
    const ca = await readFile(join(dir, 'certs', 'ca.crt'), 'utf8');
    const cert = await readFile(join(dir, 'certs', 'admin.crt'), 'utf8');
    const key = await readFile(join(dir, 'certs', 'admin.key'), 'utf8');
    const replica = newTestClient({ url: `https://127.0.0.1:${topology.apiservers[0]}`, ca, cert, key });
    try {
      assert.equal((await replica.request('GET', '/readyz')).status, 200);
      await newKubectl(join(dir, 'admin.kubeconfig')).ok(['create', 'configmap', 'after-restart', '--from-literal=k=v']);
      const read = await replica.request('GET', '/api/v1/namespaces/default/configmaps/after-restart');
      assert.equal(read.status, 200, read.text);
      assert.equal(read.body.data.k, 'v');
    } finally {
      replica.close();
    }

    // Killed again soon after: the delay doubles.
    process.kill(pid, 'SIGKILL');
    await proc.waitFor(
      new RegExp(`^cluster: ERROR apiserver-1 \\(pid ${pid}\\) was killed by SIGKILL; restarting it in 2s \\(restart 2;`, 'm'),
    );
    await proc.waitFor(/apiserver-1 is back[\s\S]*^cluster: apiserver-1 is back \(pid \d+\)/m, 60_000);
  });

  it('Ctrl+C stops every process and exits 0, restarting none', async () => {
    const before = proc.output().length;
    process.kill(-proc.child.pid!, 'SIGINT');
    assert.equal(await proc.exited, 0, proc.output().slice(before));
    assert.doesNotMatch(proc.output().slice(before), /ERROR/);
    const listed = [...proc.output().matchAll(/\(pid (\d+)\)/g)].map((m) => Number(m[1]));
    for (const pid of listed) assert.ok(!alive(pid), `pid ${pid} still runs`);
  });
});
