/**
 * CustomResourceDefinitions over HTTP: the CRD's status (accepted names, NamesAccepted, Established,
 * storedVersions), discovery, and custom objects through the generic store: schema validation (422),
 * pruning, defaulting, status and scale subresources, tables from printer columns, field selectors,
 * merge and JSON patch, server-side apply, strategic merge refused with 415, watch; then deletion of the
 * CRD: Terminating, its objects removed, its endpoints gone from discovery.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import type { TestClient } from '../../support/http-client.js';
import { TABLE, invalidCauses } from '../../support/api-assertions.js';
import { eventually } from '../../support/eventually.js';
import { CRDS, cronTabCrd, createServedCrd } from '../../support/crd-fixtures.js';

const CRONTABS = '/apis/stable.example.com/v1/namespaces/default/crontabs';

describe('custom resources', () => {
  let s: TestServer;
  let c: TestClient;

  before(async () => {
    s = await startTestServer();
    c = s.client;
    await createServedCrd(c, cronTabCrd());
  });
  after(() => s?.stop());

  it('sets the CRD status: accepted names, NamesAccepted, Established, storedVersions', async () => {
    const crd = (await c.get(`${CRDS}/crontabs.stable.example.com`)).body;
    assert.deepEqual(crd.status.storedVersions, ['v1']);
    assert.equal(crd.status.acceptedNames.kind, 'CronTab');
    assert.equal(crd.status.acceptedNames.listKind, 'CronTabList');
    const cond = (t: string) => crd.status.conditions.find((x: { type: string }) => x.type === t);
    assert.equal(cond('NamesAccepted').status, 'True');
    assert.equal(cond('Established').status, 'True');
    assert.equal(cond('Established').reason, 'InitialNamesAccepted');
    assert.deepEqual(crd.metadata.finalizers ?? [], []);
    assert.equal(crd.spec.conversion.strategy, 'None');
  });

  it('lists the group and the resource in discovery', async () => {
    const groups = (await c.get('/apis')).body.groups;
    const g = groups.find((x: { name: string }) => x.name === 'stable.example.com');
    assert.deepEqual(g.preferredVersion, { groupVersion: 'stable.example.com/v1', version: 'v1' });
    const list = (await c.get('/apis/stable.example.com/v1')).body;
    const names = list.resources.map((r: { name: string }) => r.name);
    assert.deepEqual(names, ['crontabs', 'crontabs/scale', 'crontabs/status']);
    const r = list.resources[0];
    assert.equal(r.kind, 'CronTab');
    assert.equal(r.namespaced, true);
    assert.deepEqual(r.shortNames, ['ct']);
    assert.deepEqual(r.categories, ['all']);
    assert.equal(list.resources[1].kind, 'Scale');
    assert.equal(list.resources[1].group, 'autoscaling');
  });

  it('validates custom objects against the schema with 422 causes', async () => {
    const causes = await invalidCauses(c, 'post', CRONTABS, {
      apiVersion: 'stable.example.com/v1',
      kind: 'CronTab',
      metadata: { name: 'bad' },
      spec: { cronSpec: 'nope', replicas: 'three', mode: 'medium', image: 'x'.repeat(65), size: 1.5 },
    });
    const byField = Object.fromEntries(causes.map((x) => [x.field, x.message]));
    assert.match(byField['spec.cronSpec'], /spec\.cronSpec in body should match/);
    assert.match(byField['spec.replicas'], /spec\.replicas in body must be of type integer: "string"/);
    assert.match(byField['spec.mode'], /Unsupported value: "medium": supported values: "fast", "slow"/);
    assert.match(byField['spec.image'], /Too long: may not be (longer|more) than 64/);
    assert.match(byField['spec.size'], /must be of type integer,string/);
    const missing = await invalidCauses(c, 'post', CRONTABS, { metadata: { name: 'bad' }, spec: {} });
    assert.deepEqual(
      missing.map((x) => [x.field, x.reason]),
      [['spec.cronSpec', 'FieldValueRequired']],
    );
    const big = await invalidCauses(c, 'post', CRONTABS, { metadata: { name: 'bad' }, spec: { cronSpec: '* * * * *', replicas: 11 } });
    assert.match(big[0].message, /should be less than or equal to 10/);
  });

  it('prunes unknown fields, keeps preserved ones and applies defaults', async () => {
    const r = await c.request('POST', CRONTABS, {
      body: {
        apiVersion: 'stable.example.com/v1',
        kind: 'CronTab',
        metadata: { name: 'pruned' },
        spec: { cronSpec: '* * * * */5', unknown: 1, free: { any: { thing: true } }, size: '50%', constructor: 'c' },
        extra: 'x',
      },
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.spec.unknown, undefined);
    // A field named like an Object member is a field the schema does not know.
    assert.equal(Object.hasOwn(r.body.spec, 'constructor'), false, r.text);
    assert.match(String(r.headers.warning), /unknown field \\"spec.constructor\\"/);
    assert.equal(r.body.extra, undefined);
    assert.deepEqual(r.body.spec.free, { any: { thing: true } });
    assert.equal(r.body.spec.replicas, 1);
    assert.equal(r.body.metadata.generation, 1);
    assert.match(String(r.headers.warning), /unknown field \\"spec.unknown\\"/);
    const strict = await c.post(`${CRONTABS}?fieldValidation=Strict`, {
      metadata: { name: 'strict' },
      spec: { cronSpec: '* * * * *', unknown: 1 },
    });
    assert.equal(strict.status, 400, strict.text);
    assert.match(strict.body.message, /unknown field "spec.unknown"/);
  });

  it('takes a 100-level-deep object where the schema keeps unknown fields, refuses one nested past the body limit with 400', async () => {
    const nested = (depth: number) => {
      let v: Record<string, unknown> = { leaf: true };
      for (let i = 0; i < depth; i++) v = { n: v };
      return v;
    };
    const deep = await c.post(CRONTABS, {
      metadata: { name: 'deep' },
      spec: { cronSpec: '* * * * *', free: nested(100), other: nested(100) },
    });
    assert.equal(deep.status, 201, deep.text);
    assert.equal(JSON.stringify(deep.body.spec.free).split('"n"').length - 1, 100);
    assert.equal(deep.body.spec.other, undefined);
    const tooDeep = await c.post(CRONTABS, { metadata: { name: 'too-deep' }, spec: { cronSpec: '* * * * *', free: nested(1000) } });
    assert.equal(tooDeep.status, 400, tooDeep.text);
  });

  it('serves the status and scale subresources', async () => {
    const created = await c.post(CRONTABS, {
      metadata: { name: 'scaled' },
      spec: { cronSpec: '* * * * *', replicas: 2 },
      status: { replicas: 9 },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.status, undefined);
    const st = await c.put(`${CRONTABS}/scaled/status`, { ...created.body, status: { replicas: 2, labelSelector: 'app=x' } });
    assert.equal(st.status, 200, st.text);
    assert.equal(st.body.status.replicas, 2);
    assert.equal(st.body.metadata.generation, 1);
    const scale = (await c.get(`${CRONTABS}/scaled/scale`)).body;
    assert.deepEqual(scale.spec, { replicas: 2 });
    assert.deepEqual(scale.status, { replicas: 2, selector: 'app=x' });
    const scaled = await c.patch(`${CRONTABS}/scaled/scale`, { spec: { replicas: 5 } }, 'application/merge-patch+json');
    assert.equal(scaled.status, 200, scaled.text);
    const obj = (await c.get(`${CRONTABS}/scaled`)).body;
    assert.equal(obj.spec.replicas, 5);
    assert.equal(obj.metadata.generation, 2);
    const badStatus = await c.put(`${CRONTABS}/scaled/status`, { ...obj, status: { replicas: 'x' } });
    assert.equal(badStatus.status, 422, badStatus.text);
  });

  it('prints tables from additionalPrinterColumns', async () => {
    await c.post(CRONTABS, { metadata: { name: 'table' }, spec: { cronSpec: '*/5 * * * *', replicas: 3 } });
    const r = await c.request('GET', `${CRONTABS}/table`, { headers: { Accept: TABLE } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.body.columnDefinitions.map((d: { name: string; type: string }) => [d.name, d.type]),
      [
        ['Name', 'string'],
        ['Spec', 'string'],
        ['Replicas', 'integer'],
        ['Age', 'date'],
      ],
    );
    const [name, spec, replicas, age] = r.body.rows[0].cells;
    assert.deepEqual([name, spec, replicas], ['table', '*/5 * * * *', 3]);
    assert.match(age, /^\d+s$/);
  });

  it('selects by metadata.name and metadata.namespace, refuses other field selectors', async () => {
    const r = await c.get(`${CRONTABS}?fieldSelector=metadata.name%3Dtable`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.body.items.map((o: { metadata: { name: string } }) => o.metadata.name),
      ['table'],
    );
    assert.equal(r.body.kind, 'CronTabList');
    const all = await c.get('/apis/stable.example.com/v1/crontabs?fieldSelector=metadata.namespace%3Ddefault');
    assert.equal(all.status, 200, all.text);
    assert.ok(all.body.items.length >= 1);
    const bad = await c.get(`${CRONTABS}?fieldSelector=spec.cronSpec%3Dx`);
    assert.equal(bad.status, 400, bad.text);
  });

  it('patches with merge and JSON patch and server-side apply; strategic merge is 415', async () => {
    await c.post(CRONTABS, { metadata: { name: 'patched' }, spec: { cronSpec: '* * * * *', ports: [{ name: 'a', port: 1 }] } });
    const merge = await c.patch(`${CRONTABS}/patched`, { spec: { image: 'nginx' } }, 'application/merge-patch+json');
    assert.equal(merge.status, 200, merge.text);
    assert.equal(merge.body.spec.image, 'nginx');
    const json = await c.patch(`${CRONTABS}/patched`, [{ op: 'replace', path: '/spec/replicas', value: 4 }], 'application/json-patch+json');
    assert.equal(json.status, 200, json.text);
    assert.equal(json.body.spec.replicas, 4);
    const badJson = await c.patch(
      `${CRONTABS}/patched`,
      [{ op: 'replace', path: '/spec/replicas', value: 40 }],
      'application/json-patch+json',
    );
    assert.equal(badJson.status, 422, badJson.text);
    const smp = await c.patch(`${CRONTABS}/patched`, { spec: { image: 'x' } }, 'application/strategic-merge-patch+json');
    assert.equal(smp.status, 415, smp.text);
    const apply = await c.patch(
      `${CRONTABS}/patched?fieldManager=tester&force=true`,
      {
        apiVersion: 'stable.example.com/v1',
        kind: 'CronTab',
        metadata: { name: 'patched' },
        spec: { cronSpec: '* * * * *', ports: [{ name: 'b', port: 2 }] },
      },
      'application/apply-patch+yaml',
    );
    assert.equal(apply.status, 200, apply.text);
    // ports is a map list keyed by name: the applied item joins the one another manager set.
    assert.deepEqual(
      apply.body.spec.ports.map((p: { name: string }) => p.name),
      ['a', 'b'],
    );
    assert.ok(apply.body.metadata.managedFields.some((m: { manager: string }) => m.manager === 'tester'));
    const created = await c.patch(
      `${CRONTABS}/applied?fieldManager=tester`,
      { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'applied' }, spec: { cronSpec: '* * * * *' } },
      'application/apply-patch+yaml',
    );
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.spec.replicas, 1);
  });

  it('watches custom objects', async () => {
    const list = (await c.get(CRONTABS)).body;
    const w = await c.watch(`${CRONTABS}?watch=true&resourceVersion=${list.metadata.resourceVersion}`);
    try {
      await c.post(CRONTABS, { metadata: { name: 'watched' }, spec: { cronSpec: '* * * * *' } });
      const ev = await w.next();
      assert.equal(ev.type, 'ADDED');
      assert.equal(ev.object.metadata.name, 'watched');
      assert.equal(ev.object.apiVersion, 'stable.example.com/v1');
    } finally {
      w.close();
    }
  });

  it('does not accept names another CRD of the group holds: NamesAccepted False, not Established, not served', async () => {
    const clash = cronTabCrd();
    clash.metadata.name = 'crontabclashes.stable.example.com';
    clash.spec.names = { plural: 'crontabclashes', kind: 'CronTabClash', shortNames: ['ct'] };
    assert.equal((await c.post(CRDS, clash)).status, 201);
    const crd = await eventually('NamesAccepted False', async () => {
      const got = (await c.get(`${CRDS}/crontabclashes.stable.example.com`)).body;
      return (
        got.status?.conditions?.some((x: { type: string; status: string }) => x.type === 'NamesAccepted' && x.status === 'False') && got
      );
    });
    const cond = (t: string) => crd.status.conditions.find((x: { type: string }) => x.type === t);
    assert.deepEqual([cond('NamesAccepted').reason, cond('NamesAccepted').message], ['NameConflict', '"ct" is already in use']);
    assert.deepEqual([cond('Established').status, cond('Established').reason], ['False', 'NotAccepted']);
    assert.equal((await c.get('/apis/stable.example.com/v1/namespaces/default/crontabclashes')).status, 404);
    assert.equal((await c.delete(`${CRDS}/crontabclashes.stable.example.com`)).status, 200);
  });

  it('refuses invalid CRDs with 422', async () => {
    const bad = cronTabCrd();
    bad.metadata.name = 'wrong.stable.example.com';
    bad.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.untyped = {};
    bad.spec.versions[0].storage = false;
    const causes = await invalidCauses(c, 'post', CRDS, bad);
    const fields = causes.map((x) => `${x.field}: ${x.message}`);
    assert.ok(
      fields.some((f) => f.startsWith('metadata.name:') && f.includes('must be spec.names.plural+"."+spec.group')),
      fields.join('\n'),
    );
    assert.ok(
      fields.some((f) => f.includes('properties[untyped].type: Required value: must not be empty for specified object fields')),
      fields.join('\n'),
    );
    assert.ok(
      fields.some((f) => f.includes('must have exactly one version marked as storage version')),
      fields.join('\n'),
    );
    const pruning = cronTabCrd({ preserveUnknownFields: true });
    const p = await invalidCauses(c, 'post', CRDS, pruning);
    assert.match(p[0].message, /cannot set to true, set x-orch-preserve-unknown-fields to true/);
    const noSchema = cronTabCrd();
    delete noSchema.spec.versions[0].schema;
    const n = await invalidCauses(c, 'post', CRDS, noSchema);
    assert.equal(n[0].field, 'spec.versions[0].schema.openAPIV3Schema');
    const scope = cronTabCrd({ scope: 'Galaxy' });
    const sc = await invalidCauses(c, 'post', CRDS, scope);
    assert.match(sc[0].message, /Unsupported value: "Galaxy"/);
  });

  it('deletes a CRD: Terminating, objects removed, gone from discovery', async () => {
    const crd = cronTabCrd();
    crd.metadata.name = 'widgets.stable.example.com';
    crd.spec.names = { plural: 'widgets', singular: 'widget', kind: 'Widget' };
    await createServedCrd(c, crd);
    const widgets = '/apis/stable.example.com/v1/namespaces/default/widgets';
    for (const name of ['w1', 'w2']) {
      const r = await c.post(widgets, { metadata: { name }, spec: { cronSpec: '* * * * *' } });
      assert.equal(r.status, 201, r.text);
    }
    const del = await c.delete(`${CRDS}/widgets.stable.example.com`);
    assert.equal(del.status, 200, del.text);
    assert.ok(del.body.metadata.deletionTimestamp);
    assert.ok(del.body.metadata.finalizers.includes('customresourcecleanup.apiextensions.orch.io'));
    assert.equal(del.body.status.conditions.find((x: { type: string }) => x.type === 'Terminating').status, 'True');
    await eventually('CRD gone', async () => (await c.get(`${CRDS}/widgets.stable.example.com`)).status === 404, 10_000);
    const list = await c.get(widgets);
    assert.equal(list.status, 404, list.text);
    const gv = (await c.get('/apis/stable.example.com/v1')).body;
    assert.deepEqual(
      gv.resources.map((r: { name: string }) => r.name).filter((n: string) => n.startsWith('widgets')),
      [],
    );
    // Created again, it starts empty: the objects were deleted, not hidden.
    await createServedCrd(c, crd);
    assert.deepEqual((await c.get(widgets)).body.items, []);
  });
});
