/**
 * The node lifecycle controller against a real orch-apiserver, the test acting as kubelets that
 * renew their Leases, one of which then stops (grace period shortened to 1.5 s). Two Nodes stay
 * healthy throughout: with every Node of a cluster down, Kubernetes puts no NoExecute taint on any.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { eventually } from '../../support/eventually.js';
import { parseOptions } from '../../../controllers/app/options.js';
import { runControllerManager, type RunningControllerManager } from '../../../controllers/app/controller-manager.js';
import { newLogger } from '../../../apiserver/component-base/logs/logger.js';
import { seededCertDirArgs } from '../../support/test-pki.js';

const micro = () => new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
const seconds = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('node-lifecycle-controller against orch-apiserver', () => {
  let srv: TestServer;
  let manager: RunningControllerManager;
  before(async () => {
    srv = await startTestServer();
    manager = await runControllerManager(
      parseOptions([
        '--kubeconfig',
        srv.kubeconfig,
        '--secure-port=0',
        ...seededCertDirArgs(),
        '--bind-address=127.0.0.1',
        '--leader-elect=false',
        '--controllers=nodelifecycle',
      ]),
      { logger: newLogger({ logLevel: 'error' }), nodeMonitorGracePeriodMs: 1500, nodeMonitorPeriodMs: 200 },
    );
  });
  after(async () => {
    await manager?.stop();
    await srv?.stop();
  });

  it('keeps a Node whose Lease is renewed; marks it Unknown and unreachable once renewals stop; clears that when it reports again', async (t) => {
    const api = srv.client;
    const leases = '/apis/coordination.orch.io/v1/namespaces/orch-node-lease/leases';
    const postReady = async (name: string) => {
      const n = (await api.get(`/api/v1/nodes/${name}`)).body;
      n.status = {
        ...n.status,
        conditions: [
          { type: 'Ready', status: 'True', reason: 'KubeletReady', lastHeartbeatTime: seconds(), lastTransitionTime: seconds() },
        ],
      };
      const r = await api.put(`/api/v1/nodes/${name}/status`, n);
      assert.equal(r.status, 200, r.text);
    };
    for (const name of ['kubelet-1', 'kubelet-2', 'kubelet-3']) {
      const created = await api.post('/api/v1/nodes', { metadata: { name } });
      assert.equal(created.status, 201, created.text);
      await postReady(name);
      const lease = await api.post(leases, {
        metadata: { name },
        spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime: micro() },
      });
      assert.equal(lease.status, 201, lease.text);
    }
    // Their kubelets renew every 300 ms; a failed renewal shows up as the Node going stale.
    let renewing: Promise<unknown> = Promise.resolve();
    const healthy = setInterval(() => {
      renewing = Promise.all(
        ['kubelet-2', 'kubelet-3'].map((name) =>
          api.patch(`${leases}/${name}`, { spec: { renewTime: micro() } }, 'application/merge-patch+json'),
        ),
      ).catch(() => undefined);
    }, 300);
    t.after(async () => {
      clearInterval(healthy);
      await renewing;
    });
    const leasePath = `${leases}/kubelet-1`;
    for (let i = 0; i < 10; i++) {
      await new Promise((r) => setTimeout(r, 300));
      assert.equal((await api.patch(leasePath, { spec: { renewTime: micro() } }, 'application/merge-patch+json')).status, 200);
    }
    const alive = (await api.get('/api/v1/nodes/kubelet-1')).body;
    assert.equal(
      alive.status.conditions.find((c: any) => c.type === 'Ready').status,
      'True',
      'renewals keep it alive past the grace period',
    );
    assert.equal(alive.spec?.taints, undefined);

    const lost = await eventually('Ready Unknown and the unreachable taints', async () => {
      const n = (await api.get('/api/v1/nodes/kubelet-1')).body;
      return n.spec?.taints?.length === 2 && n;
    });
    const ready = lost.status.conditions.find((c: any) => c.type === 'Ready');
    assert.deepEqual([ready.status, ready.reason], ['Unknown', 'NodeStatusUnknown']);
    assert.deepEqual(lost.spec.taints.map((t: any) => `${t.key}:${t.effect}`).sort(), [
      'node.orch.io/unreachable:NoExecute',
      'node.orch.io/unreachable:NoSchedule',
    ]);

    await postReady('kubelet-1');
    await eventually('the taints removed', async () => !(await api.get('/api/v1/nodes/kubelet-1')).body.spec?.taints?.length);
  });
});
