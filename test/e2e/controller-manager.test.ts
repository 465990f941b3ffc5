/**
 * End to end: orch-controller-manager as its own process. Through `npm start`'s all-in-one: namespace
 * deletion of 500 objects of mixed kinds (timed), cascading deletion with the real kubectl's
 * --cascade=background|foreground|orphan, and the restart of a killed controller manager. Then two
 * controller managers against one API server: only the leader acts, and killing it hands over to the
 * standby (timed).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/free-ports.js';
import { run, startProcess, type Proc } from '../support/processes.js';
import { newKubectl } from '../support/kubectl.js';
import { startTestServer, type TestServer } from '../support/api-server.js';
import { ApiClient, type ResourceClient } from '../../controllers/client/api-client.js';
import { isApiError } from '../../apiserver/api/status.js';
import type { ApiObject } from '../../apiserver/api/object.js';
import { seedAllInOneDataDir, seededCertDirArgs } from '../support/test-pki.js';

const ALL_IN_ONE = 'dist/scripts/all-in-one.js';
const CONTROLLER_MANAGER = 'dist/controllers/cmd/controller-manager.js';
const ACQUIRED = /"msg":"successfully acquired lease"/g;

async function eventually<T>(what: string, probe: () => Promise<T | undefined | false>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Resolves once GET says 404. */
async function gone(res: ResourceClient, name: string, ms?: number): Promise<void> {
  await eventually(
    `${res.path(name)} to be gone`,
    async () =>
      res.get(name).then(
        () => false,
        (err: unknown) => isApiError(err, 'NotFound'),
      ),
    ms,
  );
}

const core = (client: ApiClient, resource: string, ns = '') => client.resource({ group: '', version: 'v1', resource }, ns);

describe('orch-controller-manager in the all-in-one cluster', () => {
  let dir: string;
  let aio: Proc;
  let client: ApiClient;
  let kubectl: ReturnType<typeof newKubectl>;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-cm-e2e-'));
    const port = await freePort();
    seedAllInOneDataDir(join(dir, 'data'));
    aio = startProcess(process.execPath, [ALL_IN_ONE, '--data-dir', join(dir, 'data'), '--secure-port', String(port)]);
    await aio.waitFor(/orch is ready/, 60_000);
    await aio.waitFor(ACQUIRED, 30_000);
    const kubeconfig = join(dir, 'data', 'admin.kubeconfig');
    client = ApiClient.fromKubeconfig(kubeconfig);
    kubectl = newKubectl(kubeconfig);
  });
  after(async () => {
    client?.close();
    await aio?.stop('SIGINT');
    await rm(dir, { recursive: true, force: true });
  });

  it('deletes a namespace holding 500 objects of mixed kinds', async (t) => {
    const ns = 'five-hundred';
    await core(client, 'namespaces').create({ metadata: { name: ns } });
    const kinds: [ResourceClient, number, (i: number) => ApiObject][] = [
      [core(client, 'configmaps', ns), 150, (i) => ({ metadata: { name: `cm-${i}` }, data: { i: String(i) } })],
      [core(client, 'secrets', ns), 150, (i) => ({ metadata: { name: `secret-${i}` }, stringData: { i: String(i) } })],
      [core(client, 'serviceaccounts', ns), 100, (i) => ({ metadata: { name: `sa-${i}` } })],
      [
        client.resource({ group: 'coordination.orch.io', version: 'v1', resource: 'leases' }, ns),
        50,
        (i) => ({ metadata: { name: `lease-${i}` }, spec: { holderIdentity: `h${i}` } }),
      ],
      [
        core(client, 'events', ns),
        50,
        (i) => ({ metadata: { name: `ev-${i}` }, involvedObject: { kind: 'ConfigMap', namespace: ns, name: `cm-${i}` }, reason: 'Test' }),
      ],
    ];
    const creates = kinds.flatMap(([res, n, make]) => Array.from({ length: n }, (_, i) => () => res.create(make(i))));
    assert.equal(creates.length, 500);
    for (let i = 0; i < creates.length; i += 25) await Promise.all(creates.slice(i, i + 25).map((c) => c()));

    const started = Date.now();
    await core(client, 'namespaces').delete(ns);
    await gone(core(client, 'namespaces'), ns, 120_000);
    const ms = Date.now() - started;
    t.diagnostic(`namespace with 500 objects deleted in ${ms} ms (including the controller's 5 s deletion grace period)`);
    for (const [res] of kinds) assert.deepEqual((await res.list()).items, [], res.path());
  });

  it('kubectl delete --cascade=background|foreground|orphan', async () => {
    const ns = 'cascade';
    await core(client, 'namespaces').create({ metadata: { name: ns } });
    const cms = core(client, 'configmaps', ns);
    const family = async (policy: string) => {
      const owner = await cms.create({ metadata: { name: `${policy}-owner` } });
      const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: owner.metadata.name!, uid: owner.metadata.uid!, blockOwnerDeletion: true };
      await cms.create({ metadata: { name: `${policy}-child`, ownerReferences: [ref] } });
    };
    for (const policy of ['background', 'foreground', 'orphan']) await family(policy);

    await kubectl.ok(['delete', 'cm', 'background-owner', '-n', ns, '--cascade=background']);
    await gone(cms, 'background-child');

    const fg = await kubectl.ok(['delete', 'cm', 'foreground-owner', '-n', ns, '--cascade=foreground']);
    assert.match(fg, /configmap "foreground-owner" deleted/);
    await assert.rejects(
      cms.get('foreground-child'),
      (err: unknown) => isApiError(err, 'NotFound'),
      'kubectl waited for the owner, which waited for its child',
    );

    await kubectl.ok(['delete', 'cm', 'orphan-owner', '-n', ns, '--cascade=orphan']);
    await gone(cms, 'orphan-owner');
    const child = await cms.get('orphan-child');
    assert.equal(child.metadata.ownerReferences, undefined);
  });

  it('all-in-one restarts a controller manager that dies; the new one takes the lease', async () => {
    const ps = await run('ps', ['-o', 'pid=,args=', '--ppid', String(aio.child.pid)]);
    const line = ps.stdout.split('\n').find((l) => l.includes('controller-manager.js'));
    assert.ok(line, ps.stdout);
    const acquiredBefore = aio.output().match(ACQUIRED)?.length ?? 0;
    process.kill(Number(line.trim().split(/\s+/)[0]), 'SIGKILL');
    await aio.waitFor(/all-in-one: orch-controller-manager exited \(SIGKILL\); restarting in 1s/, 10_000);
    await eventually(
      'the restarted controller manager to lead',
      async () => (aio.output().match(ACQUIRED)?.length ?? 0) > acquiredBefore,
      40_000,
    );
    await core(client, 'namespaces').create({ metadata: { name: 'after-restart' } });
    await eventually(
      'its default ServiceAccount',
      () =>
        core(client, 'serviceaccounts', 'after-restart')
          .get('default')
          .then(
            () => true,
            () => false,
          ),
      20_000,
    );
  });
});

