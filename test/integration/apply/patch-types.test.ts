/**
 * Every patch type over HTTP, on a kind with keyed lists (Service ports by port+protocol, Deployment
 * containers by name) and with atomic ones (container args, Service selector): what each does to the
 * object, how bad patches are answered, and that every patch is defaulted and validated again.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { createNamespace } from '../../support/namespaces.js';
import type { TestClient } from '../../support/http-client.js';
import { APPLY, JSON_PATCH, MERGE, STRATEGIC, apply, patch, path, service } from './helpers.js';

const NS = 'patches';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;

describe('patch types', () => {
  let s: TestServer;
  let c: TestClient;
  before(async () => {
    s = await startTestServer();
    c = s.client;
    await createNamespace(c, NS);
  });
  after(async () => {
    await s?.stop();
  });

  async function newService(name: string) {
    const r = await c.post(
      path(NS, 'services'),
      service(
        name,
        {
          selector: { app: name },
          ports: [
            { port: 80, name: 'http' },
            { port: 443, name: 'https' },
          ],
        },
        { finalizers: ['a.io/x', 'b.io/y'] },
      ),
    );
    assert.equal(r.status, 201, r.text);
    return path(NS, 'services', name);
  }

  async function newDeployment(name: string) {
    const r = await c.post(DEPLOYMENTS, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name },
      spec: {
        selector: { matchLabels: { app: name } },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 2 } },
        template: {
          metadata: { labels: { app: name } },
          spec: {
            containers: [
              { name: 'a', image: 'a:1', args: ['1', '2'] },
              { name: 'b', image: 'b:1' },
            ],
          },
        },
      },
    });
    assert.equal(r.status, 201, r.text);
    return `${DEPLOYMENTS}/${name}`;
  }

  describe('application/json-patch+json', () => {
    it('applies all six operations in order', async () => {
      const url = await newService('jp');
      const r = await patch(
        c,
        url,
        [
          { op: 'add', path: '/metadata/labels', value: { a: '1' } },
          { op: 'copy', from: '/metadata/labels/a', path: '/metadata/labels/b' },
          { op: 'move', from: '/metadata/labels/a', path: '/metadata/labels/c' },
          { op: 'replace', path: '/spec/ports/0/name', value: 'web' },
          { op: 'remove', path: '/spec/ports/1' },
          { op: 'test', path: '/spec/selector/app', value: 'jp' },
        ],
        JSON_PATCH,
      );
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body.metadata.labels, { b: '1', c: '1' });
      assert.deepEqual(r.body.spec.ports, [{ port: 80, name: 'web', protocol: 'TCP', targetPort: 80 }]);
    });

    it('answers a failed test and a path that does not apply with 422, a malformed patch with 400', async () => {
      const url = await newService('jp-errors');
      const failed = await patch(c, url, [{ op: 'test', path: '/spec/selector/app', value: 'nope' }], JSON_PATCH);
      assert.equal(failed.status, 422);
      assert.equal(failed.body.reason, 'Invalid');
      assert.equal(failed.body.details.causes[0].message, 'Invalid value: null: testing value /spec/selector/app failed: test failed');
      const missing = await patch(c, url, [{ op: 'remove', path: '/spec/nothere' }], JSON_PATCH);
      assert.equal(missing.status, 422);
      assert.equal(
        missing.body.details.causes[0].message,
        "Invalid value: null: error in remove for path: '/spec/nothere': Unable to remove nonexistent key: nothere: missing value",
      );
      const malformed = await patch(c, url, { op: 'add' }, JSON_PATCH);
      assert.equal(malformed.status, 400);
      assert.equal(malformed.body.reason, 'BadRequest');
    });
  });

  describe('application/merge-patch+json', () => {
    it('merges objects, deletes with null (re-defaulting what has a default) and replaces lists whole', async () => {
      const url = await newService('merge');
      const r = await patch(
        c,
        url,
        { metadata: { finalizers: null, labels: { x: '1' } }, spec: { sessionAffinity: null, ports: [{ port: 8080 }] } },
        MERGE,
      );
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.metadata.finalizers, undefined);
      assert.deepEqual(r.body.metadata.labels, { x: '1' });
      assert.equal(r.body.spec.sessionAffinity, 'None');
      assert.deepEqual(r.body.spec.ports, [{ port: 8080, protocol: 'TCP', targetPort: 8080 }]);
    });
  });

  describe('application/strategic-merge-patch+json', () => {
    it('merges keyed lists by their merge key; $patch: delete removes an item, $patch: replace the whole list', async () => {
      const url = await newService('smp');
      const merged = await patch(
        c,
        url,
        {
          spec: {
            ports: [
              { port: 8080, name: 'alt' },
              { port: 80, name: 'web' },
            ],
          },
        },
        STRATEGIC,
      );
      assert.equal(merged.status, 200, merged.text);
      assert.deepEqual(
        merged.body.spec.ports.map((p: any) => `${p.port}/${p.name}`),
        ['8080/alt', '80/web', '443/https'],
      );
      const deleted = await patch(c, url, { spec: { ports: [{ port: 443, $patch: 'delete' }] } }, STRATEGIC);
      assert.deepEqual(
        deleted.body.spec.ports.map((p: any) => p.port),
        [8080, 80],
      );
      const replaced = await patch(c, url, { spec: { ports: [{ port: 1, name: 'one' }, { $patch: 'replace' }] } }, STRATEGIC);
      assert.deepEqual(
        replaced.body.spec.ports.map((p: any) => p.port),
        [1],
      );
    });

    it('$setElementOrder orders a list; $deleteFromPrimitiveList removes values from a merged primitive list', async () => {
      const url = await newService('smp-directives');
      const ordered = await patch(
        c,
        url,
        { spec: { '$setElementOrder/ports': [{ port: 443 }, { port: 8080 }, { port: 80 }], ports: [{ port: 8080, name: 'x' }] } },
        STRATEGIC,
      );
      assert.equal(ordered.status, 200, ordered.text);
      assert.deepEqual(
        ordered.body.spec.ports.map((p: any) => p.port),
        [443, 8080, 80],
      );
      const removed = await patch(c, url, { metadata: { '$deleteFromPrimitiveList/finalizers': ['a.io/x'] } }, STRATEGIC);
      assert.deepEqual(removed.body.metadata.finalizers, ['b.io/y']);
    });

    it('$retainKeys clears the fields a retainKeys struct no longer lists; atomic lists are replaced', async () => {
      const url = await newDeployment('smp-deploy');
      const retained = await patch(c, url, { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } }, STRATEGIC);
      assert.equal(retained.status, 200, retained.text);
      assert.deepEqual(retained.body.spec.strategy, { type: 'Recreate' });
      const args = await patch(c, url, { spec: { template: { spec: { containers: [{ name: 'a', args: ['3'] }] } } } }, STRATEGIC);
      const [a, b] = args.body.spec.template.spec.containers;
      assert.deepEqual([a.name, a.image, a.args, b.name], ['a', 'a:1', ['3'], 'b']);
    });
  });

  describe('application/apply-patch+yaml', () => {
    it('takes metadata: null as no metadata, creating and updating (it was a 500: the merge lost the metadata)', async () => {
      const url = path(NS, 'configmaps', 'null-metadata');
      const body = 'apiVersion: v1\nkind: ConfigMap\nmetadata: null\ndata: {a: "1"}\n';
      // No metadata, no name: the URL's is not taken (Kubernetes' checkName).
      const nameless = await patch(c, `${url}?fieldManager=tester`, body, APPLY);
      assert.equal(nameless.status, 400, nameless.text);
      assert.equal(nameless.body.message, 'the name of the object (null-metadata based on URL) was undeterminable: name must be provided');
      const created = await patch(c, `${url}?fieldManager=creator`, body.replace('null', '{name: null-metadata}'), APPLY);
      assert.equal(created.status, 201, created.text);
      const updated = await patch(c, `${url}?fieldManager=tester&force=true`, body.replace('"1"', '"2"'), APPLY);
      assert.equal(updated.status, 200, updated.text);
      assert.deepEqual(updated.body.data, { a: '2' });
      assert.equal(updated.body.metadata.uid, created.body.metadata.uid);
    });

    it('a name or namespace of another type is a 400 naming the field (a name holding a toString member was a 500)', async () => {
      const url = path(NS, 'secrets', 'odd-name');
      for (const name of ['{toString: {a: b}}', '[x]', '{a: 1}']) {
        const body = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: ${name}\n  namespace: ${NS}\n`;
        const r = await patch(c, `${url}?fieldManager=tester&force=true`, body, APPLY);
        assert.equal(r.status, 400, r.text);
        assert.match(r.body.message, /\.metadata\.name: expected string/);
      }
      assert.equal((await c.get(url)).status, 404);
    });

    it('creates a missing object (201) from YAML, then updates it (200) from JSON', async () => {
      const url = path(NS, 'services', 'applied');
      const yaml = [
        'apiVersion: v1',
        'kind: Service',
        'metadata:',
        '  name: applied',
        'spec:',
        '  selector: {app: applied}',
        '  ports:',
        '  - port: 80',
      ].join('\n');
      const created = await patch(c, `${url}?fieldManager=tester`, yaml, APPLY);
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(created.body.spec.ports, [{ port: 80, protocol: 'TCP', targetPort: 80 }]);
      assert.equal(created.body.spec.type, 'ClusterIP', 'defaulted');
      const updated = await apply(
        c,
        url,
        service('applied', {
          selector: { app: 'applied' },
          ports: [
            { port: 80, name: 'a' },
            { port: 81, name: 'b' },
          ],
        }),
        'tester',
      );
      assert.equal(updated.status, 200, updated.text);
      assert.deepEqual(
        updated.body.spec.ports.map((p: any) => p.port),
        [80, 81],
      );
    });

    it('reports keys given twice as warnings, or refuses them with fieldValidation=Strict', async () => {
      const url = path(NS, 'configmaps', 'twice');
      const yaml = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: twice', 'data:', '  a: "1"', '  a: "2"'].join('\n');
      const strict = await patch(c, `${url}?fieldManager=t&fieldValidation=Strict`, yaml, APPLY);
      assert.equal(strict.status, 400);
      assert.equal(
        strict.body.message,
        'error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 7: key "a" already set in map',
      );
      const warned = await patch(c, `${url}?fieldManager=t`, yaml, APPLY);
      assert.equal(warned.status, 201, warned.text);
      assert.equal(warned.headers.warning, '299 - "line 7: key \\"a\\" already set in map"');
      assert.deepEqual(warned.body.data, { a: '2' });
    });

    it('answers a body that is not one object with 400, and validates the applied result (422)', async () => {
      const url = path(NS, 'services', 'bad-apply');
      const list = await patch(c, `${url}?fieldManager=t`, '- a\n- b\n', APPLY);
      assert.equal(list.status, 400);
      assert.equal(list.body.message, 'error decoding YAML: json: cannot unmarshal array into Go value of type map[string]interface {}');
      const invalid = await apply(c, url, service('bad-apply', { ports: [{ port: 70000 }] }), 't');
      assert.equal(invalid.status, 422);
      assert.deepEqual(invalid.body.details.causes[0], {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: 70000: must be between 1 and 65535, inclusive',
        field: 'spec.ports[0].port',
      });
    });
  });

  describe('options of every patch', () => {
    it('re-runs validation on the patched object (422) and leaves nothing behind with dryRun', async () => {
      const url = await newService('options');
      const invalid = await patch(c, url, { spec: { ports: [{ port: 0 }] } }, MERGE);
      assert.equal(invalid.status, 422);
      assert.equal(
        invalid.body.message,
        'Service "options" is invalid: [spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive, spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive]',
      );
      const dry = await patch(c, `${url}?dryRun=All&fieldManager=dry`, { metadata: { labels: { dry: 'run' } } }, MERGE);
      assert.equal(dry.status, 200, dry.text);
      assert.ok(dry.body.metadata.managedFields.some((e: any) => e.manager === 'dry'));
      const stored = await c.get(url);
      assert.equal(stored.body.metadata.labels, undefined);
      assert.ok(!stored.body.metadata.managedFields.some((e: any) => e.manager === 'dry'));
    });

    it('fieldValidation: unknown fields warn, or are refused when Strict; an applied unknown field is always refused', async () => {
      const url = await newService('validation');
      const warned = await patch(c, url, { spec: { bogus: 1 } }, MERGE);
      assert.equal(warned.status, 200, warned.text);
      assert.equal(warned.headers.warning, '299 - "unknown field \\"spec.bogus\\""');
      const strict = await patch(c, `${url}?fieldValidation=Strict`, { spec: { bogus: 1 } }, MERGE);
      assert.equal(strict.status, 400);
      assert.equal(strict.body.message, 'strict decoding error: unknown field "spec.bogus"');
      const applied = await apply(c, url, service('validation', { bogus: 1 }), 'a', '&fieldValidation=Ignore');
      assert.equal(applied.status, 400);
      assert.equal(
        applied.body.message,
        'failed to create typed patch object (/validation; /v1, Kind=Service): .spec.bogus: field not declared in schema',
      );
    });

    it('force is only for apply, fieldManager is required for it; unknown patch types are 415', async () => {
      const url = await newService('checks');
      const force = await patch(c, `${url}?force=true`, { metadata: { labels: { a: 'b' } } }, MERGE);
      assert.equal(force.status, 400);
      assert.equal(
        force.body.message,
        'PatchOptions.meta.orch.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
      );
      const anonymous = await patch(c, url, service('checks', {}), APPLY);
      assert.equal(anonymous.status, 400);
      assert.deepEqual(anonymous.body.details, {
        group: 'meta.orch.io',
        kind: 'PatchOptions',
        causes: [{ reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' }],
      });
      const unknown = await patch(c, url, '{}', 'application/x-patch');
      assert.equal(unknown.status, 415);
      assert.match(unknown.body.message, /application\/apply-patch\+yaml/);
    });
  });
});
