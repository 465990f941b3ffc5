/**
 * End to end: `kubectl get componentstatuses` reports the controller manager where it really listens.
 * kube-apiserver probes https://127.0.0.1:10257/healthz; orch's --controller-manager-port moves that
 * probe, and the all-in-one gives its controller manager a free port and the API server the same one.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/free-ports.js';
import { startProcess, type Proc } from '../support/processes.js';
import { newKubectl } from '../support/kubectl.js';
import { startTestServer, type TestServer } from '../support/api-server.js';
import { eventually } from '../support/eventually.js';
import { seedAllInOneDataDir } from '../support/test-pki.js';

const ALL_IN_ONE = 'dist/scripts/all-in-one.js';
const CONTROLLER_MANAGER = 'dist/controllers/cmd/controller-manager.js';

/** `kubectl get componentstatuses` as NAME → [STATUS, rest of the row]. */
async function componentStatuses(kubectl: ReturnType<typeof newKubectl>): Promise<Map<string, { status: string; row: string }>> {
  const out = await kubectl.ok(['get', 'componentstatuses', '--no-headers']);
  const rows = new Map<string, { status: string; row: string }>();
  for (const line of out.split('\n').filter(Boolean)) {
    const [name, status] = line.split(/\s+/);
    rows.set(name, { status, row: line });
  }
  return rows;
}

describe('ComponentStatus of a test server and its controller manager', () => {
  let server: TestServer;
  let port: number;
  let manager: Proc | undefined;
  let kubectl: ReturnType<typeof newKubectl>;

  before(async () => {
    port = await freePort();
    server = await startTestServer({ args: [`--controller-manager-port=${port}`] });
    kubectl = newKubectl(server.kubeconfig);
  });
  after(async () => {
    await manager?.stop();
    await server?.stop();
  });

  it('no controller manager: Unhealthy, saying what was probed', async () => {
    const cm = (await componentStatuses(kubectl)).get('controller-manager');
    assert.equal(cm?.status, 'Unhealthy', cm?.row);
    assert.ok(
      cm?.row.includes(`Get "https://127.0.0.1:${port}/healthz": dial tcp 127.0.0.1:${port}: connect: connection refused`),
      cm?.row,
    );
    const json = JSON.parse(await kubectl.ok(['get', 'componentstatus', 'controller-manager', '-o', 'json']));
    assert.deepEqual(json.conditions, [
      {
        type: 'Healthy',
        status: 'False',
        error: `Get "https://127.0.0.1:${port}/healthz": dial tcp 127.0.0.1:${port}: connect: connection refused`,
      },
    ]);
  });

  it('a controller manager on that --secure-port: Healthy', async () => {
    manager = startProcess(process.execPath, [
      CONTROLLER_MANAGER,
      '--kubeconfig',
      server.kubeconfig,
      `--secure-port=${port}`,
      '--bind-address=127.0.0.1',
    ]);
    await manager.waitFor(/"msg":"serving securely"/, 30_000);
    const cm = await eventually('controller-manager Healthy', async () => {
      const row = (await componentStatuses(kubectl)).get('controller-manager');
      return row?.status === 'Healthy' ? row : undefined;
    });
    assert.match(cm.row, /^controller-manager\s+Healthy\s+ok\s*$/);
  });
});

describe('ComponentStatus of the all-in-one', () => {
  let dir: string;
  let aio: Proc;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-cs-e2e-'));
    seedAllInOneDataDir(join(dir, 'data'));
    aio = startProcess(process.execPath, [ALL_IN_ONE, '--data-dir', join(dir, 'data'), '--secure-port', String(await freePort())]);
    await aio.waitFor(/orch is ready/, 60_000);
  });
  after(async () => {
    await aio?.stop('SIGINT');
    await rm(dir, { recursive: true, force: true });
  });

  it('reports its controller manager and etcd-0 Healthy', async () => {
    const kubectl = newKubectl(join(dir, 'data', 'admin.kubeconfig'));
    const rows = await eventually('controller-manager Healthy', async () => {
      const r = await componentStatuses(kubectl);
      return r.get('controller-manager')?.status === 'Healthy' ? r : undefined;
    });
    assert.equal(rows.get('etcd-0')?.status, 'Healthy');
  });
});
