/**
 * CRD conversion strategy Webhook against a real server and a real HTTPS webhook with its own CA
 * (`caBundle`): v1 stores `spec.size`, v2 calls it `spec.replicas`. Objects written in one version read
 * in the other (get, list with one review per list, watch), writes in v2 stored in v1, a `service`
 * reference resolved through Endpoints, and the webhook's failures answered as Kubernetes answers them.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import type { TestClient } from '../../support/http-client.js';
import { CRDS, createServedCrd } from '../../support/crd-fixtures.js';
import { eventually } from '../../support/eventually.js';
import { type Answer, type Review, startWebhookServer, type WebhookServer } from '../../support/webhook-server.js';

const GROUP = 'conv.example.com';
const at = (version: string, name = '') => `/apis/${GROUP}/${version}/namespaces/default/widgets${name ? `/${name}` : ''}`;
const GVK1 = `${GROUP}/v1, Kind=Widget`;

interface ConversionRequest {
  uid: string;
  desiredAPIVersion: string;
  objects: { apiVersion: string; kind: string; metadata: Record<string, any>; spec?: Record<string, unknown> }[];
}

/** The webhook's conversion: v1 spec.size ↔ v2 spec.replicas. */
function convert(obj: ConversionRequest['objects'][number], to: string) {
  const { size, replicas, ...rest } = (obj.spec ?? {}) as Record<string, unknown>;
  const n = size ?? replicas;
  const spec = to.endsWith('/v2') ? { ...rest, replicas: n } : { ...rest, size: n };
  return { ...obj, apiVersion: to, spec };
}

type Mode = 'ok' | 'garbage' | 'wrong-uid' | 'wrong-count' | 'renamed' | 'failed' | 'wrong-version';

