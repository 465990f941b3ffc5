import { test } from 'node:test';
import assert from 'node:assert/strict';
import client from 'prom-client';
import { BoundCounter, BoundGauge, BoundHistogram } from '../../../../apiserver/component-base/metrics/bound.js';

const BUCKETS = [0.005, 0.025, 0.1, 1];
const labelNames = ['verb', 'resource'] as const;
const observations: [string, string, number][] = [
  ['GET', 'pods', 0.001],
  ['GET', 'pods', 0.005],
  ['GET', 'pods', 0.03],
  ['LIST', 'pods', 2],
  ['GET', 'pods"x\\y\n', 0.2],
  ['GET', '', 0.1],
];

/** The same metrics as prom-client's own and as bound ones, fed the same observations. */
function both() {
  const theirs = new client.Registry();
  const ours = new client.Registry();
  const pc = {
    c: new client.Counter({ name: 'req_total', help: 'requests', labelNames, registers: [theirs] }),
    g: new client.Gauge({ name: 'inflight', help: 'in flight', labelNames, registers: [theirs] }),
    h: new client.Histogram({ name: 'latency_seconds', help: 'latency', labelNames, buckets: BUCKETS, registers: [theirs] }),
  };
  const bound = {
    c: new BoundCounter({ name: 'req_total', help: 'requests', labelNames, registers: [ours] }),
    g: new BoundGauge({ name: 'inflight', help: 'in flight', labelNames, registers: [ours] }),
    h: new BoundHistogram({ name: 'latency_seconds', help: 'latency', labelNames, buckets: BUCKETS, registers: [ours] }),
  };
  for (const [verb, resource, v] of observations) {
    pc.c.inc({ verb, resource });
    pc.g.inc({ verb, resource }, 2);
    pc.h.observe({ verb, resource }, v);
    bound.c.labels({ verb, resource }).inc();
    bound.g.labels({ verb, resource }).inc(2);
    bound.h.labels({ verb, resource }).observe(v);
  }
  pc.g.set({ verb: 'PUT', resource: 'pods' }, -3);
  bound.g.labels({ verb: 'PUT', resource: 'pods' }).set(-3);
  // Bound but never used: no series, as prom-client shows none for labels never counted.
  bound.c.labels({ verb: 'DELETE', resource: 'pods' });
  bound.h.labels({ verb: 'DELETE', resource: 'pods' });
  return { theirs, ours };
}

test('bound metrics expose the same text as prom-client for the same observations', async () => {
  const { theirs, ours } = both();
  assert.equal(await ours.metrics(), await theirs.metrics());
});

test("bound metrics' JSON sums across workers as prom-client's does", async () => {
  const a = both();
  const b = both();
  const sum = async (r: client.Registry[]) =>
    client.AggregatorRegistry.aggregate(await Promise.all(r.map((x) => x.getMetricsAsJSON()))).metrics();
  assert.equal(await sum([a.ours, b.ours]), await sum([a.theirs, b.theirs]));
});

test('label values that would run together as one string are separate children', () => {
  const c = new BoundCounter({ name: 'x_total', help: 'x', labelNames, registers: [] });
  c.labels({ verb: 'a', resource: 'bc' }).inc();
  assert.notEqual(c.labels({ verb: 'ab', resource: 'c' }), c.labels({ verb: 'a', resource: 'bc' }));
  assert.equal(c.labels({ verb: 'a', resource: 'bc' }), c.labels({ verb: 'a', resource: 'bc' }));
  assert.throws(
    () =>
      new BoundHistogram({ name: 'y', help: 'y', labelNames, buckets: BUCKETS, registers: [] })
        .labels({ verb: 'a', resource: 'b' })
        .observe(Number.NaN),
    TypeError,
  );
});
