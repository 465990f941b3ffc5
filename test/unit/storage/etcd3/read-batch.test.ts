import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_BATCH, ReadBatcher } from '../../../../apiserver/storage/etcd3/read-batch.js';

/** A batcher over a fake store that records each request's keys and answers `value:<key>`. */
function recording(fail?: Error): { requests: string[][]; batcher: ReadBatcher<string> } {
  const requests: string[][] = [];
  const batcher = new ReadBatcher<string>(async (keys) => {
    requests.push(keys);
    if (fail) throw fail;
    return keys.map((k) => `value:${k}`);
  });
  return { requests, batcher };
}

test('ReadBatcher: reads asked for in one turn go as one request, each answered with its own value', async () => {
  const { requests, batcher } = recording();
  const answers = await Promise.all(['a', 'b', 'a', 'c'].map((k) => batcher.read(k)));
  assert.deepEqual(answers, ['value:a', 'value:b', 'value:a', 'value:c']);
  assert.deepEqual(requests, [['a', 'b', 'a', 'c']]);
});

test('ReadBatcher: a read asked for after a batch was sent goes in the next request', async () => {
  const { requests, batcher } = recording();
  const first = batcher.read('a');
  await new Promise((resolve) => setImmediate(resolve));
  const second = batcher.read('b');
  assert.deepEqual(await Promise.all([first, second]), ['value:a', 'value:b']);
  assert.deepEqual(requests, [['a'], ['b']]);
});

test('ReadBatcher: a turn with more than MAX_BATCH reads is split into requests of at most MAX_BATCH', async () => {
  const { requests, batcher } = recording();
  const keys = Array.from({ length: MAX_BATCH * 2 + 1 }, (_, i) => `k${i}`);
  const answers = await Promise.all(keys.map((k) => batcher.read(k)));
  assert.deepEqual(
    answers,
    keys.map((k) => `value:${k}`),
  );
  assert.deepEqual(
    requests.map((r) => r.length),
    [MAX_BATCH, MAX_BATCH, 1],
  );
});

test('ReadBatcher: a failed request fails every read it carried', async () => {
  const boom = new Error('unavailable');
  const { batcher } = recording(boom);
  const results = await Promise.allSettled([batcher.read('a'), batcher.read('b')]);
  assert.deepEqual(
    results.map((r) => r.status === 'rejected' && r.reason),
    [boom, boom],
  );
});
