import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TtlController } from '../../../../controllers/ttl/ttl-controller.js';
import { NODES } from '../../../../controllers/controllerutil/resources.js';
import { newFakeContext } from '../../../support/fake-controller-context.js';

const nodes = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ metadata: { name: `n${from + i}` } }));

describe('ttl controller', () => {
  it('annotates Nodes with the TTL of the cluster size, with hysteresis between steps', async () => {
    const ctx = newFakeContext();
    const c = new TtlController(ctx);
    ctx.cache(NODES, ...nodes(100));
    assert.equal(c.desiredTtl(), 0);
    await c.sync('n0');
    assert.deepEqual(ctx.fake.made('PATCH', '/api/v1/nodes/n0')[0].body, { metadata: { annotations: { 'node.alpha.orch.io/ttl': '0' } } });
    ctx.cache(NODES, ...nodes(1, 100));
    assert.equal(c.desiredTtl(), 15, '101 Nodes');
    for (let i = 0; i < 6; i++) ctx.informers.forResource(NODES).delete({ metadata: { name: `n${i}` } });
    assert.equal(c.desiredTtl(), 15, '95 Nodes: still above the smaller step’s overlap (90)');
    for (let i = 6; i < 12; i++) ctx.informers.forResource(NODES).delete({ metadata: { name: `n${i}` } });
    assert.equal(c.desiredTtl(), 0, '89 Nodes');
  });
});