describe('two controller managers on one API server', () => {
  let apiserver: TestServer;
  let client: ApiClient;
  let kubeconfig: string;
  const managers: Proc[] = [];

  before(async () => {
    apiserver = await startTestServer({ process: true });
    kubeconfig = apiserver.kubeconfig;
    client = ApiClient.fromKubeconfig(kubeconfig);
  });
  after(async () => {
    client?.close();
    for (const m of managers) await m.stop();
    await apiserver?.stop();
  });

  const startManager = () => {
    const m = startProcess(process.execPath, [
      CONTROLLER_MANAGER,
      '--kubeconfig',
      kubeconfig,
      '--secure-port=0',
      ...seededCertDirArgs(),
      '--bind-address=127.0.0.1',
    ]);
    managers.push(m);
    return m;
  };

  it('only the leader acts; killing it hands over to the standby within the lease duration', async (t) => {
    const leader = startManager();
    await leader.waitFor(ACQUIRED, 30_000);
    const standby = startManager();
    await standby.waitFor(/"msg":"new leader elected"/, 30_000);
    await standby.waitFor(/"msg":"serving securely"/);
    await core(client, 'namespaces').create({ metadata: { name: 'ha-one' } });
    await eventually(
      'the leader to act',
      () =>
        core(client, 'serviceaccounts', 'ha-one')
          .get('default')
          .then(
            () => true,
            () => false,
          ),
      20_000,
    );
    assert.doesNotMatch(standby.output(), /"msg":"started controller"/, 'the standby runs no controller while the leader holds the lease');

    const killedAt = Date.now();
    leader.child.kill('SIGKILL');
    await leader.exited;
    await standby.waitFor(ACQUIRED, 40_000);
    const takeover = Date.now() - killedAt;
    await core(client, 'namespaces').create({ metadata: { name: 'ha-two' } });
    await eventually(
      'the new leader to act',
      () =>
        core(client, 'serviceaccounts', 'ha-two')
          .get('default')
          .then(
            () => true,
            () => false,
          ),
      20_000,
    );
    const acting = Date.now() - killedAt;
    t.diagnostic(
      `leader killed: standby took the lease after ${takeover} ms and acted after ${acting} ms (lease duration 15 s, retry period 2 s)`,
    );
    assert.ok(takeover <= 15_000 + 2 * 2_400 + 1_000, `took over after ${takeover} ms`);
  });
});
