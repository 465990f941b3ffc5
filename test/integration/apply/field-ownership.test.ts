/**
 * Field ownership over HTTP, one describe per rule of the field-ownership section, on Services
 * (ports keyed by port+protocol, an atomic selector), Pods (containers keyed by name, atomic args) and
 * ConfigMaps (a granular data map).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { createNamespace } from '../../support/namespaces.js';
import type { TestClient } from '../../support/http-client.js';
import { JSON_PATCH, MERGE, STRATEGIC, apply, configMap, owners, patch, path, pod, service } from './helpers.js';

const NS = 'owners';
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

describe('field ownership', () => {
  let s: TestServer;
  let c: TestClient;
  before(async () => {
    s = await startTestServer();
    c = s.client;
    await createNamespace(c, NS);
    // The ServiceAccount admission plugin wants the account the service account controller would create.
    const sa = await c.post(`/api/v1/namespaces/${NS}/serviceaccounts`, { metadata: { name: 'default' } });
    if (sa.status !== 201) throw new Error(sa.text);
  });
  after(async () => {
    await s?.stop();
  });

  const svc = (name: string) => path(NS, 'services', name);
  const web = (name: string, ports: Record<string, unknown>[], extra: Record<string, unknown> = {}) =>
    service(name, { selector: { app: 'web' }, ports, ...extra });

  describe('1. managedFields entries', () => {
    it('record create, update, patch and apply, one entry per manager, operation and apiVersion, in FieldsV1', async () => {
      const created = await c.post(
        `${path(NS, 'configmaps')}?fieldManager=creator`,
        configMap('entries', { a: '1' }, { labels: { app: 'x' } }),
      );
      assert.equal(created.status, 201, created.text);
      const [entry] = created.body.metadata.managedFields;
      assert.match(entry.time, TIME);
      assert.deepEqual(entry, {
        manager: 'creator',
        operation: 'Update',
        apiVersion: 'v1',
        time: entry.time,
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { '.': {}, 'f:a': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
      });
      const url = path(NS, 'configmaps', 'entries');
      const put = await c.request('PUT', `${url}?fieldManager=creator`, { body: { ...created.body, data: { a: '1', b: '2' } } });
      assert.equal(put.status, 200, put.text);
      const patched = await patch(c, `${url}?fieldManager=patcher`, { data: { c: '3' } }, MERGE);
      const applied = await apply(c, url, configMap('entries', { d: '4' }), 'applier');
      assert.equal(applied.status, 200, applied.text);
      assert.equal(patched.status, 200, patched.text);
      assert.deepEqual(owners(applied.body), {
        'applier/Apply': { 'f:data': { 'f:d': {} } },
        'creator/Update': { 'f:data': { '.': {}, 'f:a': {}, 'f:b': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
        'patcher/Update': { 'f:data': { 'f:c': {} } },
      });
      assert.deepEqual(
        applied.body.metadata.managedFields.map((e: any) => e.operation),
        ['Apply', 'Update', 'Update'],
        'Apply entries first',
      );
    });

    it('track the status subresource in entries of their own', async () => {
      const created = await apply(c, svc('status'), web('status', [{ port: 80 }]), 'deployer');
      assert.equal(created.status, 201, created.text);
      const status = { status: { loadBalancer: { ingress: [{ ip: '10.1.2.3' }] } } };
      const r = await patch(c, `${svc('status')}/status?fieldManager=lb-controller`, status, MERGE);
      assert.equal(r.status, 200, r.text);
      const entry = r.body.metadata.managedFields.find((e: any) => e.manager === 'lb-controller');
      assert.deepEqual(
        [entry.operation, entry.subresource, entry.fieldsV1],
        ['Update', 'status', { 'f:status': { 'f:loadBalancer': { 'f:ingress': {} } } }],
      );
      const applied = await apply(
        c,
        `${svc('status')}/status`,
        { apiVersion: 'v1', kind: 'Service', metadata: { name: 'status' }, status: { loadBalancer: { ingress: [{ ip: '10.9.9.9' }] } } },
        'lb-controller',
        '&force=true',
      );
      assert.equal(applied.status, 200, applied.text);
      assert.deepEqual(Object.keys(owners(applied.body)).sort(), ['deployer/Apply', 'lb-controller/Apply/status']);
    });
  });

  describe('2. who a write is recorded for', () => {
    it('apply requires fieldManager and an applied body may not carry managedFields', async () => {
      const none = await patch(c, svc('who'), web('who', [{ port: 80 }]), 'application/apply-patch+yaml');
      assert.equal(none.status, 400);
      assert.equal(none.body.reason, 'BadRequest');
      assert.equal(none.body.message, 'PatchOptions.meta.orch.io "" is invalid: fieldManager: Required value: is required for apply patch');
      const withFields = await apply(
        c,
        svc('who'),
        { ...web('who', [{ port: 80 }]), metadata: { name: 'who', managedFields: [{ manager: 'x' }] } },
        'a',
      );
      assert.equal(withFields.status, 400);
      assert.deepEqual([withFields.body.reason, withFields.body.message], ['BadRequest', 'metadata.managedFields must be nil']);
    });

    it("updates without fieldManager are recorded for the user agent's product name", async () => {
      const r = await c.request('POST', path(NS, 'configmaps'), {
        body: configMap('ua', { a: '1' }),
        headers: { 'User-Agent': 'my-controller/v1.2.3 (linux/amd64) build/abc' },
      });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.metadata.managedFields[0].manager, 'my-controller');
    });
  });

  describe('3. conflicts and shared ownership', () => {
    it("an apply changing another manager's fields fails with 409 naming each field and its manager", async () => {
      await apply(c, svc('conflict'), web('conflict', [{ port: 80, name: 'http' }], { sessionAffinity: 'ClientIP' }), 'alice');
      const r = await apply(
        c,
        svc('conflict'),
        web('conflict', [{ port: 80, name: 'web' }], { sessionAffinity: 'None', selector: { app: 'other' } }),
        'bob',
      );
      assert.equal(r.status, 409);
      assert.deepEqual(r.body, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message:
          'Apply failed with 3 conflicts: conflicts with "alice":\n- .spec.selector\n- .spec.sessionAffinity\n- .spec.ports[port=80,protocol="TCP"].name',
        reason: 'Conflict',
        details: {
          causes: [
            { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.selector' },
            { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.sessionAffinity' },
            { reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.ports[port=80,protocol="TCP"].name' },
          ],
        },
        code: 409,
      });
    });

    it('an update takes the fields it changes silently; force takes them for an applier', async () => {
      await apply(c, svc('move'), web('move', [{ port: 80 }], { sessionAffinity: 'ClientIP' }), 'alice');
      const updated = await patch(c, `${svc('move')}?fieldManager=editor`, { spec: { sessionAffinity: 'None' } }, STRATEGIC);
      assert.equal(updated.status, 200, updated.text);
      assert.deepEqual(owners(updated.body)['editor/Update'], { 'f:spec': { 'f:sessionAffinity': {} } });
      assert.equal((owners(updated.body)['alice/Apply'] as any)['f:spec']['f:sessionAffinity'], undefined);
      const conflict = await apply(c, svc('move'), web('move', [{ port: 80 }], { sessionAffinity: 'ClientIP' }), 'alice');
      assert.equal(conflict.status, 409);
      assert.equal(conflict.body.message, 'Apply failed with 1 conflict: conflict with "editor" using v1: .spec.sessionAffinity');
      const forced = await apply(c, svc('move'), web('move', [{ port: 80 }], { sessionAffinity: 'ClientIP' }), 'alice', '&force=true');
      assert.equal(forced.status, 200, forced.text);
      assert.equal(forced.body.spec.sessionAffinity, 'ClientIP');
      assert.equal(owners(forced.body)['editor/Update'], undefined, 'the editor owned nothing else');
    });

    it('the same value applied by two managers is shared; dropping it leaves it to the other', async () => {
      const cfg = web('shared', [
        { port: 80, name: 'http' },
        { port: 443, name: 'https' },
      ]);
      await apply(c, svc('shared'), cfg, 'alice');
      const shared = await apply(c, svc('shared'), web('shared', [{ port: 443, name: 'https' }]), 'bob');
      assert.equal(shared.status, 200, shared.text);
      const bob = owners(shared.body)['bob/Apply'] as any;
      assert.deepEqual(bob['f:spec']['f:ports'], { 'k:{"port":443,"protocol":"TCP"}': { '.': {}, 'f:name': {}, 'f:port': {} } });
      const dropped = await apply(c, svc('shared'), web('shared', []), 'alice');
      assert.equal(dropped.status, 200, dropped.text);
      assert.deepEqual(
        dropped.body.spec.ports.map((p: any) => p.port),
        [443],
        'port 80 is removed, 443 kept for bob',
      );
    });

    it('a dropped field nobody else owns is removed, and reset to its default when it has one', async () => {
      await apply(c, svc('drop'), web('drop', [{ port: 80 }], { sessionAffinity: 'ClientIP', publishNotReadyAddresses: true }), 'alice');
      const r = await apply(c, svc('drop'), web('drop', [{ port: 80 }]), 'alice');
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.spec.publishNotReadyAddresses, undefined);
      assert.equal(r.body.spec.sessionAffinity, 'None');
    });

    it('a configuration without metadata: the URL does not name it, and pruning the metadata last applied takes the name (400)', async () => {
      const url = path(NS, 'configmaps', 'bare');
      const bare = { apiVersion: 'v1', kind: 'ConfigMap', data: { a: '1' } };
      const nameless = 'the name of the object (bare based on URL) was undeterminable: name must be provided';
      const created = await apply(c, url, configMap('bare', { a: '1' }, { labels: { app: 'x' } }), 'alice');
      assert.equal(created.status, 201, created.text);
      // alice last applied the labels and nobody else owns metadata: dropping it drops all of it, the name too.
      const pruned = await apply(c, url, bare, 'alice');
      assert.equal(pruned.status, 400, pruned.text);
      assert.equal(pruned.body.message, nameless);
      const kept = await c.get(url);
      assert.deepEqual(
        [kept.body.metadata.labels, kept.body.metadata.resourceVersion],
        [{ app: 'x' }, created.body.metadata.resourceVersion],
      );
      // bob applied no metadata before: the live metadata stays.
      const other = await apply(c, url, bare, 'bob');
      assert.equal(other.status, 200, other.text);
      assert.deepEqual([other.body.metadata.name, other.body.metadata.labels], ['bare', { app: 'x' }]);
      // Nor does a create take the URL's name.
      const missing = await apply(c, path(NS, 'configmaps', 'bare-new'), bare, 'alice');
      assert.equal(missing.status, 400, missing.text);
      assert.equal(missing.body.message, nameless.replace('bare', 'bare-new'));
      assert.equal((await c.get(path(NS, 'configmaps', 'bare-new'))).status, 404);
    });
  });

  describe('4. list and map types from the schema', () => {
    it('keyed lists own items by key, atomic lists and maps as a whole, granular maps by key', async () => {
      const r = await apply(
        c,
        path(NS, 'pods', 'types'),
        pod('types', [{ name: 'app', image: 'app:1', args: ['--a', '--b'], ports: [{ containerPort: 8080 }] }], {
          labels: { tier: 'web' },
        }),
        'deployer',
      );
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(owners(r.body)['deployer/Apply'], {
        'f:metadata': { 'f:labels': { 'f:tier': {} } },
        'f:spec': {
          'f:containers': {
            'k:{"name":"app"}': {
              '.': {},
              'f:args': {},
              'f:image': {},
              'f:name': {},
              'f:ports': { 'k:{"containerPort":8080,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
            },
          },
        },
      });
    });

    it('an atomic list changes as a whole: another manager changing one element conflicts on the list', async () => {
      await apply(c, path(NS, 'pods', 'atomic'), pod('atomic', [{ name: 'app', image: 'app:1', args: ['--a', '--b'] }]), 'deployer');
      const r = await apply(c, path(NS, 'pods', 'atomic'), pod('atomic', [{ name: 'app', args: ['--a', '--c'] }]), 'tuner');
      assert.equal(r.status, 409);
      assert.equal(r.body.details.causes[0].field, '.spec.containers[name="app"].args');
      const selector = await apply(c, svc('atomic-map'), web('atomic-map', [{ port: 80 }]), 'deployer');
      assert.deepEqual((owners(selector.body)['deployer/Apply'] as any)['f:spec']['f:selector'], {});
    });

    it('granular maps merge key by key: two appliers own different keys of one map', async () => {
      const url = path(NS, 'configmaps', 'granular');
      await apply(c, url, configMap('granular', { a: '1' }), 'one');
      const r = await apply(c, url, configMap('granular', { b: '2' }), 'two');
      assert.deepEqual(r.body.data, { a: '1', b: '2' });
      assert.deepEqual(owners(r.body)['two/Apply'], { 'f:data': { 'f:b': {} } });
    });
  });

  describe('5. clearing ownership', () => {
    const clear = async (name: string, how: (url: string, obj: any) => Promise<any>) => {
      const url = path(NS, 'configmaps', name);
      const created = await apply(c, url, configMap(name, { a: '1' }, { labels: { app: 'x' } }), 'applier');
      assert.equal(created.status, 201, created.text);
      const r = await how(url, created.body);
      assert.equal(r.status, 200, r.text);
      return r.body;
    };

    it('managedFields [{}] by merge patch, strategic merge patch, JSON patch or update remove every entry', async () => {
      const merge = await clear('clear-merge', (url) => patch(c, url, { metadata: { managedFields: [{}] } }, MERGE));
      const strategic = await clear('clear-strategic', (url) => patch(c, url, { metadata: { managedFields: [{}] } }, STRATEGIC));
      const json = await clear('clear-json', (url) =>
        patch(c, url, [{ op: 'replace', path: '/metadata/managedFields', value: [{}] }], JSON_PATCH),
      );
      const put = await clear('clear-put', (url, obj) => c.put(url, { ...obj, metadata: { ...obj.metadata, managedFields: [{}] } }));
      for (const obj of [merge, strategic, json, put]) {
        assert.equal(obj.metadata.managedFields, undefined);
        assert.deepEqual(obj.metadata.labels, { app: 'x' });
      }
    });

    it('an empty list does not clear them', async () => {
      const obj = await clear('clear-empty', (url) => patch(c, url, { metadata: { managedFields: [] } }, MERGE));
      assert.deepEqual(Object.keys(owners(obj)), ['applier/Apply']);
    });

    it('combined with other changes, the reset comes first and the requester owns what it changed', async () => {
      const obj = await clear('clear-combined', (url) =>
        patch(c, `${url}?fieldManager=janitor`, { metadata: { managedFields: [{}], labels: { team: 'ops' } } }, MERGE),
      );
      assert.deepEqual(owners(obj), { 'janitor/Update': { 'f:metadata': { 'f:labels': { 'f:team': {} } } } });
    });
  });

  describe('6. apply and resourceVersion', () => {
    it('needs no resourceVersion; one that is sent is a precondition', async () => {
      const url = path(NS, 'configmaps', 'rv');
      const created = await apply(c, url, configMap('rv', { a: '1' }), 'a');
      const stale = await apply(c, url, configMap('rv', { a: '2' }, { resourceVersion: '1' }), 'a');
      assert.equal(stale.status, 409);
      assert.equal(
        stale.body.message,
        'Operation cannot be fulfilled on configmaps "rv": the object has been modified; please apply your changes to the latest version and try again',
      );
      const current = await apply(c, url, configMap('rv', { a: '3' }, { resourceVersion: created.body.metadata.resourceVersion }), 'a');
      assert.equal(current.status, 200, current.text);
      assert.equal(current.body.data.a, '3');
    });
  });
});
