/**
 * A CRD's schema is typed all the way down, through the union fields the OpenAPI document leaves
 * untyped (items, additionalProperties, dependencies): a nested `properties: []` is a 400, as Go's
 * decoding answers, instead of being stored and breaking every protobuf answer that holds it (the
 * fuzzer found a CRD list answered 500 that way).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { CRDS, cronTabCrd } from '../../support/crd-fixtures.js';

function withSchema(openAPIV3Schema: Record<string, unknown>): Record<string, unknown> {
  const crd = cronTabCrd();
  crd.spec.versions[0].schema = { openAPIV3Schema };
  return crd;
}

/** A root schema whose spec is `spec`. */
function specSchema(spec: Record<string, unknown>): Record<string, unknown> {
  return { type: 'object', properties: { spec } };
}

describe('CRD schema types', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s?.stop());

  it('refuses a nested schema of the wrong type with 400 and keeps a valid one as sent', async () => {
    for (const [bad, message] of [
      [specSchema({ type: 'array', items: { type: 'object', properties: [] } }), 'items.properties: expected object, got array'],
      [
        specSchema({ type: 'object', additionalProperties: { type: 'object', properties: 'x' } }),
        'additionalProperties.properties: expected object, got string',
      ],
      [specSchema({ type: 'object', additionalProperties: 'yes' }), 'additionalProperties: expected object or boolean, got string'],
    ] as const) {
      const r = await s.client.post(CRDS, withSchema(bad));
      assert.equal(r.status, 400, r.text);
      assert.match(r.body.message, new RegExp(message.replace(/[.[\]]/g, '\\$&')));
    }
    assert.equal((await s.client.get(CRDS)).body.items.length, 0);
    const good = {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            list: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } } } },
            free: { type: 'object', nullable: true, default: null, additionalProperties: { type: 'string' } },
          },
        },
      },
    };
    const created = await s.client.post(CRDS, withSchema(good));
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.spec.versions[0].schema.openAPIV3Schema, good);
    const pb = await s.client.request('GET', CRDS, { headers: { Accept: 'application/vnd.orch.protobuf' } });
    assert.equal(pb.status, 200, pb.text);
    assert.equal(pb.headers['content-type'], 'application/vnd.orch.protobuf');
  });
});
