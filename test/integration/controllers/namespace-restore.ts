/**
 * A namespace restore with the namespace controller and the garbage collector running (and the
 * ServiceAccount and root CA publishers), run once per backend: a namespace holding Deployments
 * with their ReplicaSets and Pods (ownerReferences as the workload controllers write them),
 * Services, ConfigMaps, Secrets and a CRD's objects is deleted by the namespace controller, then
 * restored in one Restore: every object comes back with its uid and ownerReferences, and the garbage
 * collector deletes nothing afterwards. (The workload controllers are not run: a restored Deployment
 * seen before its ReplicaSets is given a new ReplicaSet by its controller — a race the README names.)
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from '../../support/api-server.js';
import type { TestClient } from '../../support/http-client.js';
import { createNamespace } from '../../support/namespaces.js';
import { eventually } from '../../support/eventually.js';
import { createServedCrd, cronTabCrd } from '../../support/crd-fixtures.js';
import { parseOptions } from '../../../controllers/app/options.js';
import { runControllerManager, type RunningControllerManager } from '../../../controllers/app/controller-manager.js';
import { newLogger } from '../../../apiserver/component-base/logs/logger.js';

const NS = 'team-a';
const HISTORY = '/apis/history.orch.io/v1';
const KINDS: [string, string][] = [
  ['deployments', '/apis/apps/v1/namespaces/team-a/deployments'],
  ['replicasets', '/apis/apps/v1/namespaces/team-a/replicasets'],
  ['pods', '/api/v1/namespaces/team-a/pods'],
  ['services', '/api/v1/namespaces/team-a/services'],
  ['configmaps', '/api/v1/namespaces/team-a/configmaps'],
  ['secrets', '/api/v1/namespaces/team-a/secrets'],
  ['crontabs', '/apis/stable.example.com/v1/namespaces/team-a/crontabs'],
];

/** name → uid and ownerReferences of every object of the kinds, by kind. */
async function inventory(c: TestClient): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [kind, path] of KINDS) {
    const r = await c.get(path);
    assert.equal(r.status, 200, r.text);
    for (const o of r.body.items) {
      // Made by the root CA publisher in every namespace, again after the restore: not ours.
      if (o.metadata.name === 'orch-root-ca.crt') continue;
      const owners = (o.metadata.ownerReferences ?? []).map((x: any) => `${x.kind}/${x.name}/${x.uid}`).join(',');
      out.set(`${kind}/${o.metadata.name}`, `${o.metadata.uid} ${owners}`);
    }
  }
  return out;
}

