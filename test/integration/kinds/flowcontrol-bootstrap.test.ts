/**
 * API Priority and Fairness' bootstrap objects, as kube-apiserver 1.28 creates them at start (their
 * specs were compared byte for byte with the reference server's under --api-domain=k8s.io): the
 * mandatory and suggested FlowSchemas and PriorityLevelConfigurations exist from the first start,
 * and a restart gives an object annotated autoupdate-spec=true its spec back, leaving others alone.
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { eventually } from '../../support/eventually.js';

const FC = '/apis/flowcontrol.apiserver.orch.io/v1beta3';

describe('flowcontrol bootstrap configuration', () => {
  let s: TestServer | undefined;
  let dir: string | undefined;
  after(async () => {
    await s?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('creates Kubernetes’ FlowSchemas and PriorityLevelConfigurations at start, and restores auto-updated specs on restart', async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-apf-'));
    s = await startTestServer({ dataDir: dir });
    const names = async (plural: string) =>
      ((await s!.client.get(`${FC}/${plural}`)).body.items as { metadata: { name: string } }[]).map((o) => o.metadata.name);
    const schemas = await eventually('the bootstrap FlowSchemas', async () => {
      const n = await names('flowschemas');
      return n.length === 13 && n;
    });
    assert.deepEqual(schemas, [
      'catch-all',
      'endpoint-controller',
      'exempt',
      'global-default',
      'kube-controller-manager',
      'kube-scheduler',
      'kube-system-service-accounts',
      'probes',
      'service-accounts',
      'system-leader-election',
      'system-node-high',
      'system-nodes',
      'workload-leader-election',
    ]);
    assert.deepEqual(await names('prioritylevelconfigurations'), [
      'catch-all',
      'exempt',
      'global-default',
      'leader-election',
      'node-high',
      'system',
      'workload-high',
      'workload-low',
    ]);
    const leader = (await s.client.get(`${FC}/flowschemas/system-leader-election`)).body;
    assert.deepEqual(leader.metadata.annotations, { 'apf.orch.io/autoupdate-spec': 'true' });
    assert.deepEqual(leader.spec, {
      priorityLevelConfiguration: { name: 'leader-election' },
      matchingPrecedence: 100,
      distinguisherMethod: { type: 'ByUser' },
      rules: [
        {
          subjects: [
            { kind: 'User', user: { name: 'system:kube-controller-manager' } },
            { kind: 'User', user: { name: 'system:kube-scheduler' } },
            { kind: 'ServiceAccount', serviceAccount: { namespace: 'orch-system', name: '*' } },
          ],
          resourceRules: [
            { verbs: ['get', 'create', 'update'], apiGroups: ['coordination.orch.io'], resources: ['leases'], namespaces: ['*'] },
          ],
        },
      ],
    });
    const exempt = (await s.client.get(`${FC}/prioritylevelconfigurations/exempt`)).body;
    assert.deepEqual(exempt.spec, { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } });

    const merge = 'application/merge-patch+json';
    const changed = { spec: { matchingPrecedence: 9800 } };
    assert.equal((await s.client.patch(`${FC}/flowschemas/global-default`, changed, merge)).status, 200);
    const kept = { metadata: { annotations: { 'apf.orch.io/autoupdate-spec': 'false' } }, spec: { matchingPrecedence: 8000 } };
    assert.equal((await s.client.patch(`${FC}/flowschemas/service-accounts`, kept, merge)).status, 200);
    await s.stop();
    s = await startTestServer({ dataDir: dir });
    await eventually(
      'global-default restored',
      async () => (await s!.client.get(`${FC}/flowschemas/global-default`)).body.spec?.matchingPrecedence === 9900,
    );
    assert.equal((await s.client.get(`${FC}/flowschemas/service-accounts`)).body.spec.matchingPrecedence, 8000);
  });
});
