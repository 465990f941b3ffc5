/**
 * End to end: `npm start`'s all-in-one passes flags it does not own to the binaries that know them
 * (--api-domain to both), and refuses a flag nobody knows before starting anything.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/free-ports.js';
import { run, startProcess, type Proc } from '../support/processes.js';
import { newKubectl } from '../support/kubectl.js';
import { seedAllInOneDataDir } from '../support/test-pki.js';

const ALL_IN_ONE = 'dist/scripts/all-in-one.js';

describe('all-in-one flags', () => {
  let dir: string;
  let aio: Proc;
  let k: ReturnType<typeof newKubectl>;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-aio-flags-'));
    const port = await freePort();
    seedAllInOneDataDir(join(dir, 'data'), 'k8s.io');
    aio = startProcess(process.execPath, [
      ALL_IN_ONE,
      '--data-dir',
      join(dir, 'data'),
      '--secure-port',
      String(port),
      '--api-domain=k8s.io',
      '--controllers=*,-garbagecollector',
    ]);
    await aio.waitFor(/orch is ready/, 60_000);
    k = newKubectl(join(dir, 'data', 'admin.kubeconfig'));
  });

  after(async () => {
    await aio?.stop('SIGINT');
    await rm(dir, { recursive: true, force: true });
  });

  it('--api-domain=k8s.io reaches the API server: Kubernetes group names and system namespaces', async () => {
    const group = JSON.parse(await k.ok(['get', '--raw', '/apis/rbac.authorization.k8s.io']));
    assert.equal(group.kind, 'APIGroup');
    assert.equal(group.name, 'rbac.authorization.k8s.io');
    const missing = await k.run(['get', '--raw', '/apis/rbac.authorization.orch.io']);
    assert.notEqual(missing.code, 0);
    const namespaces = (await k.ok(['get', 'ns', '-o', 'name'])).trim().split('\n').sort();
    assert.deepEqual(namespaces, ['namespace/default', 'namespace/kube-node-lease', 'namespace/kube-public', 'namespace/kube-system']);
  });

  it('--api-domain and --controllers reach the controller manager: it leads on a kube-system Lease and runs', async () => {
    await aio.waitFor(/"msg":"successfully acquired lease"/, 30_000);
    const holder = await k.ok(['get', 'lease', '-n', 'kube-system', 'kube-controller-manager', '-o', 'jsonpath={.spec.holderIdentity}']);
    assert.notEqual(holder, '');
    await k.ok(['create', 'ns', 'flags']);
    const deadline = Date.now() + 30_000;
    while ((await k.run(['get', 'sa', 'default', '-n', 'flags'])).code !== 0) {
      assert.ok(Date.now() < deadline, 'the serviceaccount controller never created default in namespace flags');
      await new Promise((r) => setTimeout(r, 200));
    }
    assert.match(
      aio.output(),
      /"controllers":\["certificatesigningrequest-approving-controller","certificatesigningrequest-cleaner-controller","certificatesigningrequest-signing-controller","clusterrole-aggregation-controller","cronjob-controller","daemonset-controller","deployment-controller","disruption-controller","endpoints-controller","endpointslice-controller","endpointslice-mirroring-controller","job-controller","namespace-controller","node-lifecycle-controller","persistentvolume-binder-controller","persistentvolume-protection-controller","persistentvolumeclaim-protection-controller","pod-garbage-collector-controller","replicaset-controller","replicationcontroller-controller","resourcequota-controller","root-ca-certificate-publisher-controller","serviceaccount-controller","serviceaccount-token-controller","statefulset-controller","ttl-after-finished-controller","ttl-controller"\]/,
    );
  });

  it('exits 2 with one line for a flag neither binary knows, before creating anything', async () => {
    const dataDir = join(dir, 'never');
    const r = await run(process.execPath, [ALL_IN_ONE, '--data-dir', dataDir, '--api-domian=k8s.io']);
    assert.equal(r.code, 2);
    assert.equal(r.stderr, 'all-in-one: unknown flag: --api-domian\n');
    assert.equal(existsSync(dataDir), false);
  });
});