export function runNamespaceRestoreSuite(
  backend: string,
  start: () => Promise<TestServer>,
  sizes = { deployments: 4, replicas: 3, each: 40 },
): void {
  describe(`namespace restore with the controllers running (${backend})`, () => {
    let s: TestServer;
    let manager: RunningControllerManager;
    before(async () => {
      s = await start();
      manager = await runControllerManager(
        parseOptions([
          '--kubeconfig',
          s.kubeconfig,
          '--secure-port=0',
          '--bind-address=127.0.0.1',
          '--leader-elect=false',
          '--controllers=garbage-collector-controller,namespace-controller,serviceaccount-controller,root-ca-certificate-publisher-controller',
        ]),
        { logger: newLogger({ logLevel: 'error' }), namespaceDeletionGracePeriodMs: 0, gcSyncPeriodMs: 1000 },
      );
    });
    after(async () => {
      await manager?.stop();
      await s?.stop();
    });

    it('brings every object back with its uid and ownerReferences; the garbage collector deletes nothing', async () => {
      const c = s.client;
      await createServedCrd(c, cronTabCrd());
      await createNamespace(c, NS);
      for (let d = 0; d < sizes.deployments; d++) {
        const labels = { app: `web${d}` };
        const template = { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
        const r = await c.post(KINDS[0][1], {
          metadata: { name: `web${d}`, labels },
          spec: { replicas: sizes.replicas, selector: { matchLabels: labels }, template },
        });
        assert.equal(r.status, 201, r.text);
        const ref = (o: any) => ({
          apiVersion: o.apiVersion,
          kind: o.kind,
          name: o.metadata.name,
          uid: o.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        });
        const rs = await c.post(KINDS[1][1], {
          metadata: { name: `web${d}-rs`, labels, ownerReferences: [ref(r.body)] },
          spec: { replicas: sizes.replicas, selector: { matchLabels: labels }, template },
        });
        assert.equal(rs.status, 201, rs.text);
        for (let p = 0; p < sizes.replicas; p++) {
          const pod = await c.post(KINDS[2][1], {
            metadata: { name: `web${d}-rs-${p}`, labels, ownerReferences: [ref(rs.body)] },
            spec: template.spec,
          });
          assert.equal(pod.status, 201, pod.text);
        }
        const svc = await c.post(KINDS[3][1], { metadata: { name: `web${d}` }, spec: { selector: labels, ports: [{ port: 80 }] } });
        assert.equal(svc.status, 201, svc.text);
      }
      for (let i = 0; i < sizes.each; i++) {
        assert.equal(
          (await c.post(KINDS[4][1], { metadata: { name: `cm${i}`, labels: { i: String(i) } }, data: { i: String(i) } })).status,
          201,
        );
        assert.equal((await c.post(KINDS[5][1], { metadata: { name: `sec${i}` }, stringData: { i: String(i) } })).status, 201);
        const ct = await c.post(KINDS[6][1], {
          apiVersion: 'stable.example.com/v1',
          kind: 'CronTab',
          metadata: { name: `ct${i}` },
          spec: { cronSpec: '* * * * *' },
        });
        assert.equal(ct.status, 201, ct.text);
      }
      const want = sizes.deployments * (2 + sizes.replicas) + sizes.deployments + 3 * sizes.each;
      let seen = 0;
      let last = '';
      await eventually(
        'every object is listed',
        async () => {
          const inv = await inventory(c);
          seen = inv.size;
          last = [...inv.keys()].filter((k) => !/^(configmaps\/cm|secrets\/sec|crontabs\/ct)/.test(k)).join(' ');
          return seen === want;
        },
        60_000,
      ).catch((err) => {
        throw new Error(`${err.message}: ${seen} of ${want}: ${last}`);
      });
      const before = await inventory(c);

      assert.equal((await c.delete(`/api/v1/namespaces/${NS}`)).status, 200);
      await eventually(
        'the namespace controller deleted the namespace',
        async () => (await c.get(`/api/v1/namespaces/${NS}`)).status === 404,
        60_000,
      );
      const deleted = await c.get(`${HISTORY}/namespaces/${NS}/deletedobjects`);
      assert.ok(deleted.body.items.length >= want, `${deleted.body.items.length} deleted objects listed`);

      const started = Date.now();
      const r = await c.post(`${HISTORY}/restores`, {
        apiVersion: 'history.orch.io/v1',
        kind: 'Restore',
        metadata: { name: 'team-a' },
        spec: { resource: 'namespaces', name: NS },
      });
      const took = Date.now() - started;
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.status.restored[0].kind, 'Namespace');
      const restoredKinds = new Set(r.body.status.restored.map((x: any) => x.resource));
      for (const [kind] of KINDS) assert.ok(restoredKinds.has(kind), `${kind}: ${JSON.stringify(r.body.status.skipped).slice(0, 1500)}`);
      // What controllers made again meanwhile (the default ServiceAccount, kube-root-ca.crt) is skipped.
      for (const x of r.body.status.skipped) assert.equal(x.reason, 'AlreadyExists', JSON.stringify(x));
      process.stdout.write(`# restore of ${r.body.status.restored.length} objects took ${took} ms (${backend})\n`);

      assert.deepEqual(await inventory(c), before, 'every object back, same uid and ownerReferences');
      const restoredAt = Number((await c.get(KINDS[4][1])).body.metadata.resourceVersion);
      // Several garbage collector sync periods (1 s) and controller rounds later, nothing was deleted.
      await new Promise((res) => setTimeout(res, 6000));
      assert.deepEqual(await inventory(c), before, 'nothing deleted after the restore');
      const later = (await c.get(`${HISTORY}/namespaces/${NS}/deletedobjects`)).body.items;
      const since = later.filter((i: any) => Number(i.deletion.resourceVersion) > restoredAt);
      assert.deepEqual(
        since.map((i: any) => i.metadata.name),
        [],
        'no deletion after the restore',
      );
    });
  });
}
