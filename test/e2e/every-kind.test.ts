/**
 * End to end (issue 3): kubectl creates a manifest holding one valid object of every served kind,
 * lists them back by their short names, and explains a kind from the published OpenAPI.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/api-server.js';
import { newKubectl } from '../support/kubectl.js';
import { newApiDomain } from '../../apiserver/api/domain.js';
import { newResourceTable } from '../../apiserver/api/resource-table.js';
import { allResources } from '../../apiserver/registry/resources/index.js';
import { manifest } from '../support/every-kind-manifest.js';

describe('kubectl with every served kind', () => {
  let s: TestServer;
  let k: ReturnType<typeof newKubectl>;
  before(async () => {
    s = await startTestServer();
    k = newKubectl(s.kubeconfig);
  });
  after(async () => {
    await s?.stop();
  });

  it('creates one object of every kind from one manifest and lists them back', async () => {
    const objects = manifest('orch.io');
    const [ns, ...rest] = objects;
    await k.ok(['create', '-f', '-'], { input: JSON.stringify(ns) });
    const list = { apiVersion: 'v1', kind: 'List', items: rest };
    const out = await k.ok(['create', '-n', 'every', '-f', '-'], { input: JSON.stringify(list) });
    assert.equal(out.trim().split('\n').length, rest.length, out);
    // Every stored kind is in the manifest, and every object comes back under its kind (the reviews
    // are never stored: test/integration/authentication and test/integration/authorization cover them).
    const table = newResourceTable(
      newApiDomain('orch.io'),
      allResources.filter((d) => !d.ephemeral),
    );
    const kindOf = (o: { apiVersion: string; kind: string }) => `${o.apiVersion.includes('/') ? o.apiVersion.split('/')[0] : ''}/${o.kind}`;
    const declared = new Set(objects.map(kindOf));
    // Kinds that are not stored (Binding acts on pods, ComponentStatus is made on read) have nothing to list.
    const stored = table.all().filter((d) => !d.notStored);
    const missing = stored.filter((d) => !declared.has(`${d.group}/${d.kind}`));
    assert.deepEqual(
      missing.map((d) => d.kind),
      [],
      'a served kind has no object in the manifest',
    );
    for (const namespaced of [true, false]) {
      const defs = stored.filter((d) => d.namespaced === namespaced);
      const resources = defs.map((d) => (d.group ? `${d.plural}.${d.group}` : d.plural)).join(',');
      const got = await k.ok(['get', ...(namespaced ? ['-n', 'every'] : []), resources, '-o', 'name']);
      const lines = new Set(got.trim().split('\n'));
      for (const d of defs) {
        const mine = objects.filter((o) => kindOf(o) === `${d.group}/${d.kind}` && d.version === o.apiVersion.split('/').at(-1));
        for (const o of mine) {
          const name = `${d.kind.toLowerCase()}${d.group ? `.${d.group}` : ''}/${o.metadata.name}`;
          assert.ok(lines.has(name), `${name} not listed back:\n${got}`);
        }
      }
    }
    assert.equal(
      await k.ok(['get', 'clusterrole/every-reader', 'clusterrolebinding/every-reader', '-o', 'name']),
      'clusterrole.rbac.authorization.orch.io/every-reader\nclusterrolebinding.rbac.authorization.orch.io/every-reader\n',
    );
    const all = await k.ok(['get', 'all', '-n', 'every', '-o', 'name']);
    for (const want of [
      'pod/pod',
      'service/svc',
      'deployment.apps/deploy',
      'replicaset.apps/rs',
      'statefulset.apps/sts',
      'daemonset.apps/ds',
      'job.batch/job',
      'cronjob.batch/cron',
      'replicationcontroller/rc',
      'horizontalpodautoscaler.autoscaling/hpa',
    ]) {
      assert.match(all, new RegExp(`^${want.replace('.', '\\.')}$`, 'm'));
    }
  });

  it('explains a kind from the published OpenAPI', async () => {
    const out = await k.ok(['explain', 'service.spec']);
    assert.match(out, /KIND:\s+Service/);
    assert.match(out, /clusterIP\s/);
    assert.match(out, /ports\s/);
    const ports = await k.ok(['explain', 'service.spec.ports']);
    assert.match(ports, /targetPort/);
  });
});
