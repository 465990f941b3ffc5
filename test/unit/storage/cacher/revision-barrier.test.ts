import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RevisionBarrier } from '../../../../apiserver/storage/cacher/revision-barrier.js';

/** A store whose currentRevision calls stay pending until released, counting them. */
function pendingStore() {
  const calls: ((rev: number) => void)[] = [];
  return { calls, currentRevision: () => new Promise<number>((resolve) => calls.push(resolve)) };
}

test('an asker never gets the answer of a request that started before it asked', async () => {
  const store = pendingStore();
  const barrier = new RevisionBarrier(store.currentRevision);
  const first = barrier.current();
  assert.equal(store.calls.length, 1);
  // These arrive while the first request is in flight: they share the next one.
  const second = barrier.current();
  const third = barrier.current();
  assert.equal(store.calls.length, 1);
  store.calls[0](5);
  assert.equal(await first, 5);
  await new Promise((r) => setImmediate(r));
  assert.equal(store.calls.length, 2, 'the queued request starts when the first ends');
  store.calls[1](7);
  assert.equal(await second, 7);
  assert.equal(await third, 7);
});

test('a failure reaches its askers and does not block later ones', async () => {
  let n = 0;
  const barrier = new RevisionBarrier(async () => {
    if (++n === 1) throw new Error('down');
    return 9;
  });
  await assert.rejects(barrier.current(), /down/);
  assert.equal(await barrier.current(), 9);
});
