import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import { ENDPOINTS, PODS, SERVICES } from '../../../../controllers/controllerutil/resources.js';
import { EndpointsController, subsetContent } from '../../../../controllers/endpoints/endpoints-controller.js';
import { EndpointSliceController } from '../../../../controllers/endpointslice/endpointslice-controller.js';
import { newFakeContext } from '../../../support/fake-controller-context.js';

function service(extra: Record<string, unknown> = {}): ApiObject {
  return {
    metadata: { name: 'web', namespace: 'ns', uid: 'svc-uid', labels: { team: 'a' } },
    spec: {
      selector: { app: 'web' },
      clusterIP: '10.96.0.10',
      ports: [
        { name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' },
        { name: 'metrics', port: 9090, targetPort: 9100, protocol: 'TCP' },
      ],
      ...extra,
    },
  };
}

function pod(
  name: string,
  ip: string | undefined,
  o: { ready?: boolean; deleting?: boolean; labels?: Record<string, string>; httpPort?: boolean } = {},
): ApiObject {
  return {
    metadata: {
      name,
      namespace: 'ns',
      uid: `uid-${name}`,
      labels: o.labels ?? { app: 'web' },
      ...(o.deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    spec: { nodeName: 'node-1', containers: [{ name: 'c', ports: o.httpPort === false ? [] : [{ name: 'http', containerPort: 8080 }] }] },
    status: {
      phase: 'Running',
      ...(ip ? { podIP: ip, podIPs: [{ ip }] } : {}),
      conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }],
    },
  };
}

const ref = (name: string) => ({ kind: 'Pod', namespace: 'ns', name, uid: `uid-${name}` });

describe('endpoints controller sync', () => {
  it('lists ready Pods as addresses and the others as notReadyAddresses, by resolved port', async () => {
    const ctx = newFakeContext();
    const c = new EndpointsController(ctx);
    ctx.cache(SERVICES, service());
    ctx.cache(
      PODS,
      pod('a', '10.0.0.2'),
      pod('b', '10.0.0.1', { ready: false }),
      pod('no-ip', undefined),
      pod('gone', '10.0.0.9', { deleting: true }),
      pod('other', '10.0.0.5', { labels: { app: 'other' } }),
      pod('no-http', '10.0.0.3', { httpPort: false }),
    );
    await c.sync('ns/web');
    const [create] = ctx.fake.made('POST', '/api/v1/namespaces/ns/endpoints');
    assert.deepEqual(create.body.metadata, { name: 'web', labels: { team: 'a' } });
    const addr = (name: string, ip: string) => ({ ip, targetRef: ref(name), nodeName: 'node-1' });
    const http = { name: 'http', port: 8080, protocol: 'TCP' };
    const metrics = { name: 'metrics', port: 9100, protocol: 'TCP' };
    assert.deepEqual(create.body.subsets, [
      { addresses: [addr('a', '10.0.0.2')], ports: [http] },
      { addresses: [addr('a', '10.0.0.2')], ports: [metrics] },
      { notReadyAddresses: [addr('b', '10.0.0.1')], ports: [http] },
      { notReadyAddresses: [addr('b', '10.0.0.1')], ports: [metrics] },
      { addresses: [addr('no-http', '10.0.0.3')], ports: [metrics] },
    ]);
  });

  it('compares content, not grouping, with what the server stored', () => {
    const a = { ip: '10.0.0.1', targetRef: ref('a') };
    const b = { ip: '10.0.0.2', targetRef: ref('b') };
    const p80 = { port: 80, protocol: 'TCP' };
    assert.deepEqual(
      subsetContent([{ addresses: [a, b], ports: [p80] }]),
      subsetContent([
        { addresses: [b], ports: [p80] },
        { addresses: [a], ports: [p80] },
      ]),
    );
    assert.notDeepEqual(subsetContent([{ addresses: [a], ports: [p80] }]), subsetContent([{ notReadyAddresses: [a], ports: [p80] }]));
  });

  it('writes nothing when the Endpoints already say so; updates when they differ; leaves selector-less Services alone', async () => {
    const ctx = newFakeContext();
    const c = new EndpointsController(ctx);
    ctx.cache(SERVICES, service({ ports: [{ port: 80, targetPort: 80 }] }), {
      metadata: { name: 'manual', namespace: 'ns' },
      spec: { ports: [{ port: 1 }] },
    });
    ctx.cache(PODS, pod('a', '10.0.0.2'));
    const subsets = [{ addresses: [{ ip: '10.0.0.2', targetRef: ref('a'), nodeName: 'node-1' }], ports: [{ port: 80, protocol: 'TCP' }] }];
    ctx.cache(ENDPOINTS, { metadata: { name: 'web', namespace: 'ns', labels: { team: 'a' }, resourceVersion: '4' }, subsets });
    await c.sync('ns/web');
    await c.sync('ns/manual');
    assert.deepEqual(ctx.fake.requests, []);
    ctx.cache(PODS, pod('a', '10.0.0.2', { ready: false }));
    await c.sync('ns/web');
    const [update] = ctx.fake.made('PUT', '/endpoints/web');
    assert.deepEqual(update.body.subsets[0].notReadyAddresses[0].ip, '10.0.0.2');
  });

  it('deletes the Endpoints of a deleted Service', async () => {
    const ctx = newFakeContext();
    const c = new EndpointsController(ctx);
    ctx.cache(ENDPOINTS, { metadata: { name: 'web', namespace: 'ns' }, subsets: [] });
    await c.sync('ns/web');
    assert.equal(ctx.fake.made('DELETE', '/api/v1/namespaces/ns/endpoints/web').length, 1);
  });
});

describe('endpointslice controller sync', () => {
  it('creates a slice per port set with ready/serving/terminating conditions, owned and labelled', async () => {
    const ctx = newFakeContext();
    const c = new EndpointSliceController(ctx);
    ctx.cache(SERVICES, service());
    ctx.cache(
      PODS,
      pod('a', '10.0.0.2'),
      pod('b', '10.0.0.1', { ready: false }),
      pod('t', '10.0.0.7', { deleting: true }),
      pod('no-http', '10.0.0.3', { httpPort: false }),
    );
    await c.sync('ns/web');
    const creates = ctx.fake.made('POST', '/apis/discovery.orch.io/v1/namespaces/ns/endpointslices').map((r) => r.body);
    assert.equal(creates.length, 2);
    for (const s of creates) {
      assert.equal(s.metadata.generateName, 'web-');
      assert.deepEqual(s.metadata.labels, {
        team: 'a',
        'orch.io/service-name': 'web',
        'endpointslice.orch.io/managed-by': 'endpointslice-controller.orch.io',
      });
      assert.deepEqual(s.metadata.ownerReferences, [
        { apiVersion: 'v1', kind: 'Service', name: 'web', uid: 'svc-uid', controller: true, blockOwnerDeletion: true },
      ]);
      assert.equal(s.addressType, 'IPv4');
    }
    const both = creates.find((s) => s.ports.length === 2);
    assert.deepEqual(both.ports, [
      { name: 'http', port: 8080, protocol: 'TCP' },
      { name: 'metrics', port: 9100, protocol: 'TCP' },
    ]);
    assert.deepEqual(
      both.endpoints.map((e: any) => [e.targetRef.name, e.addresses[0], e.conditions]),
      [
        ['a', '10.0.0.2', { ready: true, serving: true, terminating: false }],
        ['b', '10.0.0.1', { ready: false, serving: false, terminating: false }],
        ['t', '10.0.0.7', { ready: false, serving: true, terminating: true }],
      ],
    );
  });

  it('splits at maxEndpointsPerSlice, waits for its own writes to be seen, and keeps a placeholder when empty', async () => {
    const ctx = newFakeContext();
    const c = new EndpointSliceController(ctx, { maxEndpointsPerSlice: 2 });
    ctx.cache(SERVICES, service({ ports: [{ port: 80 }] }));
    ctx.cache(PODS, pod('a', '10.0.0.1'), pod('b', '10.0.0.2'), pod('c', '10.0.0.3'));
    await c.sync('ns/web');
    const creates = ctx.fake.made('POST', '/endpointslices');
    assert.deepEqual(
      creates.map((r) => r.body.endpoints.length),
      [2, 1],
    );
    const again = await c.sync('ns/web');
    assert.equal(again?.requeueAfterMs, 100, 'the cache has not seen the new slices yet');
    assert.equal(ctx.fake.made('POST', '/endpointslices').length, 2);

    const empty = newFakeContext();
    const e = new EndpointSliceController(empty);
    empty.cache(SERVICES, service());
    await e.sync('ns/web');
    const [placeholder] = empty.fake.made('POST', '/endpointslices');
    assert.deepEqual([placeholder.body.endpoints, placeholder.body.ports], [[], []]);
  });
});
