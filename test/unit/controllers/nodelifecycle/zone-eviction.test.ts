import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from '../../../../apiserver/api/generated/types.js';
import { NodeLifecycleController } from '../../../../controllers/nodelifecycle/node-lifecycle-controller.js';
import {
  computeZoneState,
  DEFAULT_EVICTION_RATES,
  ZoneEviction,
  zoneKey,
  ZoneTainter,
} from '../../../../controllers/nodelifecycle/zone-eviction.js';
import { NODES } from '../../../../controllers/controllerutil/resources.js';
import { newFakeContext } from '../../../support/fake-controller-context.js';

const node = (name: string, ready: string, labels: Record<string, string> = {}): Node => ({
  metadata: { name, resourceVersion: '1', creationTimestamp: '2026-01-01T00:00:00Z', labels },
  spec: {},
  status: { conditions: [{ type: 'Ready', status: ready, lastHeartbeatTime: '2026-01-01T00:00:00Z' }] },
});

describe('zone states and rates', () => {
  it('computes a zone state as ComputeZoneState', () => {
    assert.equal(computeZoneState(['True', 'True'], 0.55), 'Normal');
    assert.equal(computeZoneState(['False', 'Unknown'], 0.55), 'FullDisruption');
    assert.equal(computeZoneState(['False', 'False', 'True'], 0.55), 'Normal', 'two not ready are never a disruption');
    assert.equal(computeZoneState(['False', 'False', 'Unknown', 'True'], 0.55), 'PartialDisruption');
    assert.equal(computeZoneState(['False', 'False', 'Unknown', 'True', 'True', 'True'], 0.55), 'Normal', '50% < 55%');
    assert.equal(computeZoneState([undefined, 'True', 'True'], 0.55), 'Normal');
  });

  it('keys zones by the topology labels under the API domain', () => {
    assert.equal(zoneKey(node('a', 'True'), 'k8s.io'), '');
    assert.equal(
      zoneKey(node('a', 'True', { 'topology.k8s.io/region': 'eu', 'topology.k8s.io/zone': 'eu-1' }), 'k8s.io'),
      'eu:\u0000:eu-1',
    );
  });

  it('lets one Node through per 1/rate seconds, burst one; rate 0 none', () => {
    const t = new ZoneTainter(0.1);
    for (const n of ['a', 'b', 'c']) t.add(n);
    t.add('a');
    assert.deepEqual(t.take(0), ['a']);
    assert.deepEqual(t.take(9_000), []);
    assert.deepEqual(t.take(10_000), ['b']);
    t.swapLimiter(0);
    assert.deepEqual(t.take(100_000), []);
    t.swapLimiter(1);
    assert.deepEqual(t.take(100_000), ['c'], 'a new limiter starts full');
  });

  it('stops tainting when every zone is fully disrupted and says when that ends', () => {
    const z = new ZoneEviction(DEFAULT_EVICTION_RATES);
    const zones = (a: string[], b: string[]) =>
      new Map([
        ['a', a],
        ['b', b],
      ]);
    assert.equal(z.update(zones(['True'], ['False'])), undefined);
    assert.deepEqual([z.states.get('a'), z.states.get('b')], ['Normal', 'FullDisruption']);
    assert.equal(z.update(zones(['False'], ['False'])), 'enter');
    z.tainter('a').add('n');
    assert.deepEqual(z.tainter('a').take(1e9), [], 'no tainting in master disruption mode');
    assert.equal(z.update(zones(['False'], ['False'])), undefined);
    assert.equal(z.update(zones(['True'], ['False'])), 'exit');
    assert.deepEqual(z.tainter('a').take(1e9), ['n']);
  });

  it('a partially disrupted zone taints at the secondary rate when large, not at all when small', () => {
    const z = new ZoneEviction({ ...DEFAULT_EVICTION_RATES, largeClusterSizeThreshold: 4 });
    const big = ['False', 'False', 'False', 'False', 'True'];
    z.update(new Map([['', big]]));
    assert.equal(z.states.get(''), 'PartialDisruption');
    const t = z.tainter('');
    for (const n of ['a', 'b']) t.add(n);
    assert.deepEqual(t.take(0), ['a']);
    assert.deepEqual(t.take(10_000), [], '0.01/s, not 0.1/s');
    assert.deepEqual(t.take(100_000), ['b']);
    const small = new ZoneEviction(DEFAULT_EVICTION_RATES);
    small.update(new Map([['', big]]));
    small.tainter('').add('a');
    assert.deepEqual(small.tainter('').take(0), []);
  });
});

