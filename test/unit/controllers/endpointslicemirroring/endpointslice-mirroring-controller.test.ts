import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import { ENDPOINTS, SERVICES } from '../../../../controllers/controllerutil/resources.js';
import { EndpointSliceMirroringController } from '../../../../controllers/endpointslicemirroring/endpointslice-mirroring-controller.js';
import { newFakeContext } from '../../../support/fake-controller-context.js';

const SLICES = { group: 'discovery.orch.io', version: 'v1', resource: 'endpointslices' };
const svc = (selector?: Record<string, string>): ApiObject => ({
  metadata: { name: 'db', namespace: 'ns', uid: 'svc-uid' },
  spec: { ...(selector ? { selector } : {}), ports: [{ port: 5432 }] },
});
const endpoints = (labels: Record<string, string> = {}): ApiObject => ({
  metadata: { name: 'db', namespace: 'ns', labels },
  subsets: [
    {
      addresses: [{ ip: '192.168.1.10' }, { ip: 'fd00::1' }],
      notReadyAddresses: [{ ip: '192.168.1.11', hostname: 'b' }],
      ports: [{ name: 'pg', port: 5432, protocol: 'TCP' }],
    },
  ],
});

describe('endpointslice mirroring controller sync', () => {
  it('mirrors a selector-less Service’s Endpoints into slices per address type', async () => {
    const ctx = newFakeContext();
    const c = new EndpointSliceMirroringController(ctx);
    ctx.cache(SERVICES, svc());
    ctx.cache(ENDPOINTS, endpoints({ env: 'prod' }));
    await c.sync('ns/db');
    const creates = ctx.fake.made('POST', '/apis/discovery.orch.io/v1/namespaces/ns/endpointslices').map((r) => r.body);
    assert.deepEqual(
      creates.map((s) => [s.addressType, s.endpoints.map((e: any) => [e.addresses[0], e.conditions.ready, e.hostname])]),
      [
        [
          'IPv4',
          [
            ['192.168.1.10', true, undefined],
            ['192.168.1.11', false, 'b'],
          ],
        ],
        ['IPv6', [['fd00::1', true, undefined]]],
      ],
    );
    assert.deepEqual(creates[0].ports, [{ name: 'pg', port: 5432, protocol: 'TCP' }]);
    assert.deepEqual(creates[0].metadata.labels, {
      env: 'prod',
      'orch.io/service-name': 'db',
      'endpointslice.orch.io/managed-by': 'endpointslicemirroring-controller.orch.io',
    });
    assert.equal(creates[0].metadata.ownerReferences[0].uid, 'svc-uid');
  });

  it('does not mirror Services with a selector or Endpoints marked skip-mirror, and removes what it mirrored', async () => {
    for (const [service, ep] of [
      [svc({ app: 'db' }), endpoints()],
      [svc(), endpoints({ 'endpointslice.orch.io/skip-mirror': 'true' })],
    ]) {
      const ctx = newFakeContext();
      const c = new EndpointSliceMirroringController(ctx);
      ctx.cache(SERVICES, service);
      ctx.cache(ENDPOINTS, ep);
      ctx.cache(SLICES, {
        metadata: {
          name: 'db-abc',
          namespace: 'ns',
          uid: 's1',
          labels: { 'orch.io/service-name': 'db', 'endpointslice.orch.io/managed-by': 'endpointslicemirroring-controller.orch.io' },
        },
      });
      await c.sync('ns/db');
      assert.equal(ctx.fake.made('POST').length, 0);
      assert.equal(ctx.fake.made('DELETE', '/endpointslices/db-abc').length, 1);
    }
  });
});
