/**
 * Issue 28's restore proof, run once per backend: a namespace holding 5,000 objects of ten kinds
 * (scripts/bench/restore-namespace.ts: Deployments with the ReplicaSets and Pods the real workload
 * controllers made, Services, ConfigMaps, Secrets, ServiceAccounts, Roles, RoleBindings, a CRD's
 * objects) is deleted by the namespace controller, then restored in one Restore while the
 * controllers run — namespace, garbage collector, Deployment, ReplicaSet, ServiceAccount and root CA
 * publisher: every object comes back with its uid and ownerReferences, the Deployment and
 * ReplicaSet controllers make nothing new (each owner came back with its dependents in one storage
 * batch), and nothing is deleted afterwards.
 *
 * The two objects the namespace's own controllers make as soon as it exists again (its `default`
 * ServiceAccount and root CA ConfigMap) may be theirs, made again before the restore reached them:
 * those two, and only those, may be reported skipped as AlreadyExists, and are compared by name.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:https';
import type { TestServer } from '../../support/api-server.js';
import type { TestClient } from '../../support/http-client.js';
import { eventually } from '../../support/eventually.js';
import { parseOptions } from '../../../controllers/app/options.js';
import { runControllerManager, type RunningControllerManager } from '../../../controllers/app/controller-manager.js';
import { newLogger } from '../../../apiserver/component-base/logs/logger.js';
import {
  type FixtureClient,
  inventory,
  type NamespaceSizes,
  namespaceRestore,
  objectCount,
  PROOF_SIZES,
  populateNamespace,
} from '../../../scripts/bench/restore-namespace.js';
import { seededCertDirArgs } from '../../support/test-pki.js';

const NS = 'team-a';
const HISTORY = '/apis/history.orch.io/v1';
/** What the namespace's controllers make again once it exists (serviceaccount-controller, the root CA publisher). */
const REMADE = new Set(['serviceaccounts/default', 'configmaps/orch-root-ca.crt']);

export const CONTROLLERS = [
  'garbage-collector-controller',
  'namespace-controller',
  'deployment-controller',
  'replicaset-controller',
  'serviceaccount-controller',
  'root-ca-certificate-publisher-controller',
];

export function fixtureClient(c: TestClient): FixtureClient {
  return {
    send: (method, path, body) => (method === 'GET' ? c.get(path) : method === 'POST' ? c.post(path, body) : c.delete(path, body)),
  };
}

/** The inventory with the objects REMADE reduced to their names. */
function comparable(inv: Map<string, string>): Map<string, string> {
  return new Map([...inv].map(([k, v]) => [k, REMADE.has(k) ? 'remade' : v]));
}

/** The controller manager's work queues from its /metrics: items added so far and items waiting, by queue. */
async function workQueues(port: number): Promise<{ adds: Map<string, number>; depth: number }> {
  const text = await new Promise<string>((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: '/metrics', rejectUnauthorized: false }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve(body));
    })
      .on('error', reject)
      .end();
  });
  const adds = new Map<string, number>();
  let depth = 0;
  for (const m of text.matchAll(/^workqueue_(adds_total|depth)\{name="([^"]+)"\} (\S+)$/gm)) {
    if (m[1] === 'depth') depth += Number(m[3]);
    else adds.set(m[2]!, Number(m[3]));
  }
  return { adds, depth };
}

/** Queues that must have taken up restored objects: Deployments and ReplicaSets come back with their dependents. */
const MUST_SEE_RESTORE = ['deployment', 'replicaset'];
/** Quiet: no queue added to and none holding an item for this long (over two garbage collector sync periods of 1 s). */
const QUIET_MS = 2500;

/**
 * Waits until the Deployment and ReplicaSet controllers have been handed the restored objects
 * (their queues grew since `before`) and then every queue has stayed empty, with nothing added, for
 * QUIET_MS: whatever the controllers would do about the restored objects they have done.
 */
async function controllersQuiet(port: number, before: { adds: Map<string, number> }): Promise<void> {
  let last = await workQueues(port);
  let quietSince = Date.now();
  await eventually(
    'the controllers to take up the restored objects and fall quiet',
    async () => {
      await new Promise((res) => setTimeout(res, 250));
      const now = await workQueues(port);
      const changed = now.depth > 0 || [...now.adds].some(([name, n]) => last.adds.get(name) !== n);
      last = now;
      if (changed) quietSince = Date.now();
      const seen = MUST_SEE_RESTORE.every((name) => (now.adds.get(name) ?? 0) > (before.adds.get(name) ?? 0));
      return seen && !changed && Date.now() - quietSince >= QUIET_MS;
    },
    120_000,
  );
}

export function runNamespaceRestoreSuite(backend: string, start: () => Promise<TestServer>, sizes: NamespaceSizes = PROOF_SIZES): void {
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
          ...seededCertDirArgs(),
          '--bind-address=127.0.0.1',
          '--leader-elect=false',
          `--controllers=${CONTROLLERS.join(',')}`,
        ]),
        { logger: newLogger({ logLevel: 'error' }), namespaceDeletionGracePeriodMs: 0, gcSyncPeriodMs: 1000 },
      );
    });
    after(async () => {
      await manager?.stop();
      await s?.stop();
    });

    it(`brings ${objectCount(sizes)} objects of ten kinds back with their uids and ownerReferences; nothing is deleted or made anew`, async () => {
      const c = s.client;
      const fc = fixtureClient(c);
      await populateNamespace(fc, NS, sizes, 16);
      const before = await inventory(fc, NS);
      assert.equal(before.size, objectCount(sizes));

      assert.equal((await c.delete(`/api/v1/namespaces/${NS}`)).status, 200);
      await eventually(
        'the namespace controller deleted the namespace',
        async () => (await c.get(`/api/v1/namespaces/${NS}`)).status === 404,
        120_000,
      );

      const queuedBefore = await workQueues(manager.port);
      const started = Date.now();
      const r = await c.post(`${HISTORY}/restores`, namespaceRestore(NS));
      const took = Date.now() - started;
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.status.restored[0].kind, 'Namespace');
      const skipped = r.body.status.skipped.map((x: any) => `${x.resource}/${x.name}`);
      for (const x of r.body.status.skipped) assert.equal(x.reason, 'AlreadyExists', JSON.stringify(x));
      for (const k of skipped) assert.ok(REMADE.has(k), `skipped ${k}: ${JSON.stringify(r.body.status.skipped).slice(0, 1500)}`);
      process.stdout.write(`# restore of ${r.body.status.restored.length} objects took ${took} ms (${backend})\n`);

      const want = comparable(before);
      assert.deepEqual(comparable(await inventory(fc, NS)), want, 'every object back, same uid and ownerReferences');
      const restoredAt = Number((await c.get(`/api/v1/namespaces/${NS}/configmaps?limit=1`)).body.metadata.resourceVersion);
      // Once the controllers have worked through the restored objects and fallen quiet, nothing was
      // deleted and the workload controllers made no ReplicaSet or Pod of their own.
      const quietFrom = Date.now();
      await controllersQuiet(manager.port, queuedBefore);
      process.stdout.write(`# the controllers fell quiet ${Date.now() - quietFrom} ms after the restore was checked (${backend})\n`);
      assert.deepEqual(comparable(await inventory(fc, NS)), want, 'nothing deleted or made after the restore');
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
