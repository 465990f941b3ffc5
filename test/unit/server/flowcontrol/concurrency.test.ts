import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newApiDomain } from '../../../../apiserver/api/domain.js';
import type { PriorityLevelConfiguration } from '../../../../apiserver/api/generated/types.js';
import { asKind } from '../../../../apiserver/api/object.js';
import { flowControlBootstrap } from '../../../../apiserver/registry/flowcontrol/bootstrap-configuration.js';
import { allocate, allocationItem, levelLimits, sharesOf } from '../../../../apiserver/server/flowcontrol/concurrency.js';
import { estimateSeats, maxSeatsOf } from '../../../../apiserver/server/flowcontrol/work-estimate.js';
import { parseRequestInfo } from '../../../../apiserver/endpoints/request/request-info.js';

const levels = flowControlBootstrap(newApiDomain()).priorityLevels.map((o) => asKind<PriorityLevelConfiguration>(o));

test("the bootstrap levels' seats out of kube-apiserver's default 600", () => {
  const sum = levels.reduce((a, l) => a + sharesOf(l.spec!).shares, 0);
  assert.equal(sum, 245);
  const nominal = Object.fromEntries(levels.map((l) => [l.metadata.name, levelLimits(600, l.spec!, sum)]));
  assert.deepEqual(nominal['global-default'], { nominalCL: 49, lendableCL: 25, minCL: 24, maxCL: 649 });
  assert.deepEqual(nominal['leader-election'], { nominalCL: 25, lendableCL: 0, minCL: 25, maxCL: 625 });
  assert.equal(nominal['workload-low'].nominalCL, 245);
  assert.equal(nominal['catch-all'].nominalCL, 13);
  assert.equal(nominal.exempt.nominalCL, 0);
  assert.equal(maxSeatsOf(49, 6), 8);
  assert.equal(maxSeatsOf(600, 6), 10);
  assert.equal(maxSeatsOf(3, 6), 1);
});

test('a borrowing limit bounds what a level may take', () => {
  const spec = { type: 'Limited', limited: { nominalConcurrencyShares: 10, lendablePercent: 20, borrowingLimitPercent: 50 } };
  assert.deepEqual(levelLimits(100, spec, 10), { nominalCL: 100, lendableCL: 20, minCL: 80, maxCL: 150 });
});

test('allocation: a busy level borrows what idle levels lend, within its bounds, the total kept', () => {
  const busy = allocationItem({ nominalCL: 49, lendableCL: 25, minCL: 24, maxCL: 649 }, { highWatermark: 300, average: 300 });
  const idle = allocationItem({ nominalCL: 245, lendableCL: 221, minCL: 24, maxCL: 845 }, { highWatermark: 0, average: 0 });
  const allocs = allocate(294, [busy, idle]);
  assert.ok(Math.abs(allocs[0] + allocs[1] - 294) < 1e-6);
  assert.ok(Math.abs(allocs[0] - 270) < 1e-6, String(allocs));
  assert.ok(Math.abs(allocs[1] - 24) < 1e-6, String(allocs));
  // Both busy: each keeps at least its nominal share of the demand it had.
  const both = allocate(294, [
    busy,
    allocationItem({ nominalCL: 245, lendableCL: 221, minCL: 24, maxCL: 845 }, { highWatermark: 500, average: 500 }),
  ]);
  assert.ok(both[0] >= 49 - 1e-6 && both[1] >= 245 - 1e-6, String(both));
});

test('LIST seats: stored objects per 100, up to the level maximum; GETs and watches one seat', () => {
  const info = (path: string) => parseRequestInfo('GET', path);
  const inputs = { stored: 5000, maxSeats: 8, chunking: true, consistentFromCache: false };
  assert.equal(estimateSeats(info('/api/v1/namespaces/a/configmaps/x'), inputs), 1);
  assert.equal(estimateSeats(info('/api/v1/namespaces/a/configmaps?watch=true'), inputs), 1);
  assert.equal(estimateSeats(info('/api/v1/namespaces/a/configmaps'), inputs), 8);
  assert.equal(estimateSeats(info('/api/v1/namespaces/a/configmaps?resourceVersion=0'), { ...inputs, maxSeats: 100 }), 50);
  // From storage, paged: twice the page; with a selector: the stored objects and the page.
  assert.equal(estimateSeats(info('/api/v1/configmaps?limit=100'), { ...inputs, maxSeats: 100 }), 2);
  assert.equal(estimateSeats(info('/api/v1/configmaps?limit=100&labelSelector=a%3Db'), { ...inputs, maxSeats: 100 }), 51);
  assert.equal(estimateSeats(info('/api/v1/configmaps'), { ...inputs, stored: undefined }), 1);
  assert.equal(estimateSeats(info('/api/v1/configmaps'), { ...inputs, stored: 0 }), 1);
});
