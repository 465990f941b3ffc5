/**
 * Views on every answer, against a real server: a create, update, patch or delete asked `as=Table` or
 * `as=PartialObjectMetadata` answers in that view (Kubernetes' transformResponseObject), in protobuf too for
 * a custom resource, which has no protobuf form of its own (a PUT asked so was a 500 the fuzzer found);
 * the other shape of view (PartialObjectMetadataList of one object, PartialObjectMetadata of a list) is
 * a 406, and a write refused so writes nothing. Kinds that take no unconditional update (custom resources,
 * Leases) answer a PUT without a resourceVersion with Kubernetes' 422.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import type { TestClient } from '../../support/http-client.js';
import { decodeReferenceEnvelope, decodeReferenceMessage } from '../../support/reference-proto.js';
import { createServedCrd, cronTabCrd } from '../../support/crd-fixtures.js';

const PB = 'application/vnd.kubernetes.protobuf';
const view = (as: string, type = 'application/json', version = 'v1') => `${type};as=${as};v=${version};g=meta.orch.io`;
const CMS = '/api/v1/namespaces/default/configmaps';
const CRONTABS = '/apis/stable.example.com/v1/namespaces/default/crontabs';

describe('views of write answers', () => {
  let s: TestServer;
  let c: TestClient;
  before(async () => {
    s = await startTestServer();
    c = s.client;
    await createServedCrd(c, cronTabCrd());
  });
  after(async () => {
    await s?.stop();
  });

  const cm = (name: string, data: Record<string, string>, resourceVersion?: string) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, ...(resourceVersion ? { resourceVersion } : {}) },
    data,
  });

  it('answers a create, update, patch and delete in the view asked for', async () => {
    const created = await c.request('POST', CMS, { body: cm('v', { a: '1' }), headers: { Accept: view('Table') } });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.kind, 'Table');
    assert.deepEqual(created.body.rows[0].cells.slice(0, 2), ['v', 1]);
    assert.equal(created.body.rows[0].object.kind, 'PartialObjectMetadata');
    assert.ok(created.body.metadata.resourceVersion, 'a single object’s Table carries its resourceVersion');

    const updated = await c.request('PUT', `${CMS}/v`, { body: cm('v', { a: '2' }), headers: { Accept: view('PartialObjectMetadata') } });
    assert.equal(updated.status, 200, updated.text);
    assert.deepEqual(
      [updated.body.kind, updated.body.apiVersion, updated.body.data],
      ['PartialObjectMetadata', 'meta.orch.io/v1', undefined],
    );
    assert.equal(updated.body.metadata.name, 'v');

    const patched = await c.request('PATCH', `${CMS}/v`, {
      raw: JSON.stringify({ data: { b: '3' } }),
      contentType: 'application/merge-patch+json',
      headers: { Accept: view('PartialObjectMetadata', 'application/json', 'v1beta1') },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual([patched.body.kind, patched.body.apiVersion], ['PartialObjectMetadata', 'meta.orch.io/v1beta1']);

    // A Success Status is never transformed.
    const deleted = await c.request('DELETE', `${CMS}/v`, { headers: { Accept: view('Table') } });
    assert.equal(deleted.status, 200, deleted.text);
    assert.equal(deleted.body.kind, 'Status');
  });

  it('answers the other shape of metadata view with a 406, and writes nothing on such a refusal', async () => {
    assert.equal((await c.post(CMS, cm('shape', { a: '1' }))).status, 201);
    const getAsList = await c.request('GET', `${CMS}/shape`, { headers: { Accept: view('PartialObjectMetadataList') } });
    assert.equal(getAsList.status, 406, getAsList.text);
    assert.equal(getAsList.body.reason, 'NotAcceptable');
    assert.equal(
      getAsList.body.message,
      'you requested PartialObjectMetadataList, but the requested object is not a list (*core.ConfigMap)',
    );
    const listAsOne = await c.request('GET', CMS, { headers: { Accept: view('PartialObjectMetadata') } });
    assert.equal(listAsOne.status, 406, listAsOne.text);
    assert.equal(listAsOne.body.message, 'you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)');

    const refused = await c.request('PUT', `${CMS}/shape`, {
      body: cm('shape', { a: 'changed' }),
      headers: { Accept: view('PartialObjectMetadataList') },
    });
    assert.equal(refused.status, 406, refused.text);
    const created = await c.request('POST', CMS, { body: cm('never', {}), headers: { Accept: view('PartialObjectMetadataList') } });
    assert.equal(created.status, 406, created.text);
    assert.deepEqual((await c.get(`${CMS}/shape`)).body.data, { a: '1' });
    assert.equal((await c.get(`${CMS}/never`)).status, 404);
  });

  it('answers a custom resource’s writes as PartialObjectMetadata in protobuf, and its own form only in JSON', async () => {
    const crontab = (resourceVersion?: string, replicas = 1) => ({
      apiVersion: 'stable.example.com/v1',
      kind: 'CronTab',
      metadata: { name: 'pb', ...(resourceVersion ? { resourceVersion } : {}) },
      spec: { cronSpec: '* * * * *', replicas },
    });
    const created = await c.post(CRONTABS, crontab());
    assert.equal(created.status, 201, created.text);
    // The fuzzer's input: PUT, protobuf asked as a list of metadata. Refused before writing, not a 500.
    const asList = await c.request('PUT', `${CRONTABS}/pb`, {
      body: crontab(created.body.metadata.resourceVersion, 2),
      headers: { Accept: view('PartialObjectMetadataList', PB) },
    });
    assert.equal(asList.status, 406, asList.text);
    const put = await c.request('PUT', `${CRONTABS}/pb`, {
      body: crontab(created.body.metadata.resourceVersion, 3),
      headers: { Accept: view('PartialObjectMetadata', PB) },
    });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.headers['content-type'], PB);
    const env = decodeReferenceEnvelope(put.bytes);
    assert.deepEqual([env.apiVersion, env.kind], ['meta.orch.io/v1', 'PartialObjectMetadata']);
    const partial = decodeReferenceMessage('k8s.io.apimachinery.pkg.apis.meta.v1.PartialObjectMetadata', env.raw);
    assert.equal(partial.metadata.name, 'pb');
    // Protobuf of the CronTab itself is not offered: JSON when listed after it, 406 alone.
    const either = await c.request('GET', `${CRONTABS}/pb`, { headers: { Accept: `${PB}, application/json` } });
    assert.equal(either.headers['content-type'], 'application/json');
    assert.equal(either.body.spec.replicas, 3);
    assert.equal((await c.request('GET', `${CRONTABS}/pb`, { headers: { Accept: PB } })).status, 406);
  });

  it('answers a history listing in JSON only (no protobuf form, no views), and an old revision in the view asked', async () => {
    const created = await c.post(CMS, cm('hist', { a: '1' }));
    assert.equal(created.status, 201, created.text);
    const history = `${CMS}/hist/history`;
    // Asked in protobuf only, the ObjectRevisionList was a 500 (it has no protobuf form).
    for (const accept of [PB, view('PartialObjectMetadataList', PB), view('Table')]) {
      const r = await c.request('GET', history, { headers: { Accept: accept } });
      assert.equal(r.status, 406, `${accept}: ${r.text}`);
    }
    const fallback = await c.request('GET', history, { headers: { Accept: `${PB}, application/json` } });
    assert.equal(fallback.status, 200, fallback.text);
    assert.equal(fallback.body.kind, 'ObjectRevisionList');
    const rv = created.body.metadata.resourceVersion;
    const old = await c.request('GET', `${history}?resourceVersion=${rv}`, { headers: { Accept: view('PartialObjectMetadata', PB) } });
    assert.equal(old.status, 200, old.text);
    assert.equal(decodeReferenceEnvelope(old.bytes).kind, 'PartialObjectMetadata');
  });

  it('refuses an update without a resourceVersion where the kind takes no unconditional update', async () => {
    const crontab = {
      apiVersion: 'stable.example.com/v1',
      kind: 'CronTab',
      metadata: { name: 'pb' },
      spec: { cronSpec: '* * * * *', replicas: 4 },
    };
    const r = await c.put(`${CRONTABS}/pb`, crontab);
    assert.equal(r.status, 422, r.text);
    assert.equal(
      r.body.message,
      'crontabs.stable.example.com "pb" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update',
    );
    assert.deepEqual(r.body.details, {
      name: 'pb',
      group: 'stable.example.com',
      kind: 'crontabs',
      causes: [
        { reason: 'FieldValueInvalid', message: 'Invalid value: 0x0: must be specified for an update', field: 'metadata.resourceVersion' },
      ],
    });
    assert.equal((await c.get(`${CRONTABS}/pb`)).body.spec.replicas, 3);

    const leases = '/apis/coordination.orch.io/v1/namespaces/default/leases';
    assert.equal((await c.post(leases, { metadata: { name: 'l' }, spec: { holderIdentity: 'a' } })).status, 201);
    const lease = await c.put(`${leases}/l`, { metadata: { name: 'l' }, spec: { holderIdentity: 'b' } });
    assert.equal(lease.status, 422, lease.text);
    // A kind that allows it (ConfigMap) takes the update as unconditional.
    assert.equal((await c.post(CMS, cm('free', { a: '1' }))).status, 201);
    assert.equal((await c.put(`${CMS}/free`, cm('free', { a: '2' }))).status, 200);
  });
});
