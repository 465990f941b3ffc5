/**
 * Several served versions of one CRD with conversion None: each version reads every object (only
 * apiVersion changes), discovery lists the versions by priority, storedVersions records each storage
 * version, and a storage version migration walk-through: switch the storage version, rewrite every
 * object, drop the old version from storedVersions, then from the CRD.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import type { TestClient } from '../../support/http-client.js';
import { CRDS, createServedCrd } from '../../support/crd-fixtures.js';
import { eventually } from '../../support/eventually.js';
import { invalidCauses } from '../../support/api-assertions.js';
import { join } from 'node:path';
import { newSqliteStorage } from '../../../apiserver/storage/sqlite/index.js';

const NAME = 'gadgets.versions.example.com';
const schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } };
const at = (version: string) => `/apis/versions.example.com/${version}/namespaces/default/gadgets`;

function version(name: string, storage: boolean, served = true) {
  return { name, served, storage, schema };
}

describe('custom resource versions', () => {
  let s: TestServer;
  let c: TestClient;
  let storedBytesVersion: (name: string) => Promise<string>;

  before(async () => {
    s = await startTestServer();
    c = s.client;
    await createServedCrd(c, {
      metadata: { name: NAME },
      spec: {
        group: 'versions.example.com',
        scope: 'Namespaced',
        names: { plural: 'gadgets', kind: 'Gadget' },
        versions: [version('v1beta1', true), version('v1', false), version('v1alpha1', false, false)],
      },
    });
    // What storage holds (read beside the server, from its SQLite file): the version an object was written in.
    storedBytesVersion = async (name) => {
      const storage = newSqliteStorage({ path: join(s.dataDir, 'state.db') });
      try {
        const kv = await storage.get(`/registry/versions.example.com/gadgets/default/${name}`);
        return JSON.parse(kv!.value.toString('utf8')).apiVersion;
      } finally {
        await storage.close();
      }
    };
  });
  after(() => s?.stop());

  it('serves every served version, newest preferred, and not the unserved one', async () => {
    const g = (await c.get('/apis/versions.example.com')).body;
    assert.deepEqual(
      g.versions.map((v: { version: string }) => v.version),
      ['v1', 'v1beta1'],
    );
    assert.equal(g.preferredVersion.version, 'v1');
    assert.equal((await c.get(at('v1alpha1'))).status, 404);
  });

  it('reads an object in each version (conversion None rewrites apiVersion)', async () => {
    const r = await c.post(at('v1beta1'), {
      apiVersion: 'versions.example.com/v1beta1',
      kind: 'Gadget',
      metadata: { name: 'g1' },
      spec: { size: 1 },
    });
    assert.equal(r.status, 201, r.text);
    const v1 = (await c.get(`${at('v1')}/g1`)).body;
    assert.equal(v1.apiVersion, 'versions.example.com/v1');
    assert.deepEqual(v1.spec, { size: 1 });
    const w = await c.post(at('v1'), {
      apiVersion: 'versions.example.com/v1',
      kind: 'Gadget',
      metadata: { name: 'g2' },
      spec: { size: 2 },
    });
    assert.equal(w.status, 201, w.text);
    const list = (await c.get(at('v1beta1'))).body;
    assert.deepEqual(
      list.items.map((o: { apiVersion: string; metadata: { name: string } }) => [o.metadata.name, o.apiVersion]),
      [
        ['g1', 'versions.example.com/v1beta1'],
        ['g2', 'versions.example.com/v1beta1'],
      ],
    );
    assert.equal(await storedBytesVersion('g1'), 'versions.example.com/v1beta1');
    assert.equal(await storedBytesVersion('g2'), 'versions.example.com/v1beta1');
  });

  it('migrates storage to a new version', async () => {
    const crd = (await c.get(`${CRDS}/${NAME}`)).body;
    assert.deepEqual(crd.status.storedVersions, ['v1beta1']);
    // 1. v1 becomes the storage version: storedVersions records both.
    crd.spec.versions = [version('v1beta1', false), version('v1', true), version('v1alpha1', false, false)];
    const updated = await c.put(`${CRDS}/${NAME}`, crd);
    assert.equal(updated.status, 200, updated.text);
    assert.deepEqual(updated.body.status.storedVersions, ['v1beta1', 'v1']);
    // 2. Every object is written again (an update that changes nothing still rewrites an object stored in the old version).
    await eventually('v1 is the storage version on the server', async () => {
      const list = (await c.get(at('v1'))).body;
      const before = list.items.map((o: { metadata: { resourceVersion: string } }) => o.metadata.resourceVersion);
      const after: string[] = [];
      for (const o of list.items) {
        const r = await c.put(`${at('v1')}/${o.metadata.name}`, o);
        assert.equal(r.status, 200, r.text);
        after.push(r.body.metadata.resourceVersion);
      }
      return after.every((rv, i) => rv !== before[i]);
    });
    assert.equal(await storedBytesVersion('g1'), 'versions.example.com/v1');
    assert.equal(await storedBytesVersion('g2'), 'versions.example.com/v1');
    // A second pass finds nothing to rewrite.
    const again = (await c.get(`${at('v1')}/g1`)).body;
    assert.equal((await c.put(`${at('v1')}/g1`, again)).body.metadata.resourceVersion, again.metadata.resourceVersion);
    // 3. v1beta1 leaves storedVersions (the status subresource), then the CRD.
    const current = (await c.get(`${CRDS}/${NAME}`)).body;
    const dropping = current.spec.versions.filter((v: { name: string }) => v.name !== 'v1beta1');
    const refused = await invalidCauses(c, 'put', `${CRDS}/${NAME}`, { ...current, spec: { ...current.spec, versions: dropping } });
    assert.deepEqual(
      [refused[0].field, refused[0].message],
      ['status.storedVersions[0]', 'Invalid value: "v1beta1": must appear in spec.versions'],
    );
    const st = await c.put(`${CRDS}/${NAME}/status`, { ...current, status: { ...current.status, storedVersions: ['v1'] } });
    assert.equal(st.status, 200, st.text);
    const dropped = await c.put(`${CRDS}/${NAME}`, { ...st.body, spec: { ...st.body.spec, versions: dropping } });
    assert.equal(dropped.status, 200, dropped.text);
    await eventually('v1beta1 no longer served', async () => (await c.get(at('v1beta1'))).status === 404, 10_000);
    assert.deepEqual((await c.get(`${at('v1')}/g1`)).body.spec, { size: 1 });
  });
});

describe('custom resource defaults on read and a switch to webhook conversion', () => {
  let s: TestServer;
  let c: TestClient;
  const path = '/apis/read.example.com/v1/namespaces/default/things';
  const crd = (specSchema: Record<string, unknown>, conversion?: Record<string, unknown>) => ({
    metadata: { name: 'things.read.example.com' },
    spec: {
      group: 'read.example.com',
      scope: 'Namespaced',
      names: { plural: 'things', kind: 'Thing' },
      ...(conversion ? { conversion } : {}),
      versions: [
        { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: specSchema } } } },
        { name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object', properties: { spec: specSchema } } } },
      ],
    },
  });

  before(async () => {
    s = await startTestServer();
    c = s.client;
    await createServedCrd(c, crd({ type: 'object', properties: { size: { type: 'integer' } } }));
  });
  after(() => s?.stop());

  it('applies a default added later to objects read from storage', async () => {
    assert.equal((await c.post(path, { metadata: { name: 'old' }, spec: { size: 1 } })).status, 201);
    const current = (await c.get(`${CRDS}/things.read.example.com`)).body;
    const withDefault = crd({ type: 'object', properties: { size: { type: 'integer' }, colour: { type: 'string', default: 'blue' } } });
    const r = await c.put(`${CRDS}/things.read.example.com`, { ...current, spec: withDefault.spec });
    assert.equal(r.status, 200, r.text);
    const got = await eventually('default on read', async () => {
      const o = (await c.get(`${path}/old`)).body;
      return o.spec?.colour === 'blue' && o;
    });
    assert.equal(got.spec.size, 1);
    assert.equal((await c.get(path)).body.items[0].spec.colour, 'blue');
  });

  it('switched to a webhook that cannot be reached: the storage version still serves, the other version answers 500', async () => {
    const current = (await c.get(`${CRDS}/things.read.example.com`)).body;
    const hook = {
      strategy: 'Webhook',
      webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: 'https://127.0.0.1:1/convert' } },
    };
    const r = await c.put(`${CRDS}/things.read.example.com`, { ...current, spec: { ...current.spec, conversion: hook } });
    assert.equal(r.status, 200, r.text);
    const failed = await eventually(
      'v2 converted through the webhook',
      async () => {
        const got = await c.get('/apis/read.example.com/v2/namespaces/default/things/old');
        return got.status === 500 && got;
      },
      10_000,
    );
    assert.match(
      failed.body.message,
      /^conversion webhook for read\.example\.com\/v1, Kind=Thing failed: Post "https:\/\/127\.0\.0\.1:1\/convert"/,
    );
    assert.equal((await c.get(`${path}/old`)).status, 200);
  });
});
