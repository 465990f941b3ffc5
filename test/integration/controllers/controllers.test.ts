/**
 * The controllers of orch-controller-manager, run in this process against a real orch-apiserver:
 * service accounts, the root CA publisher, namespace deletion and garbage collection, plus leader
 * election between two managers and their /healthz and /metrics.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { eventually } from '../../support/eventually.js';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { createNamespace } from '../../support/namespaces.js';
import { parseOptions } from '../../../controllers/app/options.js';
import { runControllerManager, type RunningControllerManager } from '../../../controllers/app/controller-manager.js';
import { newLogger } from '../../../apiserver/component-base/logs/logger.js';
import { seededCertDirArgs } from '../../support/test-pki.js';

/** GET over HTTPS without verifying the self-signed certificate. */
function insecureGet(port: number, path: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, rejectUnauthorized: false }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    })
      .on('error', reject)
      .end();
  });
}

describe('controllers against orch-apiserver', () => {
  let srv: TestServer;
  let kubeconfig: string;
  let manager: RunningControllerManager;
  const start = (...flags: string[]) =>
    runControllerManager(
      parseOptions([
        '--kubeconfig',
        kubeconfig,
        '--secure-port=0',
        ...seededCertDirArgs(),
        '--bind-address=127.0.0.1',
        '--leader-elect-lease-duration=2s',
        '--leader-elect-renew-deadline=1s',
        '--leader-elect-retry-period=200ms',
        ...flags,
      ]),
      {
        logger: newLogger({ logLevel: 'error' }),
        namespaceDeletionGracePeriodMs: 0,
        gcSyncPeriodMs: 1000,
      },
    );

  before(async () => {
    srv = await startTestServer();
    kubeconfig = srv.kubeconfig;
    manager = await start();
    await eventually('leadership', async () => manager.isLeader());
  });
  after(async () => {
    await manager?.stop();
    await srv?.stop();
  });

  const api = () => srv.client;
  const newNamespace = (name: string) => createNamespace(api(), name);
  const createCm = async (ns: string, name: string, metadata: Record<string, unknown> = {}) => {
    const r = await api().post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name, ...metadata } });
    assert.equal(r.status, 201, r.text);
    return r.body;
  };
  const ownerRef = (
    owner: { apiVersion?: string; kind?: string; metadata: { name: string; uid: string } },
    extra: Record<string, unknown> = {},
  ) => ({
    apiVersion: owner.apiVersion ?? 'v1',
    kind: owner.kind ?? 'ConfigMap',
    name: owner.metadata.name,
    uid: owner.metadata.uid,
    ...extra,
  });
  const gone = (path: string) => eventually(`${path} to be gone`, async () => (await api().get(path)).status === 404);

  describe('serviceaccount-controller', () => {
    it('gives every namespace a default ServiceAccount, and puts it back when deleted', async () => {
      await newNamespace('sa-test');
      const path = '/api/v1/namespaces/sa-test/serviceaccounts/default';
      const first = await eventually(
        'the default ServiceAccount',
        async () => (await api().get(path)).status === 200 && (await api().get(path)).body,
      );
      assert.equal((await api().delete(path)).status, 200);
      const again = await eventually('a new default ServiceAccount', async () => {
        const r = await api().get(path);
        return r.status === 200 && r.body.metadata.uid !== first.metadata.uid && r.body;
      });
      assert.equal(again.metadata.name, 'default');
    });
  });

  describe('root-ca-certificate-publisher-controller', () => {
    it('publishes orch-root-ca.crt in every namespace and repairs it', async () => {
      await newNamespace('ca-test');
      const path = '/api/v1/namespaces/ca-test/configmaps/orch-root-ca.crt';
      const cm = await eventually('the root CA ConfigMap', async () => {
        const r = await api().get(path);
        return r.status === 200 && r.body;
      });
      assert.deepEqual(cm.data, { 'ca.crt': srv.ca });
      assert.match(cm.metadata.annotations['orch.io/description'], /CA bundle/);
      assert.equal((await api().patch(path, { data: { 'ca.crt': 'tampered' } }, 'application/merge-patch+json')).status, 200);
      await eventually('the CA to be restored', async () => (await api().get(path)).body.data?.['ca.crt'] === srv.ca);
      await api().delete(path);
      await eventually('the ConfigMap to come back', async () => (await api().get(path)).status === 200);
      const system = await eventually(
        'the ConfigMap in the system namespace',
        async () => (await api().get('/api/v1/namespaces/orch-system/configmaps/orch-root-ca.crt')).status === 200,
      );
      assert.ok(system);
    });
  });

  describe('namespace-controller', () => {
    it('empties a deleted namespace of every kind, then finalizes and removes it', async () => {
      await newNamespace('doomed');
      for (let i = 0; i < 5; i++) {
        await createCm('doomed', `cm-${i}`);
        assert.equal((await api().post('/api/v1/namespaces/doomed/secrets', { metadata: { name: `s-${i}` } })).status, 201);
        assert.equal((await api().post('/api/v1/namespaces/doomed/serviceaccounts', { metadata: { name: `sa-${i}` } })).status, 201);
      }
      const lease = await api().post('/apis/coordination.orch.io/v1/namespaces/doomed/leases', {
        metadata: { name: 'l' },
        spec: { holderIdentity: 'x' },
      });
      assert.equal(lease.status, 201, lease.text);
      assert.equal((await api().delete('/api/v1/namespaces/doomed')).status, 200);
      await gone('/api/v1/namespaces/doomed');
      for (const path of [
        '/api/v1/namespaces/doomed/configmaps',
        '/api/v1/namespaces/doomed/secrets',
        '/apis/coordination.orch.io/v1/namespaces/doomed/leases',
      ]) {
        assert.deepEqual((await api().get(path)).body.items, [], path);
      }
    });

    it('reports content held by finalizers in its conditions and waits for it', async () => {
      await newNamespace('held');
      await createCm('held', 'holder', { finalizers: ['example.com/hold'] });
      await api().delete('/api/v1/namespaces/held');
      const ns = await eventually('the remaining-content conditions', async () => {
        const r = await api().get('/api/v1/namespaces/held');
        const conditions = r.body.status?.conditions ?? [];
        return (
          conditions.some((c: { type: string; status: string }) => c.type === 'NamespaceFinalizersRemaining' && c.status === 'True') &&
          r.body
        );
      });
      const byType = Object.fromEntries(ns.status.conditions.map((c: { type: string }) => [c.type, c]));
      assert.equal(ns.status.phase, 'Terminating');
      assert.deepEqual(ns.spec.finalizers, ['orch']);
      assert.deepEqual(
        [byType.NamespaceContentRemaining.reason, byType.NamespaceContentRemaining.message],
        ['SomeResourcesRemain', 'Some resources are remaining: configmaps. has 1 resource instances'],
      );
      assert.deepEqual(
        [byType.NamespaceFinalizersRemaining.reason, byType.NamespaceFinalizersRemaining.message],
        ['SomeFinalizersRemain', 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances'],
      );
      assert.deepEqual(
        [byType.NamespaceDeletionDiscoveryFailure.status, byType.NamespaceDeletionDiscoveryFailure.reason],
        ['False', 'ResourcesDiscovered'],
      );
      assert.deepEqual(
        [byType.NamespaceDeletionContentFailure.status, byType.NamespaceDeletionContentFailure.reason],
        ['False', 'ContentDeleted'],
      );
      await api().patch('/api/v1/namespaces/held/configmaps/holder', { metadata: { finalizers: null } }, 'application/merge-patch+json');
      await gone('/api/v1/namespaces/held');
    });
  });

  describe('garbage-collector-controller', () => {
    before(() => newNamespace('gc'));
    const cm = (name: string) => `/api/v1/namespaces/gc/configmaps/${name}`;

    it('background: deleting the owner deletes its dependents afterwards', async () => {
      const owner = await createCm('gc', 'bg-owner');
      await createCm('gc', 'bg-child', { ownerReferences: [ownerRef(owner)] });
      await createCm('gc', 'bg-grandchild', { ownerReferences: [ownerRef(await (await api().get(cm('bg-child'))).body)] });
      assert.equal((await api().delete(cm('bg-owner'))).status, 200);
      assert.equal((await api().get(cm('bg-owner'))).status, 404, 'the owner goes at once');
      await gone(cm('bg-child'));
      await gone(cm('bg-grandchild'));
    });

    it('foreground: the owner stays, deleting, until its blocking dependents are gone', async () => {
      const owner = await createCm('gc', 'fg-owner');
      const rv = owner.metadata.resourceVersion;
      await createCm('gc', 'fg-child', { ownerReferences: [ownerRef(owner, { blockOwnerDeletion: true })] });
      const w = await api().watch(`/api/v1/namespaces/gc/configmaps?watch=1&resourceVersion=${rv}`);
      const r = await api().delete(cm('fg-owner'), { propagationPolicy: 'Foreground' });
      assert.deepEqual(r.body.metadata.finalizers, ['foregroundDeletion']);
      await gone(cm('fg-owner'));
      const deleted: string[] = [];
      for (const ev of await w.drain(300)) if (ev.type === 'DELETED') deleted.push(ev.object.metadata.name);
      w.close();
      assert.deepEqual(deleted, ['fg-child', 'fg-owner'], 'the dependent went first');
    });

    it('orphan: the owner goes and its dependents stay, without the reference', async () => {
      const owner = await createCm('gc', 'orphan-owner');
      const other = await createCm('gc', 'other-owner');
      await createCm('gc', 'orphan-child', { ownerReferences: [ownerRef(owner), ownerRef(other)] });
      const r = await api().delete(cm('orphan-owner'), { propagationPolicy: 'Orphan' });
      assert.deepEqual(r.body.metadata.finalizers, ['orphan']);
      await gone(cm('orphan-owner'));
      const child = (await api().get(cm('orphan-child'))).body;
      assert.deepEqual(
        child.metadata.ownerReferences.map((o: { name: string }) => o.name),
        ['other-owner'],
      );
    });

    it('deletes a dependent whose owner never existed, or lives in another namespace', async () => {
      await createCm('gc', 'dangling', {
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: '00000000-0000-0000-0000-000000000000' }],
      });
      await gone(cm('dangling'));
      const elsewhere = await createCm('default', 'owner-elsewhere');
      await createCm('gc', 'cross-namespace', { ownerReferences: [ownerRef(elsewhere)] });
      await gone(cm('cross-namespace'));
      assert.equal((await api().get('/api/v1/namespaces/default/configmaps/owner-elsewhere')).status, 200);
    });

    it('a cluster-scoped owner keeps namespaced dependents alive until it is deleted', async () => {
      await newNamespace('gc-owner-ns');
      const owner = (await api().get('/api/v1/namespaces/gc-owner-ns')).body;
      await createCm('gc', 'owned-by-namespace', { ownerReferences: [ownerRef(owner)] });
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal((await api().get(cm('owned-by-namespace'))).status, 200, 'a live cluster-scoped owner is found from any namespace');
      await api().delete('/api/v1/namespaces/gc-owner-ns');
      await gone('/api/v1/namespaces/gc-owner-ns');
      await gone(cm('owned-by-namespace'));
    });
  });

  describe('leader election', () => {
    it('a second manager stands by; it leads once the first stops, and /metrics says who leads', async () => {
      const standby = await start();
      try {
        await new Promise((r) => setTimeout(r, 2500));
        assert.equal(standby.isLeader(), false);
        const lease = (await api().get('/apis/coordination.orch.io/v1/namespaces/orch-system/leases/orch-controller-manager')).body;
        assert.equal(lease.spec.holderIdentity, manager.identity);
        assert.equal(lease.spec.leaseDurationSeconds, 2);
        assert.match(
          (await insecureGet(manager.port, '/metrics')).text,
          /^leader_election_master_status\{name="orch-controller-manager"\} 1$/m,
        );
        assert.match(
          (await insecureGet(standby.port, '/metrics')).text,
          /^leader_election_master_status\{name="orch-controller-manager"\} 0$/m,
        );
        assert.deepEqual(await insecureGet(standby.port, '/healthz'), { status: 200, text: 'ok' });

        await manager.stop();
        await eventually('the standby to lead', async () => standby.isLeader(), 5000);
        const after = (await api().get('/apis/coordination.orch.io/v1/namespaces/orch-system/leases/orch-controller-manager')).body;
        assert.equal(after.spec.holderIdentity, standby.identity);
        assert.equal(after.spec.leaseTransitions, lease.spec.leaseTransitions + 1);
        // The new leader runs the controllers.
        await newNamespace('after-failover');
        await eventually(
          'the default ServiceAccount from the new leader',
          async () => (await api().get('/api/v1/namespaces/after-failover/serviceaccounts/default')).status === 200,
        );
      } finally {
        manager = standby;
      }
    });
  });
});
