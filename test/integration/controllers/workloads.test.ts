/**
 * The workload controllers of orch-controller-manager, run in this process against a real
 * orch-apiserver (SQLite store, HTTPS). The test acts as the kubelet: it writes Pod status.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { eventually, setPodReady, setPodsReady } from '../../support/node-agent.js';
import { parseOptions } from '../../../controllers/app/options.js';
import { runControllerManager, type RunningControllerManager } from '../../../controllers/app/controller-manager.js';
import { newLogger } from '../../../apiserver/server/logger.js';

const NS = 'work';

describe('workload controllers against orch-apiserver', () => {
  let srv: TestServer;
  let manager: RunningControllerManager;
  const api = () => srv.client;
  const pods = async (selector: string) =>
    (await api().get(`/api/v1/namespaces/${NS}/pods?labelSelector=${encodeURIComponent(selector)}`)).body.items as any[];

  before(async () => {
    srv = await startTestServer();
    manager = await runControllerManager(
      parseOptions([
        '--kubeconfig',
        srv.kubeconfig,
        '--secure-port=0',
        '--bind-address=127.0.0.1',
        '--leader-elect=false',
        '--controllers=replicaset',
      ]),
      { logger: newLogger({ logLevel: 'error' }) },
    );
    assert.equal((await api().post('/api/v1/namespaces', { metadata: { name: NS } })).status, 201);
  });
  after(async () => {
    await manager?.stop();
    await srv?.stop();
  });

  describe('replicaset-controller', () => {
    const rs = (replicas: number) => ({
      metadata: { name: 'web' },
      spec: {
        replicas,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    });
    const rsPath = `/apis/apps/v1/namespaces/${NS}/replicasets/web`;

    it('creates owned Pods, counts them ready as the kubelet reports, scales down, and records events', async () => {
      const created = await api().post(`/apis/apps/v1/namespaces/${NS}/replicasets`, rs(3));
      assert.equal(created.status, 201, created.text);
      const uid = created.body.metadata.uid;
      const three = await eventually('3 Pods', async () => {
        const p = await pods('app=web');
        return p.length === 3 && p;
      });
      for (const p of three) {
        assert.equal(p.metadata.ownerReferences[0].uid, uid);
        assert.match(p.metadata.name, /^web-[a-z0-9]{5}$/);
      }
      await eventually('status.replicas 3', async () => (await api().get(rsPath)).body.status?.replicas === 3);

      await setPodReady(api(), NS, three[0].metadata.name);
      await setPodReady(api(), NS, three[1].metadata.name);
      const status = await eventually('2 ready', async () => {
        const s = (await api().get(rsPath)).body.status;
        return s?.readyReplicas === 2 && s;
      });
      assert.equal(status.availableReplicas, 2);
      assert.equal(status.fullyLabeledReplicas, 3);
      assert.equal(status.observedGeneration, 1);

      const scaled = await api().patch(rsPath, { spec: { replicas: 2 } }, 'application/merge-patch+json');
      assert.equal(scaled.status, 200, scaled.text);
      const left = await eventually('2 Pods', async () => {
        const p = await pods('app=web');
        return p.length === 2 && p;
      });
      assert.deepEqual(
        left.map((p) => p.metadata.name).sort(),
        [three[0].metadata.name, three[1].metadata.name].sort(),
        'the not-ready Pod went',
      );
      await eventually('status of the scaled ReplicaSet', async () => {
        const s = (await api().get(rsPath)).body.status;
        return s.replicas === 2 && s.observedGeneration === 2;
      });

      const events = await eventually('events for the ReplicaSet', async () => {
        const list = (await api().get(`/apis/events.orch.io/v1/namespaces/${NS}/events`)).body.items as any[];
        const mine = list.filter((e) => e.regarding?.uid === uid);
        return mine.length >= 4 && mine;
      });
      assert.equal(events.filter((e) => e.reason === 'SuccessfulCreate').length, 3);
      assert.equal(events.filter((e) => e.reason === 'SuccessfulDelete').length, 1);
      for (const e of events) {
        assert.equal(e.reportingController, 'replicaset-controller');
        assert.equal(e.regarding.kind, 'ReplicaSet');
        assert.ok(e.reportingInstance);
      }
    });

    it('adopts a matching orphan Pod instead of creating one, and puts back a deleted Pod', async () => {
      const orphan = await api().post(`/api/v1/namespaces/${NS}/pods`, {
        metadata: { name: 'orphan', labels: { app: 'adopt' } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      });
      assert.equal(orphan.status, 201, orphan.text);
      const body = rs(2);
      body.metadata.name = 'adopter';
      body.spec.selector.matchLabels.app = 'adopt';
      body.spec.template.metadata.labels.app = 'adopt';
      const created = await api().post(`/apis/apps/v1/namespaces/${NS}/replicasets`, body);
      const two = await eventually('2 Pods, one adopted', async () => {
        const p = await pods('app=adopt');
        return p.length === 2 && p.every((x) => x.metadata.ownerReferences?.[0]?.uid === created.body.metadata.uid) && p;
      });
      assert.ok(two.some((p) => p.metadata.name === 'orphan'));
      assert.equal((await api().delete(`/api/v1/namespaces/${NS}/pods/orphan`)).status, 200);
      await eventually('a replacement', async () => {
        const p = await pods('app=adopt');
        return p.length === 2 && !p.some((x) => x.metadata.name === 'orphan');
      });
      await setPodsReady(api(), NS, 'app=adopt');
    });
  });
});