describe('custom resource conversion webhook', () => {
  let s: TestServer;
  let c: TestClient;
  let hook: WebhookServer;
  let mode: Mode = 'ok';
  const requests: ConversionRequest[] = [];

  const answer = (review: Review): Answer => {
    const request = review.request as unknown as ConversionRequest;
    requests.push(request);
    const converted = request.objects.map((o) => convert(o, request.desiredAPIVersion));
    const response = { uid: request.uid, convertedObjects: converted, result: { status: 'Success' } };
    if (mode === 'garbage') return { raw: 'garbage' };
    if (mode === 'wrong-uid') response.uid = 'not-the-uid';
    if (mode === 'wrong-count') response.convertedObjects = [...converted, ...converted];
    if (mode === 'renamed') for (const o of converted) o.metadata = { ...o.metadata, name: 'other' };
    if (mode === 'wrong-version') for (const o of converted) o.apiVersion = `${GROUP}/v3`;
    if (mode === 'failed') Object.assign(response, { result: { status: 'Failure', message: 'cannot convert widgets today' } });
    return { raw: JSON.stringify({ apiVersion: review.apiVersion, kind: 'ConversionReview', response }) };
  };

  const crd = (name: string, plural: string, kind: string, clientConfig: Record<string, unknown>) => ({
    metadata: { name: `${plural}.${GROUP}` },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: { plural, kind },
      versions: [
        { name: 'v1', served: true, storage: true, schema: schemaWith('size'), subresources: subresourcesAt('size') },
        { name: 'v2', served: true, storage: false, schema: schemaWith('replicas'), subresources: subresourcesAt('replicas') },
      ],
      conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig } },
    },
    _name: name,
  });
  const subresourcesAt = (field: string) => ({
    status: {},
    scale: { specReplicasPath: `.spec.${field}`, statusReplicasPath: '.status.ready' },
  });
  const schemaWith = (field: string) => ({
    openAPIV3Schema: {
      type: 'object',
      properties: {
        spec: { type: 'object', properties: { [field]: { type: 'integer' } } },
        status: { type: 'object', properties: { ready: { type: 'integer' } } },
      },
    },
  });

  before(async () => {
    s = await startTestServer();
    c = s.client;
    hook = await startWebhookServer((review) => answer(review), ['convert.hooks.svc']);
    const { _name, ...widgets } = crd('widgets', 'widgets', 'Widget', { url: hook.url('/convert'), caBundle: hook.caBundle });
    await createServedCrd(c, widgets);
  });
  after(async () => {
    await s?.stop();
    await hook?.close();
  });

  /** Runs fn with the webhook misbehaving as `m`. */
  async function misbehaving(m: Mode, fn: () => Promise<void>) {
    mode = m;
    try {
      await fn();
    } finally {
      mode = 'ok';
    }
  }

  it('an object created in v1 reads in v2 with its field renamed (get, list with one review, watch)', async () => {
    for (const name of ['a', 'b', 'c']) {
      const r = await c.post(at('v1'), { apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { name }, spec: { size: 3 } });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(r.body.spec, { size: 3 });
    }
    const got = await c.get(at('v2', 'a'));
    assert.equal(got.status, 200, got.text);
    assert.equal(got.body.apiVersion, `${GROUP}/v2`);
    assert.deepEqual(got.body.spec, { replicas: 3 });

    const before = requests.length;
    const list = await c.get(at('v2'));
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(
      list.body.items.map((o: any) => [o.metadata.name, o.apiVersion, o.spec]),
      ['a', 'b', 'c'].map((n) => [n, `${GROUP}/v2`, { replicas: 3 }]),
    );
    assert.equal(requests.length - before, 1, 'one ConversionReview for the whole list');
    assert.equal(requests.at(-1)!.objects.length, 3);

    // Reading the storage version sends nothing.
    const quiet = requests.length;
    assert.deepEqual((await c.get(at('v1', 'a'))).body.spec, { size: 3 });
    assert.equal(requests.length, quiet);

    const w = await c.watch(`${at('v2')}?watch=true&resourceVersion=${list.body.metadata.resourceVersion}`);
    try {
      assert.equal((await c.put(at('v1', 'b'), { ...(await c.get(at('v1', 'b'))).body, spec: { size: 5 } })).status, 200);
      const ev = await w.next();
      assert.equal(ev.type, 'MODIFIED');
      assert.equal(ev.object.apiVersion, `${GROUP}/v2`);
      assert.deepEqual(ev.object.spec, { replicas: 5 });
    } finally {
      w.close();
    }
  });

  it('writes in v2 (create, update, merge patch, apply, status, scale) are stored in v1 and answered in v2', async () => {
    const sent = requests.length;
    const r = await c.post(at('v2'), { apiVersion: `${GROUP}/v2`, kind: 'Widget', metadata: { name: 'd' }, spec: { replicas: 7 } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.apiVersion, `${GROUP}/v2`);
    assert.deepEqual(r.body.spec, { replicas: 7 });
    assert.deepEqual((await c.get(at('v1', 'd'))).body.spec, { size: 7 });
    assert.deepEqual(
      requests.slice(sent).map((q) => [q.desiredAPIVersion, q.objects.map((o) => o.apiVersion)]),
      [
        [`${GROUP}/v1`, [`${GROUP}/v2`]],
        [`${GROUP}/v2`, [`${GROUP}/v1`]],
      ],
      'the request object to the storage version, the stored one back to the request version',
    );

    const put = await c.put(at('v2', 'd'), { ...r.body, spec: { replicas: 8 } });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.body.spec, { replicas: 8 });
    assert.deepEqual((await c.get(at('v1', 'd'))).body.spec, { size: 8 });

    const patched = await c.patch(at('v2', 'd'), { spec: { replicas: 9 } }, 'application/merge-patch+json');
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.body.spec, { replicas: 9 });
    assert.deepEqual((await c.get(at('v1', 'd'))).body.spec, { size: 9 });

    const applied = await c.patch(
      `${at('v2', 'd')}?fieldManager=tester&force=true`,
      { apiVersion: `${GROUP}/v2`, kind: 'Widget', metadata: { name: 'd' }, spec: { replicas: 10 } },
      'application/apply-patch+yaml',
    );
    assert.equal(applied.status, 200, applied.text);
    assert.deepEqual(applied.body.spec, { replicas: 10 });
    assert.deepEqual((await c.get(at('v1', 'd'))).body.spec, { size: 10 });

    const status = await c.put(at('v2', 'd/status'), { ...applied.body, status: { ready: 1 }, spec: { replicas: 99 } });
    assert.equal(status.status, 200, status.text);
    assert.deepEqual([status.body.spec, status.body.status], [{ replicas: 10 }, { ready: 1 }]);
    const stored = (await c.get(at('v1', 'd'))).body;
    assert.deepEqual([stored.spec, stored.status], [{ size: 10 }, { ready: 1 }]);

    // The scale of v2 reads and writes spec.replicas of the converted object.
    const scale = await c.get(at('v2', 'd/scale'));
    assert.equal(scale.status, 200, scale.text);
    assert.deepEqual([scale.body.spec, scale.body.status.replicas], [{ replicas: 10 }, 1]);
    const scaled = await c.put(at('v2', 'd/scale'), { ...scale.body, spec: { replicas: 12 } });
    assert.equal(scaled.status, 200, scaled.text);
    assert.deepEqual(scaled.body.spec, { replicas: 12 });
    assert.deepEqual((await c.get(at('v1', 'd'))).body.spec, { size: 12 });
  });

  it('webhook failures are 500s with Kubernetes messages, and nothing is written', async () => {
    const cases: [Mode, RegExp][] = [
      [
        'garbage',
        new RegExp(`^conversion webhook for ${GVK1} failed: Post "https://127\\.0\\.0\\.1:\\d+/convert": the response is not JSON`),
      ],
      ['wrong-uid', new RegExp(`^conversion webhook for ${GVK1} failed: expected response\\.uid="[0-9a-f-]+", got "not-the-uid"$`)],
      ['wrong-count', new RegExp(`^conversion webhook for ${GVK1} returned 2 objects, expected 1$`)],
      ['renamed', new RegExp(`^conversion webhook for ${GVK1} returned invalid object: must have the same name: a != other$`)],
      [
        'wrong-version',
        new RegExp(
          `^conversion webhook for ${GVK1} returned invalid object at index 0: invalid groupVersion \\(expected ${GROUP}/v2, received ${GROUP}/v3\\)$`,
        ),
      ],
      ['failed', new RegExp(`^conversion webhook for ${GVK1} failed: cannot convert widgets today$`)],
    ];
    for (const [m, message] of cases) {
      await misbehaving(m, async () => {
        const r = await c.get(at('v2', 'a'));
        assert.equal(r.status, 500, `${m}: ${r.text}`);
        assert.equal(r.body.kind, 'Status');
        assert.equal(r.body.reason, undefined, 'no reason, as kube-apiserver answers it');
        assert.match(r.body.message, message, m);
        const w = await c.post(at('v2'), {
          apiVersion: `${GROUP}/v2`,
          kind: 'Widget',
          metadata: { name: `x-${m}` },
          spec: { replicas: 1 },
        });
        assert.equal(w.status, 500, `${m}: ${w.text}`);
      });
      assert.equal((await c.get(at('v1', `x-${m}`))).status, 404, `${m}: nothing stored`);
    }
    // A list fails as kube-apiserver 1.28 fails it (which converts its items one by one): naming the object.
    await misbehaving('renamed', async () => {
      const r = await c.get(at('v2'));
      assert.equal(r.status, 500);
      assert.match(
        r.body.message,
        new RegExp(`^conversion webhook for ${GVK1} returned invalid object: must have the same name: a != other$`),
      );
    });
    assert.deepEqual((await c.get(at('v2', 'a'))).body.spec, { replicas: 3 }, 'served again once the webhook behaves');
  });

  it('an unreachable webhook is a 500 naming the call', async () => {
    const { _name, ...gizmos } = crd('gizmos', 'gizmos', 'Gizmo', { url: 'https://127.0.0.1:1/convert', caBundle: hook.caBundle });
    await createServedCrd(c, gizmos);
    const gizmo = (v: string) => `/apis/${GROUP}/${v}/namespaces/default/gizmos`;
    assert.equal(
      (await c.post(gizmo('v1'), { apiVersion: `${GROUP}/v1`, kind: 'Gizmo', metadata: { name: 'g' }, spec: { size: 1 } })).status,
      201,
    );
    const r = await c.get(`${gizmo('v2')}/g`);
    assert.equal(r.status, 500, r.text);
    assert.match(
      r.body.message,
      new RegExp(`^conversion webhook for ${GROUP}/v1, Kind=Gizmo failed: Post "https://127\\.0\\.0\\.1:1/convert": .*ECONNREFUSED`),
    );
  });

  it('a storage version switch: an update that changes nothing rewrites the object in the new version, through the webhook', async () => {
    const current = (await c.get(`${CRDS}/widgets.${GROUP}`)).body;
    const versions = current.spec.versions.map((v: { name: string }) => ({ ...v, storage: v.name === 'v2' }));
    const r = await c.put(`${CRDS}/widgets.${GROUP}`, { ...current, spec: { ...current.spec, versions } });
    assert.equal(r.status, 200, r.text);
    // Served anew once the informer has the change: a create in v1 is then converted to v2 to be stored.
    await eventually('v2 is the storage version', async () => {
      const sent = requests.length;
      const name = `probe-${sent}`;
      const p = await c.post(at('v1'), { apiVersion: `${GROUP}/v1`, kind: 'Widget', metadata: { name }, spec: { size: 1 } });
      assert.equal(p.status, 201, p.text);
      return requests.slice(sent).some((q) => q.desiredAPIVersion === `${GROUP}/v2`);
    });
    // Through v1, a version that is neither the new storage version nor, now, converted from it on the way in.
    const old = (await c.get(at('v1', 'c'))).body;
    assert.deepEqual(old.spec, { size: 3 });
    assert.equal((await c.put(at('v1', 'c'), old)).status, 200);
    const sent = requests.length;
    assert.deepEqual((await c.get(at('v1', 'c'))).body.spec, { size: 3 });
    assert.deepEqual(
      requests.slice(sent).map((q) => [q.desiredAPIVersion, q.objects.map((o) => o.apiVersion)]),
      [[`${GROUP}/v1`, [`${GROUP}/v2`]]],
      'c is stored in v2 now',
    );
  });

  it('a service reference is resolved through its Endpoints', async () => {
    const ns = 'hooks';
    assert.equal((await c.post('/api/v1/namespaces', { metadata: { name: ns } })).status, 201);
    const svc = await c.post(`/api/v1/namespaces/${ns}/services`, {
      metadata: { name: 'convert' },
      spec: { ports: [{ name: 'https', port: 443, targetPort: hook.port }] },
    });
    assert.equal(svc.status, 201, svc.text);
    const ep = await c.post(`/api/v1/namespaces/${ns}/endpoints`, {
      metadata: { name: 'convert' },
      subsets: [{ addresses: [{ ip: hook.externalIP }], ports: [{ name: 'https', port: hook.port }] }],
    });
    assert.equal(ep.status, 201, ep.text);
    const { _name, ...gadgets } = crd('gadgets', 'gadgets', 'Gadget', {
      service: { namespace: ns, name: 'convert', path: '/convert', port: 443 },
      caBundle: hook.caBundle,
    });
    await createServedCrd(c, gadgets);
    const gadget = (v: string) => `/apis/${GROUP}/${v}/namespaces/default/gadgets`;
    const created = await c.post(gadget('v2'), {
      apiVersion: `${GROUP}/v2`,
      kind: 'Gadget',
      metadata: { name: 'g' },
      spec: { replicas: 4 },
    });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual((await c.get(`${gadget('v1')}/g`)).body.spec, { size: 4 });
  });
});
