import assert from 'node:assert/strict';
import { test } from 'node:test';
import { latencyQuantilesMs, parseRequestBuckets } from '../../../../scripts/bench/request-latency.js';

const m = 'apiserver_request_duration_seconds_bucket';
function scrape(counts: Record<string, number[]>): string {
  const bounds = ['0.005', '0.025', '0.1', '1', '+Inf'];
  const lines = ['# HELP apiserver_request_duration_seconds x', '# TYPE apiserver_request_duration_seconds histogram'];
  for (const [verb, cs] of Object.entries(counts))
    for (const resource of ['pods', 'nodes'])
      bounds.forEach((le, i) =>
        lines.push(
          `${m}{component="apiserver",dry_run="",group="",resource="${resource}",scope="namespace",subresource="",verb="${verb}",version="v1",le="${le}"} ${cs[i]}`,
        ),
      );
  lines.push('apiserver_request_duration_seconds_sum{verb="GET"} 3', 'apiserver_request_duration_seconds_count{verb="GET"} 10');
  return lines.join('\n');
}

test('sums the buckets of every label set per verb and leaves the long-running verbs out', () => {
  const b = parseRequestBuckets(scrape({ GET: [1, 2, 3, 4, 5], WATCH: [0, 0, 0, 0, 9], CONNECT: [1, 1, 1, 1, 1] }));
  assert.deepEqual([...b.keys()], ['GET']);
  assert.deepEqual(
    [...b.get('GET')!.entries()],
    [
      [0.005, 2],
      [0.025, 4],
      [0.1, 6],
      [1, 8],
      [Number.POSITIVE_INFINITY, 10],
    ],
  );
});

test('interpolates the quantile inside its bucket over the requests between two scrapes', () => {
  const before = parseRequestBuckets(scrape({ GET: [10, 10, 10, 10, 10] }));
  // 100 GETs more per label set, 200 in all: 100 under 5 ms, 80 in (5, 25] ms, 20 in (25, 100] ms
  const after = parseRequestBuckets(scrape({ GET: [60, 100, 110, 110, 110], POST: [0, 0, 0, 1, 1] }));
  const q = latencyQuantilesMs(before, after, 0.99);
  // rank 198 of 200: the (25, 100] ms bucket holds ranks 181..200, so 25 + 75 × 18/20
  assert.deepEqual(q.get('GET'), { count: 200, ms: 92.5 });
  // both POSTs in (0.1, 1] s: rank 1.98 of 2, 100 + 900 × 1.98/2
  assert.deepEqual(q.get('POST'), { count: 2, ms: 991 });
  assert.equal(latencyQuantilesMs(after, after, 0.99).size, 0, 'no requests between the scrapes: no figure');
});

test('a quantile in the +Inf bucket answers the highest finite bound', () => {
  const after = parseRequestBuckets(scrape({ LIST: [0, 0, 0, 0, 3] }));
  assert.deepEqual(latencyQuantilesMs(new Map(), after, 0.99).get('LIST'), { count: 6, ms: 1000 });
});