describe('node lifecycle controller: rate-limited NoExecute taints', () => {
  function cluster(rates = DEFAULT_EVICTION_RATES, ...nodes: Node[]) {
    let now = 0;
    const ctx = newFakeContext();
    const c = new NodeLifecycleController(ctx, { now: () => now, gracePeriodMs: 40_000, rates });
    ctx.cache(NODES, ...nodes);
    /** The taints each PATCH gave a Node, as the watch would deliver them. */
    let seen = 0;
    const reflect = () => {
      const patches = ctx.fake.made('PATCH', '/api/v1/nodes/');
      for (const r of patches.slice(seen)) {
        const name = r.path.split('/').at(-1)!;
        const cached = ctx.informers.forResource(NODES).indexer.get(name)!;
        ctx.cache(NODES, {
          ...cached,
          metadata: { ...cached.metadata, resourceVersion: String(Number(cached.metadata.resourceVersion) + 1) },
          spec: r.body.spec,
        });
      }
      seen = patches.length;
    };
    const noExecute = (name: string) =>
      ((ctx.informers.forResource(NODES).indexer.get(name)!.spec as any).taints ?? []).some((t: any) => t.effect === 'NoExecute');
    return { ctx, c, reflect, noExecute, advance: (ms: number) => (now += ms) };
  }

  it('taints not-ready Nodes NoExecute one per 1/--node-eviction-rate seconds, NoSchedule at once', async () => {
    const { c, reflect, noExecute, advance } = cluster(
      DEFAULT_EVICTION_RATES,
      node('n1', 'False'),
      node('n2', 'False'),
      node('n3', 'True'),
      node('n4', 'True'),
      node('n5', 'True'),
    );
    await c.monitor();
    reflect();
    assert.deepEqual([noExecute('n1'), noExecute('n2')], [true, false]);
    advance(5_000);
    await c.monitor();
    reflect();
    assert.equal(noExecute('n2'), false, '0.1 per second: not yet');
    advance(5_000);
    await c.monitor();
    reflect();
    assert.equal(noExecute('n2'), true);
  });

  it('every Node down: no NoExecute taint, and those there come off', async () => {
    const tainted = node('n1', 'False');
    tainted.spec = { taints: [{ key: 'node.orch.io/not-ready', effect: 'NoExecute', timeAdded: '2026-01-01T00:00:00Z' }] };
    const { c, reflect, noExecute } = cluster(DEFAULT_EVICTION_RATES, tainted, node('n2', 'Unknown'));
    await c.monitor();
    reflect();
    assert.deepEqual([noExecute('n1'), noExecute('n2')], [false, false]);
  });

  it('a small zone with most Nodes down (--unhealthy-zone-threshold) is not tainted', async () => {
    const { c, reflect, noExecute } = cluster(
      { ...DEFAULT_EVICTION_RATES, unhealthyZoneThreshold: 0.7 },
      node('n1', 'False'),
      node('n2', 'False'),
      node('n3', 'False'),
      node('n4', 'True'),
    );
    await c.monitor();
    reflect();
    assert.deepEqual(['n1', 'n2', 'n3'].map(noExecute), [false, false, false], '75% ≥ 70%: partial disruption, 4 ≤ 50 Nodes');
  });
});
