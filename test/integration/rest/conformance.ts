/**
 * The REST conformance suite: the API's behaviour over real HTTPS against a real store, run once
 * per storage backend (rest-sqlite.test.ts, rest-etcd.test.ts).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request as httpsRequest } from 'node:https';
import type { TestServer } from '../../support/api-server.js';
import type { TestClient } from '../../support/http-client.js';
import { newTestClient } from '../../support/http-client.js';
import { createNamespace } from '../../support/namespaces.js';

const CM = (ns: string, name = '') => `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ''}`;

function cm(name: string, data: Record<string, string> = { a: '1' }, labels?: Record<string, string>) {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(labels ? { labels } : {}) }, data };
}

/** `backend` is 'etcd' or 'sqlite'; `variant` names how the server runs (e.g. '--workers=2'). */
export function runRestConformance(backend: string, start: () => Promise<TestServer>, variant = ''): void {
  describe(`REST conformance (${backend}${variant ? `, ${variant}` : ''})`, () => {
    let s: TestServer;
    let c: TestClient;
    before(async () => {
      s = await start();
      c = s.client;
    });
    after(async () => {
      await s?.stop();
    });

    describe('discovery and version', () => {
      it('serves /api, /api/v1, /apis and /version', async () => {
        const api = await c.get('/api');
        assert.equal(api.status, 200);
        assert.equal(api.body.kind, 'APIVersions');
        assert.deepEqual(api.body.versions, ['v1']);
        const v1 = await c.get('/api/v1');
        assert.equal(v1.body.kind, 'APIResourceList');
        assert.equal(v1.body.groupVersion, 'v1');
        const cms = v1.body.resources.find((r: any) => r.name === 'configmaps');
        assert.deepEqual(cms, {
          name: 'configmaps',
          singularName: 'configmap',
          namespaced: true,
          kind: 'ConfigMap',
          verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
          shortNames: ['cm'],
          storageVersionHash: 'qFsyl6wFWjQ=',
        });
        const nsStatus = v1.body.resources.find((r: any) => r.name === 'namespaces/status');
        assert.deepEqual(nsStatus.verbs, ['get', 'patch', 'update']);
        assert.ok(v1.body.resources.find((r: any) => r.name === 'namespaces/finalize'));
        assert.equal(v1.body.resources.find((r: any) => r.name === 'namespaces').namespaced, false);
        const apis = await c.get('/apis');
        assert.equal(apis.body.kind, 'APIGroupList');
        const version = await c.get('/version');
        assert.equal(version.body.major, '1');
        assert.equal(version.body.minor, '28');
      });

      it('answers 404 Status for unknown paths and resources', async () => {
        for (const path of [
          '/api/v2',
          '/api/v1/widgets',
          '/apis/nope.orch.io/v1',
          '/nothing',
          '/api/v1/namespaces/default/configmaps/a/b/c',
        ]) {
          const r = await c.get(path);
          assert.equal(r.status, 404, path);
          assert.equal(r.body.kind, 'Status');
          assert.equal(r.body.reason, 'NotFound');
        }
      });
    });

    describe('system namespaces', () => {
      it('exist after first start, Active, with the orch finalizer and name label', async () => {
        for (const name of ['default', 'orch-system', 'orch-public', 'orch-node-lease']) {
          const r = await c.get(`/api/v1/namespaces/${name}`);
          assert.equal(r.status, 200, name);
          assert.equal(r.body.status.phase, 'Active');
          assert.deepEqual(r.body.spec.finalizers, ['orch']);
          assert.equal(r.body.metadata.labels['orch.io/metadata.name'], name);
        }
      });

      it('cannot be deleted', async () => {
        const r = await c.delete('/api/v1/namespaces/default');
        assert.equal(r.status, 403);
        assert.equal(r.body.reason, 'Forbidden');
        assert.match(r.body.message, /this namespace may not be deleted/);
        assert.equal((await c.get('/api/v1/namespaces/default')).body.status.phase, 'Active');
      });
    });

    describe('create, get, update, delete', () => {
      before(async () => {
        await createNamespace(c, 'crud');
      });

      it('creates with server-set metadata and reads it back (GET and HEAD)', async () => {
        const r = await c.post(CM('crud'), cm('one'));
        assert.equal(r.status, 201, r.text);
        const m = r.body.metadata;
        assert.match(m.uid, /^[0-9a-f-]{36}$/);
        assert.match(m.creationTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        assert.match(m.resourceVersion, /^\d+$/);
        assert.equal(m.namespace, 'crud');
        assert.equal(m.generation, undefined);
        const g = await c.get(CM('crud', 'one'));
        assert.deepEqual(g.body, r.body);
        const h = await c.request('HEAD', CM('crud', 'one'));
        assert.equal(h.status, 200);
        assert.equal(h.text, '');
      });

      it('answers AlreadyExists (409) for a second create', async () => {
        const r = await c.post(CM('crud'), cm('one'));
        assert.equal(r.status, 409);
        assert.equal(r.body.reason, 'AlreadyExists');
        assert.equal(r.body.message, 'configmaps "one" already exists');
        assert.deepEqual(r.body.details, { name: 'one', kind: 'configmaps' });
      });

      it('answers NotFound (404) with details', async () => {
        const r = await c.get(CM('crud', 'missing'));
        assert.equal(r.status, 404);
        assert.equal(r.body.message, 'configmaps "missing" not found');
        assert.deepEqual(r.body.details, { name: 'missing', kind: 'configmaps' });
      });

      it('updates with a resourceVersion precondition (409 Conflict on a stale one)', async () => {
        const cur = (await c.get(CM('crud', 'one'))).body;
        const u = await c.put(CM('crud', 'one'), { ...cur, data: { a: '2' } });
        assert.equal(u.status, 200, u.text);
        assert.notEqual(u.body.metadata.resourceVersion, cur.metadata.resourceVersion);
        assert.equal(u.body.metadata.uid, cur.metadata.uid);
        assert.equal(u.body.metadata.creationTimestamp, cur.metadata.creationTimestamp);
        const stale = await c.put(CM('crud', 'one'), { ...cur, data: { a: '3' } });
        assert.equal(stale.status, 409);
        assert.equal(stale.body.reason, 'Conflict');
        assert.equal(
          stale.body.message,
          'Operation cannot be fulfilled on configmaps "one": the object has been modified; please apply your changes to the latest version and try again',
        );
        const unconditional = await c.put(CM('crud', 'one'), cm('one', { a: '4' }));
        assert.equal(unconditional.status, 200);
        assert.deepEqual(unconditional.body.data, { a: '4' });
      });

      it('does not write an update that changes nothing', async () => {
        const cur = (await c.get(CM('crud', 'one'))).body;
        const u = await c.put(CM('crud', 'one'), cur);
        assert.equal(u.status, 200);
        assert.equal(u.body.metadata.resourceVersion, cur.metadata.resourceVersion);
      });

      it('rejects a body whose name or namespace differs from the URL (400)', async () => {
        const r1 = await c.put(CM('crud', 'one'), cm('other'));
        assert.equal(r1.status, 400);
        assert.equal(r1.body.message, 'the name of the object (other) does not match the name on the URL (one)');
        const r2 = await c.post(CM('crud'), { ...cm('x'), metadata: { name: 'x', namespace: 'default' } });
        assert.equal(r2.status, 400);
        assert.equal(r2.body.message, 'the namespace of the provided object does not match the namespace sent on the request');
        const r3 = await c.post(CM('crud'), { ...cm('x'), kind: 'Secret' });
        assert.equal(r3.status, 400);
        const r4 = await c.post(CM('crud'), { ...cm('x'), apiVersion: 'apps/v1' });
        assert.equal(r4.status, 400);
      });

      it('refuses PUT to a missing ConfigMap (no create on update) but allows it for Events', async () => {
        const r = await c.put(CM('crud', 'nope'), cm('nope'));
        assert.equal(r.status, 404);
        const ev = {
          apiVersion: 'v1',
          kind: 'Event',
          metadata: { name: 'ev1' },
          involvedObject: { kind: 'ConfigMap', name: 'one', namespace: 'crud' },
          reason: 'Tested',
          message: 'hello',
        };
        const e = await c.put('/api/v1/namespaces/crud/events/ev1', ev);
        assert.equal(e.status, 201, e.text);
      });

      it('generates names from generateName', async () => {
        const r = await c.post(CM('crud'), { metadata: { generateName: 'gen-' }, data: {} });
        assert.equal(r.status, 201, r.text);
        assert.match(r.body.metadata.name, /^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
        assert.equal(r.body.metadata.generateName, 'gen-');
      });

      it('rejects resourceVersion on create (400)', async () => {
        const r = await c.post(CM('crud'), { metadata: { name: 'rv', resourceVersion: '5' } });
        assert.equal(r.status, 400);
        assert.equal(r.body.message, 'resourceVersion should not be set on objects to be created');
      });

      it('deletes, answering a Success Status with the resource as kind (no code, no empty group)', async () => {
        const created = (await c.post(CM('crud'), cm('gone'))).body;
        const r = await c.delete(CM('crud', 'gone'));
        assert.equal(r.status, 200);
        assert.deepEqual(r.body, {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Success',
          details: { name: 'gone', kind: 'configmaps', uid: created.metadata.uid },
        });
        assert.equal((await c.get(CM('crud', 'gone'))).status, 404);
        assert.equal((await c.delete(CM('crud', 'gone'))).status, 404);
      });

      it('a DeleteOptions field of another type is a 400 naming it (a toString member made it a 500); a null one is absent', async () => {
        await c.post(CM('crud'), cm('typed'));
        const cases: [Record<string, unknown>, string][] = [
          [{ kind: { toString: 'x' } }, 'json: cannot unmarshal object into Go struct field DeleteOptions.kind of type string'],
          [{ dryRun: [{ toString: 'x' }] }, 'json: cannot unmarshal object into Go struct field DeleteOptions.dryRun of type string'],
          [
            { gracePeriodSeconds: 1.5 },
            'json: cannot unmarshal number 1.5 into Go struct field DeleteOptions.gracePeriodSeconds of type int64',
          ],
          [
            { preconditions: { uid: ['x'] } },
            'json: cannot unmarshal array into Go struct field Preconditions.preconditions.uid of type types.UID',
          ],
        ];
        for (const [body, message] of cases) {
          const r = await c.delete(CM('crud', 'typed'), body);
          assert.deepEqual([r.status, r.body.message], [400, message]);
        }
        const ok = await c.delete(CM('crud', 'typed'), { kind: null, dryRun: null, preconditions: { uid: null } });
        assert.equal(ok.status, 200, ok.text);
      });

      it('checks DeleteOptions preconditions (409)', async () => {
        const created = (await c.post(CM('crud'), cm('pre'))).body;
        const r = await c.delete(CM('crud', 'pre'), { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'not-the-uid' } });
        assert.equal(r.status, 409);
        assert.match(
          r.body.message,
          /^Operation cannot be fulfilled on ConfigMap "pre": the UID in the precondition \(not-the-uid\) does not match the UID in record \(/,
        );
        assert.deepEqual(r.body.details, { name: 'pre', kind: 'ConfigMap' });
        const r2 = await c.delete(CM('crud', 'pre'), { preconditions: { resourceVersion: '1' } });
        assert.equal(r2.status, 409);
        assert.match(
          r2.body.message,
          /the ResourceVersion in the precondition \(1\) does not match the ResourceVersion in record \(\d+\)\. The object might have been modified$/,
        );
        const ok = await c.delete(CM('crud', 'pre'), {
          preconditions: { uid: created.metadata.uid, resourceVersion: created.metadata.resourceVersion },
        });
        assert.equal(ok.status, 200);
      });

      it('keeps an object with finalizers until the last one is removed', async () => {
        await c.post(CM('crud'), { metadata: { name: 'fin', finalizers: ['example.com/hold'] }, data: {} });
        const d = await c.delete(CM('crud', 'fin'));
        assert.equal(d.status, 200);
        assert.equal(d.body.kind, 'ConfigMap');
        assert.ok(d.body.metadata.deletionTimestamp);
        assert.equal(d.body.metadata.deletionGracePeriodSeconds, 0);
        const again = await c.delete(CM('crud', 'fin'));
        assert.equal(again.status, 200);
        assert.equal(again.body.metadata.resourceVersion, d.body.metadata.resourceVersion);
        const cur = (await c.get(CM('crud', 'fin'))).body;
        const addFinalizer = await c.put(CM('crud', 'fin'), {
          ...cur,
          metadata: { ...cur.metadata, finalizers: ['example.com/hold', 'example.com/more'] },
        });
        assert.equal(addFinalizer.status, 422);
        const u = await c.put(CM('crud', 'fin'), { ...cur, metadata: { ...cur.metadata, finalizers: [] } });
        assert.equal(u.status, 200, u.text);
        assert.equal((await c.get(CM('crud', 'fin'))).status, 404);
      });

      it('honours dryRun=All on every write and rejects other values', async () => {
        const r = await c.post(`${CM('crud')}?dryRun=All`, cm('dry'));
        assert.equal(r.status, 201);
        assert.equal(r.body.metadata.name, 'dry');
        assert.ok(r.body.metadata.uid);
        assert.equal((await c.get(CM('crud', 'dry'))).status, 404);
        const u = await c.put(`${CM('crud', 'one')}?dryRun=All`, cm('one', { dry: 'yes' }));
        assert.equal(u.status, 200);
        assert.deepEqual(u.body.data, { dry: 'yes' });
        assert.deepEqual((await c.get(CM('crud', 'one'))).body.data, { a: '4' });
        const p = await c.patch(`${CM('crud', 'one')}?dryRun=All`, { data: { p: '1' } }, 'application/merge-patch+json');
        assert.equal(p.status, 200);
        assert.equal(p.body.data.p, '1');
        const d = await c.delete(`${CM('crud', 'one')}?dryRun=All`);
        assert.equal(d.status, 200);
        assert.deepEqual((await c.get(CM('crud', 'one'))).body.data, { a: '4' });
        const bad = await c.post(`${CM('crud')}?dryRun=Some`, cm('dry'));
        assert.equal(bad.status, 400);
      });

      it('formats with pretty=true and answers YAML when asked', async () => {
        const r = await c.request('GET', `${CM('crud', 'one')}?pretty=true`);
        assert.match(r.text, /^{\n {2}"kind": "ConfigMap",|^{\n {2}"apiVersion"/);
        const y = await c.request('GET', CM('crud', 'one'), { headers: { Accept: 'application/yaml' } });
        assert.equal(y.headers['content-type'], 'application/yaml');
        assert.match(y.text, /^apiVersion: v1\nkind: ConfigMap\n|kind: ConfigMap/);
      });

      it('deletes a collection by label selector', async () => {
        await createNamespace(c, 'coll');
        for (const [n, team] of [
          ['c1', 'a'],
          ['c2', 'a'],
          ['c3', 'b'],
        ])
          await c.post(CM('coll'), cm(n, {}, { team }));
        const r = await c.request('DELETE', `${CM('coll')}?labelSelector=team%3Da`);
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(r.body.items.map((i: any) => i.metadata.name).sort(), ['c1', 'c2']);
        const left = await c.get(CM('coll'));
        assert.deepEqual(
          left.body.items.map((i: any) => i.metadata.name),
          ['c3'],
        );
      });
    });

    describe('validation', () => {
      it('answers 422 Invalid with one cause per bad field', async () => {
        const r = await c.post(CM('default'), {
          metadata: { name: 'Bad_Name', labels: { 'ok-key': 'x'.repeat(64), 'bad key': 'v' } },
          data: { 'bad/key': 'v' },
        });
        assert.equal(r.status, 422, r.text);
        assert.equal(r.body.reason, 'Invalid');
        assert.equal(r.body.details.kind, 'ConfigMap');
        assert.equal(r.body.details.name, 'Bad_Name');
        const fields = r.body.details.causes.map((x: any) => x.field).sort();
        assert.deepEqual(fields, ['data[bad/key]', 'metadata.labels', 'metadata.labels', 'metadata.name']);
        const nameCause = r.body.details.causes.find((x: any) => x.field === 'metadata.name');
        assert.equal(nameCause.reason, 'FieldValueInvalid');
        assert.match(nameCause.message, /^Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of/);
        assert.match(r.body.message, /^ConfigMap "Bad_Name" is invalid: \[/);
      });

      it('requires a name or generateName', async () => {
        const r = await c.post(CM('default'), { metadata: {} });
        assert.equal(r.status, 422);
        assert.deepEqual(r.body.details.causes, [
          { reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' },
        ]);
      });

      it('keeps a ConfigMap key out of both data and binaryData', async () => {
        const r = await c.post(CM('default'), { metadata: { name: 'dup' }, data: { k: 'v' }, binaryData: { k: 'dg==' } });
        assert.equal(r.status, 422);
        assert.equal(r.body.details.causes[0].field, 'binaryData');
        assert.match(r.body.details.causes[0].message, /duplicate of key present in data/);
      });

      it('enforces immutable ConfigMaps', async () => {
        await c.post(CM('default'), { metadata: { name: 'frozen' }, data: { a: '1' }, immutable: true });
        const cur = (await c.get(CM('default', 'frozen'))).body;
        const r = await c.put(CM('default', 'frozen'), { ...cur, data: { a: '2' } });
        assert.equal(r.status, 422);
        assert.deepEqual(r.body.details.causes, [
          { reason: 'FieldValueForbidden', message: 'Forbidden: field is immutable when `immutable` is set', field: 'data' },
        ]);
        const r2 = await c.put(CM('default', 'frozen'), { ...cur, immutable: false });
        assert.equal(r2.status, 422);
        assert.equal(r2.body.details.causes[0].field, 'immutable');
        const labels = await c.put(CM('default', 'frozen'), { ...cur, metadata: { ...cur.metadata, labels: { may: 'change' } } });
        assert.equal(labels.status, 200);
      });

      it('rejects values of the wrong type (400) and malformed JSON (400)', async () => {
        const r = await c.post(CM('default'), { metadata: { name: 'types' }, data: { a: 1 } });
        assert.equal(r.status, 400);
        assert.match(r.body.message, /ConfigMap in version "v1" cannot be handled as a ConfigMap: data\[a\]: expected string, got integer/);
        const m = await c.request('POST', CM('default'), { raw: '{"metadata": {"name": "x"', contentType: 'application/json' });
        assert.equal(m.status, 400);
        assert.equal(m.body.kind, 'Status');
        const notObject = await c.request('POST', CM('default'), { raw: '[1,2]', contentType: 'application/json' });
        assert.equal(notObject.status, 400);
        const labels = await c.post(CM('default'), { metadata: { name: 'x', labels: ['a'] } });
        assert.equal(labels.status, 400);
      });

      it('rejects bodies nested too deep (400)', async () => {
        const deep = `{"metadata":{"name":"deep"},"data":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`;
        const r = await c.request('POST', CM('default'), { raw: deep, contentType: 'application/json' });
        assert.equal(r.status, 400);
        assert.equal(r.body.kind, 'Status');
      });

      it('drops unknown fields with a warning, or refuses them under fieldValidation=Strict', async () => {
        const body = { metadata: { name: 'unknown', bogus: 1 }, data: {}, extra: true };
        const strict = await c.post(`${CM('default')}?fieldValidation=Strict`, body);
        assert.equal(strict.status, 400);
        assert.equal(strict.body.message, 'strict decoding error: unknown field "metadata.bogus", unknown field "extra"');
        const warn = await c.post(CM('default'), body);
        assert.equal(warn.status, 201);
        assert.equal(warn.body.extra, undefined);
        assert.deepEqual(warn.headers.warning, '299 - "unknown field \\"metadata.bogus\\"", 299 - "unknown field \\"extra\\""');
        const ignore = await c.post(`${CM('default')}?fieldValidation=Ignore`, { ...body, metadata: { name: 'unknown2' } });
        assert.equal(ignore.status, 201);
        assert.equal(ignore.headers.warning, undefined);
        const bad = await c.post(`${CM('default')}?fieldValidation=Loud`, body);
        assert.equal(bad.status, 400);
      });

      it('reports duplicate fields in JSON and YAML bodies (warning, or 400 under Strict)', async () => {
        const json = '{"metadata":{"name":"dupe","name":"dupe"},"data":{"a":"1","a":"2"}}';
        const strict = await c.request('POST', `${CM('default')}?fieldValidation=Strict`, { raw: json, contentType: 'application/json' });
        assert.equal(strict.status, 400);
        assert.equal(strict.body.message, 'strict decoding error: duplicate field "metadata.name", duplicate field "data.a"');
        const warn = await c.request('POST', CM('default'), { raw: json, contentType: 'application/json' });
        assert.equal(warn.status, 201);
        assert.deepEqual(warn.body.data, { a: '2' });
        assert.equal(warn.headers.warning, '299 - "duplicate field \\"metadata.name\\"", 299 - "duplicate field \\"data.a\\""');
        const yaml = await c.request('POST', `${CM('default')}?fieldValidation=Strict`, {
          raw: 'metadata:\n  name: dupe2\ndata:\n  k: v\n  k: w\n',
          contentType: 'application/yaml',
        });
        assert.equal(yaml.status, 400);
        // YAML's are worded by sigs.k8s.io/yaml's strict conversion (yaml.v2), at the line of the value.
        assert.equal(yaml.body.message, 'strict decoding error: yaml: unmarshal errors:\n  line 5: key "k" already set in map');
      });

      it('merges Secret stringData into data and never returns it', async () => {
        const r = await c.post('/api/v1/namespaces/default/secrets', {
          metadata: { name: 's1' },
          stringData: { user: 'admin' },
          data: { pw: 'c2VjcmV0' },
        });
        assert.equal(r.status, 201, r.text);
        assert.equal(r.body.type, 'Opaque');
        assert.deepEqual(r.body.data, { pw: 'c2VjcmV0', user: Buffer.from('admin').toString('base64') });
        assert.equal(r.body.stringData, undefined);
        const g = await c.get('/api/v1/namespaces/default/secrets/s1');
        assert.equal(g.body.stringData, undefined);
        const t = await c.put('/api/v1/namespaces/default/secrets/s1', { ...g.body, type: 'Other' });
        assert.equal(t.status, 422);
        assert.deepEqual(t.body.details.causes, [
          { reason: 'FieldValueInvalid', message: 'Invalid value: "Other": field is immutable', field: 'type' },
        ]);
      });

      it('rejects Secret data that is not base64 (400) and typed secrets missing keys (422)', async () => {
        const r = await c.post('/api/v1/namespaces/default/secrets', { metadata: { name: 's2' }, data: { a: 'not base64!' } });
        assert.equal(r.status, 400);
        const tls = await c.post('/api/v1/namespaces/default/secrets', {
          metadata: { name: 's3' },
          type: 'orch.io/tls',
          data: { 'tls.crt': 'eA==' },
        });
        assert.equal(tls.status, 422);
        assert.deepEqual(tls.body.details.causes, [{ reason: 'FieldValueRequired', message: 'Required value', field: 'data[tls.key]' }]);
        const big = await c.post('/api/v1/namespaces/default/secrets', {
          metadata: { name: 's4' },
          data: { a: Buffer.alloc(1024 * 1024 + 1).toString('base64') },
        });
        assert.equal(big.status, 422);
        assert.equal(big.body.details.causes[0].reason, 'FieldValueTooLong');
      });

      it('validates Namespace names as DNS labels and events against their namespace', async () => {
        const r = await c.post('/api/v1/namespaces', { metadata: { name: 'a.b' } });
        assert.equal(r.status, 422);
        assert.equal(r.body.details.causes[0].field, 'metadata.name');
        const ev = await c.post('/api/v1/namespaces/default/events', {
          metadata: { name: 'e' },
          involvedObject: { kind: 'ConfigMap', name: 'x', namespace: 'other' },
        });
        assert.equal(ev.status, 422);
        assert.deepEqual(ev.body.details.causes, [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "other": does not match event.namespace',
            field: 'involvedObject.namespace',
          },
        ]);
      });
    });

    describe('namespace lifecycle', () => {
      it('refuses content in a missing namespace (404) and a Terminating one (403)', async () => {
        const missing = await c.post(CM('no-such-ns'), cm('x'));
        assert.equal(missing.status, 404);
        assert.equal(missing.body.message, 'namespaces "no-such-ns" not found');
        await createNamespace(c, 'doomed');
        await c.post(CM('doomed'), cm('x'));
        const d = await c.delete('/api/v1/namespaces/doomed');
        assert.equal(d.status, 200);
        assert.equal(d.body.kind, 'Namespace');
        assert.equal(d.body.status.phase, 'Terminating');
        assert.ok(d.body.metadata.deletionTimestamp);
        const again = await c.delete('/api/v1/namespaces/doomed');
        assert.equal(again.status, 409);
        assert.match(again.body.message, /The system is ensuring all content is removed from this namespace/);
        const r = await c.post(CM('doomed'), cm('y'));
        assert.equal(r.status, 403);
        assert.equal(
          r.body.message,
          'configmaps "y" is forbidden: unable to create new content in namespace doomed because it is being terminated',
        );
        assert.equal(r.body.details.causes[0].reason, 'NamespaceTerminating');
        // Updates to existing content still work while terminating.
        const upd = await c.patch(CM('doomed', 'x'), { data: { b: '2' } }, 'application/merge-patch+json');
        assert.equal(upd.status, 200);
      });

      it('goes away once /finalize empties spec.finalizers', async () => {
        await createNamespace(c, 'finalize-me');
        const d = await c.delete('/api/v1/namespaces/finalize-me');
        assert.equal(d.status, 200);
        const spec = await c.put('/api/v1/namespaces/finalize-me', { ...d.body, spec: { finalizers: [] } });
        assert.equal(spec.status, 200);
        assert.deepEqual(spec.body.spec.finalizers, ['orch'], 'the main resource cannot change spec.finalizers');
        const f = await c.put('/api/v1/namespaces/finalize-me/finalize', { ...spec.body, spec: { finalizers: [] } });
        assert.equal(f.status, 200, f.text);
        assert.equal((await c.get('/api/v1/namespaces/finalize-me')).status, 404);
      });

      it("updates status only through /status, which takes the request's labels (Kubernetes' namespace status strategy)", async () => {
        await createNamespace(c, 'stat');
        const cur = (await c.get('/api/v1/namespaces/stat')).body;
        const main = await c.put('/api/v1/namespaces/stat', { ...cur, status: { phase: 'Terminating' } });
        assert.equal(main.body.status.phase, 'Active');
        const st = await c.put('/api/v1/namespaces/stat/status', {
          ...main.body,
          metadata: { ...main.body.metadata, labels: { kept: 'yes' } },
          status: { phase: 'Active', conditions: [{ type: 'Test', status: 'True' }] },
        });
        assert.equal(st.status, 200, st.text);
        assert.equal(st.body.status.conditions[0].type, 'Test');
        // The request's labels, and the name label again (Canonicalize).
        assert.deepEqual(st.body.metadata.labels, { kept: 'yes', 'orch.io/metadata.name': 'stat' });
        const get = await c.get('/api/v1/namespaces/stat/status');
        assert.equal(get.status, 200);
        assert.equal(get.body.status.conditions[0].type, 'Test');
        const sub = await c.request('POST', '/api/v1/namespaces/stat/status', { body: {} });
        assert.equal(sub.status, 405);
      });
    });

    describe('patch', () => {
      before(async () => {
        await c.post(CM('default'), cm('patched', { a: '1', b: '2' }, { app: 'x' }));
      });

      it('applies merge patches (null deletes)', async () => {
        const r = await c.patch(
          CM('default', 'patched'),
          { data: { a: null, c: '3' }, metadata: { labels: { tier: 'web' } } },
          'application/merge-patch+json',
        );
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(r.body.data, { b: '2', c: '3' });
        assert.deepEqual(r.body.metadata.labels, { app: 'x', tier: 'web' });
      });

      it('applies JSON patches; a failed test is 422, a malformed patch 400', async () => {
        const r = await c.patch(
          CM('default', 'patched'),
          [
            { op: 'add', path: '/data/d', value: '4' },
            { op: 'remove', path: '/data/b' },
          ],
          'application/json-patch+json',
        );
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(r.body.data, { c: '3', d: '4' });
        const t = await c.patch(CM('default', 'patched'), [{ op: 'test', path: '/data/c', value: 'nope' }], 'application/json-patch+json');
        assert.equal(t.status, 422);
        const bad = await c.patch(CM('default', 'patched'), { op: 'add' }, 'application/json-patch+json');
        assert.equal(bad.status, 400);
      });

      it('applies strategic merge patches using the schema markers', async () => {
        const sa = await c.post('/api/v1/namespaces/default/serviceaccounts', {
          metadata: { name: 'sa1' },
          secrets: [{ name: 'a' }, { name: 'b' }],
        });
        assert.equal(sa.status, 201, sa.text);
        const r = await c.patch(
          '/api/v1/namespaces/default/serviceaccounts/sa1',
          { secrets: [{ name: 'c' }] },
          'application/strategic-merge-patch+json',
        );
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(
          r.body.secrets.map((s: any) => s.name),
          ['c', 'a', 'b'],
        );
        const del = await c.patch(
          '/api/v1/namespaces/default/serviceaccounts/sa1',
          { secrets: [{ name: 'a', $patch: 'delete' }] },
          'application/strategic-merge-patch+json',
        );
        assert.deepEqual(
          del.body.secrets.map((s: any) => s.name),
          ['c', 'b'],
        );
        const cmPatch = await c.patch(CM('default', 'patched'), { data: { e: '5', c: null } }, 'application/strategic-merge-patch+json');
        assert.deepEqual(cmPatch.body.data, { d: '4', e: '5' });
      });

      it('honours a resourceVersion in the patch as a precondition', async () => {
        const r = await c.patch(
          CM('default', 'patched'),
          { metadata: { resourceVersion: '1' }, data: { z: '1' } },
          'application/merge-patch+json',
        );
        assert.equal(r.status, 409);
      });

      it('answers 404 for a missing object and 415 for unknown patch types', async () => {
        const r = await c.patch(CM('default', 'nope'), { data: {} }, 'application/merge-patch+json');
        assert.equal(r.status, 404);
        const u = await c.patch(CM('default', 'patched'), { data: {} }, 'text/plain');
        assert.equal(u.status, 415);
        assert.equal(u.body.reason, 'UnsupportedMediaType');
      });
    });

    describe('list', () => {
      before(async () => {
        await createNamespace(c, 'lists');
        for (let i = 0; i < 12; i++) {
          const r = await c.post(
            CM('lists'),
            cm(`item-${String(i).padStart(2, '0')}`, {}, { parity: i % 2 ? 'odd' : 'even', n: String(i) }),
          );
          assert.equal(r.status, 201);
        }
      });

      it('lists with a resourceVersion and kind', async () => {
        const r = await c.get(CM('lists'));
        assert.equal(r.body.kind, 'ConfigMapList');
        assert.equal(r.body.apiVersion, 'v1');
        assert.match(r.body.metadata.resourceVersion, /^\d+$/);
        assert.equal(r.body.items.length, 12);
        assert.equal(r.body.items[0].kind, 'ConfigMap');
      });

      it('streams a list of many chunks as one JSON document of the objects as they are now', async () => {
        await createNamespace(c, 'big-lists');
        // About 440 KiB of multi-byte text: several chunks of the streamed answer, even of a list
        // streaming alone (bulk-budget.ts ALONE_CHUNK_BYTES).
        const text = (i: number) => `grüße ${i} 世界 `.repeat(800);
        for (let i = 0; i < 30; i++) {
          const r = await c.post(CM('big-lists'), cm(`big-${String(i).padStart(2, '0')}`, { text: text(i) }));
          assert.equal(r.status, 201, r.text);
        }
        const check = async (query: string) => {
          const r = await c.get(`${CM('big-lists')}${query}`);
          assert.equal(r.status, 200, r.text);
          assert.equal(r.text, `${JSON.stringify(r.body)}\n`, 'one JSON document, encoded as one encoding of the list');
          assert.equal(r.body.items.length, 30);
          assert.ok(Buffer.byteLength(r.text) > 3 * 128 * 1024, `${Buffer.byteLength(r.text)} bytes: fewer than 3 chunks`);
          for (const item of r.body.items) {
            const one = await c.get(CM('big-lists', item.metadata.name));
            assert.deepEqual(item, one.body);
            assert.equal(one.text, `${JSON.stringify(one.body)}\n`, 'a GET answers one JSON document and a newline');
          }
          return r.body.items;
        };
        await check('');
        await check('?resourceVersion=0');
        // A changed object is listed as it is now, not as it was encoded for an earlier list.
        const r = await c.patch(CM('big-lists', 'big-07'), { data: { text: 'changed' } }, 'application/merge-patch+json');
        assert.equal(r.status, 200, r.text);
        const items = await check(`?resourceVersion=${r.body.metadata.resourceVersion}&resourceVersionMatch=NotOlderThan`);
        assert.equal(items.find((i: any) => i.metadata.name === 'big-07').data.text, 'changed');
        assert.equal((await check('')).find((i: any) => i.metadata.name === 'big-08').data.text, text(8));
      });

      it('filters by label selectors', async () => {
        const names = async (sel: string) =>
          (await c.get(`${CM('lists')}?labelSelector=${encodeURIComponent(sel)}`)).body.items.map((i: any) => i.metadata.labels.n);
        assert.deepEqual(await names('parity=odd'), ['1', '3', '5', '7', '9', '11']);
        assert.deepEqual(await names('parity==even,n in (0,2,3)'), ['0', '2']);
        assert.deepEqual(await names('parity!=even,n notin (1,3,5,7,9)'), ['11']);
        assert.deepEqual((await names('n')).length, 12);
        assert.deepEqual(await names('!n'), []);
        const bad = await c.get(`${CM('lists')}?labelSelector=${encodeURIComponent('a in (')}`);
        assert.equal(bad.status, 400);
      });

      it('filters by field selectors and refuses unknown fields', async () => {
        const r = await c.get(`${CM('lists')}?fieldSelector=metadata.name%3Ditem-03`);
        assert.deepEqual(
          r.body.items.map((i: any) => i.metadata.name),
          ['item-03'],
        );
        const all = await c.get(`/api/v1/configmaps?fieldSelector=metadata.namespace%3Dlists,metadata.name!%3Ditem-03`);
        assert.equal(all.body.items.length, 11);
        const bad = await c.get(`${CM('lists')}?fieldSelector=spec.foo%3Dx`);
        assert.equal(bad.status, 400);
        assert.equal(bad.body.message, '"spec.foo" is not a known field selector: only "metadata.name", "metadata.namespace"');
        const ns = await c.get('/api/v1/namespaces?fieldSelector=status.phase%3DActive');
        assert.ok(ns.body.items.length >= 3);
      });

      it('pages with limit and continue, with remainingItemCount', async () => {
        const first = await c.get(`${CM('lists')}?limit=5`);
        assert.equal(first.body.items.length, 5);
        assert.equal(first.body.metadata.remainingItemCount, 7);
        assert.ok(first.body.metadata.continue);
        // A write after the first page is not seen by the continued list (exact snapshot).
        await c.post(CM('lists'), cm('item-99'));
        const second = await c.get(`${CM('lists')}?limit=5&continue=${encodeURIComponent(first.body.metadata.continue)}`);
        assert.equal(second.body.metadata.resourceVersion, first.body.metadata.resourceVersion);
        assert.equal(second.body.metadata.remainingItemCount, 2);
        const third = await c.get(`${CM('lists')}?limit=5&continue=${encodeURIComponent(second.body.metadata.continue)}`);
        assert.equal(third.body.items.length, 2);
        assert.equal(third.body.metadata.continue, undefined);
        assert.equal(third.body.metadata.remainingItemCount, undefined);
        const names = [...first.body.items, ...second.body.items, ...third.body.items].map((i: any) => i.metadata.name);
        assert.deepEqual(
          names,
          Array.from({ length: 12 }, (_, i) => `item-${String(i).padStart(2, '0')}`),
        );
        await c.delete(CM('lists', 'item-99'));
      });

      it('pages with selectors, filling each page', async () => {
        const p1 = await c.get(`${CM('lists')}?limit=4&labelSelector=parity%3Dodd`);
        assert.deepEqual(
          p1.body.items.map((i: any) => i.metadata.labels.n),
          ['1', '3', '5', '7'],
        );
        assert.equal(p1.body.metadata.remainingItemCount, undefined);
        const p2 = await c.get(
          `${CM('lists')}?limit=4&labelSelector=parity%3Dodd&continue=${encodeURIComponent(p1.body.metadata.continue)}`,
        );
        assert.deepEqual(
          p2.body.items.map((i: any) => i.metadata.labels.n),
          ['9', '11'],
        );
      });

      it('reads an exact past revision, and not-older-than', async () => {
        const before = await c.get(CM('lists', 'item-00'));
        const rv = before.body.metadata.resourceVersion;
        await c.patch(CM('lists', 'item-00'), { data: { changed: 'yes' } }, 'application/merge-patch+json');
        const exact = await c.get(`${CM('lists')}?resourceVersion=${rv}&resourceVersionMatch=Exact&fieldSelector=metadata.name%3Ditem-00`);
        assert.equal(exact.status, 200, exact.text);
        assert.equal(exact.body.metadata.resourceVersion, rv);
        assert.deepEqual(exact.body.items[0].data, {});
        const newer = await c.get(
          `${CM('lists')}?resourceVersion=${rv}&resourceVersionMatch=NotOlderThan&fieldSelector=metadata.name%3Ditem-00`,
        );
        assert.deepEqual(newer.body.items[0].data, { changed: 'yes' });
        const plain = await c.get(`${CM('lists')}?resourceVersion=${rv}&fieldSelector=metadata.name%3Ditem-00`);
        assert.deepEqual(plain.body.items[0].data, { changed: 'yes' });
        const any = await c.get(`${CM('lists')}?resourceVersion=0`);
        assert.equal(any.status, 200);
      });

      it('answers 400 for the invalid cells of the resourceVersion table', async () => {
        const cont = (await c.get(`${CM('lists')}?limit=1`)).body.metadata.continue;
        const cases = [
          'resourceVersionMatch=Exact',
          'resourceVersionMatch=NotOlderThan',
          'resourceVersion=0&resourceVersionMatch=Exact',
          'resourceVersion=1&resourceVersionMatch=Sometimes',
          `resourceVersion=1&continue=${encodeURIComponent(cont)}`,
          `resourceVersion=1&resourceVersionMatch=Exact&continue=${encodeURIComponent(cont)}`,
          'resourceVersion=abc',
          'continue=garbage',
          'limit=-1',
        ];
        for (const q of cases) {
          const r = await c.get(`${CM('lists')}?${q}`);
          assert.equal(r.status, 400, `${q}: ${r.text}`);
          assert.equal(r.body.kind, 'Status');
        }
        // A watch's resourceVersionMatch is Kubernetes' ListOptions validation: 422 (watch-list.test.ts has the rest).
        const w = await c.get(`${CM('lists')}?watch=1&resourceVersion=1&resourceVersionMatch=NotOlderThan`);
        assert.equal(w.status, 422, w.text);
        assert.equal(w.body.reason, 'Invalid');
        assert.match(
          w.body.message,
          /resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided$/,
        );
      });

      it('waits briefly for a too-new resourceVersion, then answers 504', async () => {
        const rv = Number((await c.get(CM('lists'))).body.metadata.resourceVersion) + 1000;
        const started = Date.now();
        const r = await c.get(`${CM('lists')}?resourceVersion=${rv}`);
        assert.equal(r.status, 504);
        assert.equal(r.body.reason, 'Timeout');
        assert.match(r.body.message, new RegExp(`^Too large resource version: ${rv}, current: \\d+$`));
        assert.equal(r.body.details.causes[0].reason, 'ResourceVersionTooLarge');
        assert.equal(r.headers['retry-after'], '1');
        assert.ok(Date.now() - started >= 2500);
      });
    });

    describe('watch', () => {
      before(async () => {
        await createNamespace(c, 'watched');
        await c.post(CM('watched'), cm('w1', {}, { app: 'a' }));
      });

      it('starts with the current state (rv unset) and then follows changes', async () => {
        const w = await c.watch(`${CM('watched')}?watch=true`);
        assert.equal(w.status, 200);
        const first = await w.next();
        assert.equal(first.type, 'ADDED');
        assert.equal(first.object.metadata.name, 'w1');
        const created = await c.post(CM('watched'), cm('w2'));
        const added = await w.next();
        assert.equal(added.type, 'ADDED');
        assert.equal(added.object.metadata.resourceVersion, created.body.metadata.resourceVersion);
        const patched = await c.patch(CM('watched', 'w2'), { data: { x: '1' } }, 'application/merge-patch+json');
        const mod = await w.next();
        assert.equal(mod.type, 'MODIFIED');
        assert.equal(mod.object.metadata.resourceVersion, patched.body.metadata.resourceVersion);
        await c.delete(CM('watched', 'w2'));
        const del = await w.next();
        assert.equal(del.type, 'DELETED');
        assert.equal(del.object.metadata.name, 'w2');
        assert.deepEqual(del.object.data, { a: '1', x: '1' });
        assert.ok(Number(del.object.metadata.resourceVersion) > Number(patched.body.metadata.resourceVersion));
        w.close();
      });

      it('resumes strictly after a resourceVersion, with no gaps', async () => {
        const start = (await c.get(CM('watched'))).body.metadata.resourceVersion;
        const rvs: string[] = [];
        for (let i = 0; i < 5; i++) rvs.push((await c.post(CM('watched'), cm(`r${i}`))).body.metadata.resourceVersion);
        const w = await c.watch(`${CM('watched')}?watch=1&resourceVersion=${start}`);
        const got: string[] = [];
        for (let i = 0; i < 5; i++) {
          const ev = await w.next();
          assert.equal(ev.type, 'ADDED');
          got.push(ev.object.metadata.resourceVersion);
        }
        assert.deepEqual(got, rvs);
        assert.deepEqual(await w.drain(), []);
        w.close();
      });

      it('filters by selector: leaving the selection is DELETED, entering is ADDED', async () => {
        const w = await c.watch(`${CM('watched')}?watch=1&labelSelector=app%3Da`);
        assert.equal((await w.next()).object.metadata.name, 'w1');
        await c.post(CM('watched'), cm('other'));
        await c.patch(CM('watched', 'w1'), { metadata: { labels: { app: 'b' } } }, 'application/merge-patch+json');
        const left = await w.next();
        assert.equal(left.type, 'DELETED');
        assert.equal(left.object.metadata.name, 'w1');
        await c.patch(CM('watched', 'other'), { metadata: { labels: { app: 'a' } } }, 'application/merge-patch+json');
        const entered = await w.next();
        assert.equal(entered.type, 'ADDED');
        assert.equal(entered.object.metadata.name, 'other');
        w.close();
      });

      it('watches one object by name (query and legacy /watch path)', async () => {
        const rv = (await c.get(CM('watched'))).body.metadata.resourceVersion;
        const w1 = await c.watch(`${CM('watched')}?watch=1&fieldSelector=metadata.name%3Dr1&resourceVersion=${rv}`);
        const w2 = await c.watch(`/api/v1/watch/namespaces/watched/configmaps/r1?resourceVersion=${rv}`);
        await c.patch(CM('watched', 'r2'), { data: { y: '1' } }, 'application/merge-patch+json');
        await c.patch(CM('watched', 'r1'), { data: { y: '1' } }, 'application/merge-patch+json');
        for (const w of [w1, w2]) {
          const ev = await w.next();
          assert.equal(ev.type, 'MODIFIED');
          assert.equal(ev.object.metadata.name, 'r1');
          w.close();
        }
      });

      it('ends after timeoutSeconds', async () => {
        const w = await c.watch(`${CM('watched')}?watch=1&timeoutSeconds=1&resourceVersion=0`);
        const started = Date.now();
        await w.ended;
        assert.ok(Date.now() - started < 3000);
      });

      it('a HEAD watch answers its headers and ends: the connection serves the next request (it stalled behind the stream)', async () => {
        const agent = new Agent({ ca: s.ca, keepAlive: true, maxSockets: 1 });
        const send = (method: string, path: string) =>
          new Promise<{ status: number; ms: number }>((resolve, reject) => {
            const started = Date.now();
            const url = new URL(s.url);
            const r = httpsRequest(
              { host: url.hostname, port: url.port, method, path, agent, headers: { Authorization: `Bearer ${s.token}` } },
              (res) => {
                res.resume();
                res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: Date.now() - started }));
              },
            );
            r.setTimeout(5000, () => r.destroy(new Error(`${method} ${path}: no answer within 5 s`)));
            r.on('error', reject);
            r.end();
          });
        try {
          const head = await send('HEAD', `${CM('watched')}?watch=1`);
          assert.equal(head.status, 200);
          const next = await send('GET', CM('watched'));
          assert.equal(next.status, 200);
        } finally {
          agent.destroy();
        }
      });

      it('timeoutSeconds=0 is the default timeout, and one beyond what a timer holds (2^31 ms) is no immediate end', async () => {
        const watches = await Promise.all(
          ['0', '2147484', '9007199254740993'].map((t) => c.watch(`${CM('watched')}?watch=1&timeoutSeconds=${t}&resourceVersion=0`)),
        );
        const ended = await Promise.race([
          Promise.any(watches.map((w, i) => w.ended.then(() => i))),
          new Promise((r) => setTimeout(() => r('none'), 1000)),
        ]);
        assert.equal(ended, 'none');
        for (const w of watches) w.close();
      });

      it('watches all namespaces', async () => {
        const rv = (await c.get('/api/v1/configmaps')).body.metadata.resourceVersion;
        const w = await c.watch(`/api/v1/configmaps?watch=1&resourceVersion=${rv}`);
        await c.post(CM('default'), cm('everywhere'));
        const ev = await w.next();
        assert.equal(ev.object.metadata.namespace, 'default');
        w.close();
      });
    });

    describe('Table and metadata views', () => {
      const TABLE = 'application/json;as=Table;v=v1;g=meta.orch.io';
      before(async () => {
        await createNamespace(c, 'tables');
        await c.post(CM('tables'), cm('t1', { a: '1', b: '2' }));
        await c.post(CM('tables'), cm('t2', {}));
      });

      it("answers a list as a Table with the kind's columns and metadata rows", async () => {
        const r = await c.request('GET', CM('tables'), { headers: { Accept: `${TABLE},application/json` } });
        assert.equal(r.status, 200, r.text);
        assert.equal(r.body.kind, 'Table');
        assert.equal(r.body.apiVersion, 'meta.orch.io/v1');
        assert.match(r.body.metadata.resourceVersion, /^\d+$/);
        assert.deepEqual(
          r.body.columnDefinitions.map((d: any) => [d.name, d.type, d.format]),
          [
            ['Name', 'string', 'name'],
            ['Data', 'string', ''], // Kubernetes' printer declares the count a string column
            ['Age', 'string', ''],
          ],
        );
        assert.deepEqual(
          r.body.rows.map((row: any) => row.cells.slice(0, 2)),
          [
            ['t1', 2],
            ['t2', 0],
          ],
        );
        assert.match(r.body.rows[0].cells[2], /^\d+s$/);
        assert.equal(r.body.rows[0].object.kind, 'PartialObjectMetadata');
        assert.equal(r.body.rows[0].object.apiVersion, 'meta.orch.io/v1');
        assert.equal(r.body.rows[0].object.metadata.name, 't1');
        assert.equal(r.body.rows[0].object.data, undefined);
      });

      it('honours includeObject and serves one object as a one-row Table', async () => {
        const full = await c.request('GET', `${CM('tables', 't1')}?includeObject=Object`, { headers: { Accept: TABLE } });
        assert.equal(full.body.rows.length, 1);
        assert.deepEqual(full.body.rows[0].object.data, { a: '1', b: '2' });
        const none = await c.request('GET', `${CM('tables')}?includeObject=None`, { headers: { Accept: TABLE } });
        assert.equal(none.body.rows[0].object, undefined);
        const bad = await c.request('GET', `${CM('tables')}?includeObject=All`, { headers: { Accept: TABLE } });
        assert.equal(bad.status, 400);
      });

      it('prints namespaces, secrets and events with their own columns', async () => {
        const ns = await c.request('GET', '/api/v1/namespaces/tables', { headers: { Accept: TABLE } });
        assert.deepEqual(
          ns.body.columnDefinitions.map((d: any) => d.name),
          ['Name', 'Status', 'Age'],
        );
        assert.equal(ns.body.rows[0].cells[1], 'Active');
        await c.post('/api/v1/namespaces/tables/events', {
          metadata: { name: 'e1' },
          involvedObject: { kind: 'ConfigMap', name: 't1', namespace: 'tables' },
          type: 'Normal',
          reason: 'Checked',
          message: ' all good ',
          count: 3,
        });
        const ev = await c.request('GET', '/api/v1/namespaces/tables/events', { headers: { Accept: TABLE } });
        assert.deepEqual(
          ev.body.columnDefinitions.map((d: any) => [d.name, d.priority]),
          [
            ['Last Seen', 0],
            ['Type', 0],
            ['Reason', 0],
            ['Object', 0],
            ['Subobject', 1],
            ['Source', 1],
            ['Message', 0],
            ['First Seen', 1],
            ['Count', 1],
            ['Name', 1],
          ],
        );
        assert.deepEqual(ev.body.rows[0].cells.slice(1), ['Normal', 'Checked', 'configmap/t1', '', '', 'all good', '<unknown>', 3, 'e1']);
      });

      it('serves PartialObjectMetadata and PartialObjectMetadataList', async () => {
        const one = await c.request('GET', CM('tables', 't1'), {
          headers: { Accept: 'application/json;as=PartialObjectMetadata;g=meta.orch.io;v=v1' },
        });
        assert.deepEqual(Object.keys(one.body).sort(), ['apiVersion', 'kind', 'metadata']);
        assert.equal(one.body.kind, 'PartialObjectMetadata');
        const list = await c.request('GET', CM('tables'), {
          headers: { Accept: 'application/json;as=PartialObjectMetadataList;g=meta.orch.io;v=v1' },
        });
        assert.equal(list.body.kind, 'PartialObjectMetadataList');
        assert.deepEqual(
          list.body.items.map((i: any) => i.metadata.name),
          ['t1', 't2'],
        );
      });

      it("serves the views under Kubernetes' meta.k8s.io too, answering in the group asked for", async () => {
        const k8s = await c.request('GET', CM('tables'), { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
        assert.equal(k8s.status, 200, k8s.text);
        assert.equal(k8s.body.kind, 'Table');
        assert.equal(k8s.body.apiVersion, 'meta.k8s.io/v1');
        assert.equal(k8s.body.rows[0].object.apiVersion, 'meta.k8s.io/v1');
        const partial = await c.request('GET', CM('tables', 't1'), {
          headers: { Accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1beta1' },
        });
        assert.equal(partial.body.kind, 'PartialObjectMetadata');
        assert.equal(partial.body.apiVersion, 'meta.k8s.io/v1beta1');
      });

      it('falls back to the object for views of another group, and 406 when nothing else is accepted', async () => {
        const other = await c.request('GET', CM('tables'), {
          headers: { Accept: 'application/json;as=Table;v=v1;g=meta.example.com,application/json' },
        });
        assert.equal(other.body.kind, 'ConfigMapList');
        const only = await c.request('GET', CM('tables'), { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.example.com' } });
        assert.equal(only.status, 406);
      });

      it('streams watch events as Tables, column definitions first only', async () => {
        const w = await c.watch(`${CM('tables')}?watch=1&resourceVersion=0`, { Accept: TABLE });
        const first = await w.next();
        const second = await w.next();
        assert.equal(first.type, 'ADDED');
        assert.equal(first.object.kind, 'Table');
        assert.equal(first.object.columnDefinitions.length, 3);
        assert.equal(second.object.columnDefinitions, undefined);
        assert.deepEqual(
          [first, second].map((e) => e.object.rows[0].cells[0]),
          ['t1', 't2'],
        );
        await c.post(CM('tables'), cm('t3'));
        const third = await w.next();
        assert.equal(third.object.rows[0].cells[0], 't3');
        w.close();
      });
    });

    describe('errors and limits', () => {
      it('answers 406 for an unacceptable Accept and 415 for an unknown body type', async () => {
        const r = await c.request('GET', CM('default'), { headers: { Accept: 'text/html' } });
        assert.equal(r.status, 406);
        assert.equal(r.body.reason, 'NotAcceptable');
        const u = await c.request('POST', CM('default'), { raw: 'name: x', contentType: 'text/plain' });
        assert.equal(u.status, 415);
      });

      it('accepts YAML bodies', async () => {
        const r = await c.request('POST', CM('default'), {
          raw: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  k: v\n',
          contentType: 'application/yaml',
        });
        assert.equal(r.status, 201, r.text);
        assert.deepEqual(r.body.data, { k: 'v' });
      });

      it('answers 405 for a verb the resource does not serve', async () => {
        const r = await c.request('POST', CM('default', 'named'), { body: cm('named') });
        assert.equal(r.status, 405);
        assert.equal(r.body.reason, 'MethodNotAllowed');
      });

      it('answers 401 for a bad token', async () => {
        const bad = newTestClient({ url: s.url, ca: s.ca, token: 'wrong' });
        const r = await bad.get(CM('default'));
        assert.equal(r.status, 401);
        assert.equal(r.body.reason, 'Unauthorized');
        bad.close();
      });

      it('serves health endpoints with named checks', async () => {
        for (const ep of ['healthz', 'livez', 'readyz']) {
          const r = await s.client.get(`/${ep}`);
          assert.equal(r.status, 200);
          assert.equal(r.text, 'ok');
          const v = await s.client.get(`/${ep}?verbose`);
          assert.match(v.text, /\[\+\]ping ok\n/);
          assert.match(v.text, backend === 'etcd' ? /\[\+\]etcd ok\n/ : /\[\+\]storage ok\n/);
          assert.match(v.text, /\[\+\]poststarthook\/bootstrap-controller ok\n/);
          // Extension servers' authentication ConfigMap is published before the server is ready.
          assert.match(v.text, /\[\+\]poststarthook\/start-cluster-authentication-info-controller ok\n/);
          assert.match(v.text, new RegExp(`${ep} check passed\n$`));
        }
        const ex = await s.client.get('/readyz?verbose&exclude=ping');
        assert.match(ex.text, /\[\+\]ping excluded: ok\n/);
        assert.equal((await s.client.get('/livez/ping')).text, 'ok');
        assert.equal((await s.client.get('/readyz/nope')).status, 404);
      });

      it('exposes Prometheus metrics', async () => {
        const r = await c.get('/metrics');
        assert.equal(r.status, 200);
        assert.match(
          r.text,
          /apiserver_request_total\{verb="GET",dry_run="",group="",version="v1",resource="configmaps",subresource="",scope="resource",component="apiserver",code="200"\} \d+/,
        );
      });
    });
  });
}
