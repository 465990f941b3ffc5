import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StorageError } from '../../../../apiserver/storage/errors.js';
import type { Storage, StorageEvent, WatchHandlers } from '../../../../apiserver/storage/interfaces.js';
import { StoreFeed } from '../../../../apiserver/storage/cacher/store-feed.js';

/** A storage whose watches the test drives by hand. */
function fakeStorage(revision: number) {
  const watches: { prefix: string; after: number; handlers: WatchHandlers; stopped: boolean }[] = [];
  const storage = {
    revision,
    watches,
    async currentRevision() {
      return storage.revision;
    },
    watch(prefix: string, options: { afterRevision: number }, handlers: WatchHandlers) {
      const w = { prefix, after: options.afterRevision, handlers, stopped: false };
      watches.push(w);
      return { stop: () => (w.stopped = true) };
    },
  };
  return storage;
}

const put = (key: string, rev: number): StorageEvent => ({
  type: 'put',
  kv: { key, value: Buffer.from('{}'), createRevision: rev, modRevision: rev },
});

test('follows the store from its current revision and resumes after a failure without a gap', async () => {
  const storage = fakeStorage(10);
  const seen: number[] = [];
  const feed = new StoreFeed(
    storage as unknown as Storage,
    '/registry/',
    { onEvent: (e) => seen.push(e.kv.modRevision), onReset: () => assert.fail('no reset') },
    { retryDelayMs: 5 },
  );
  await feed.start();
  assert.deepEqual([storage.watches[0].prefix, storage.watches[0].after], ['/registry/', 10]);
  assert.equal(feed.running, true);
  storage.watches[0].handlers.onEvent(put('/registry/a', 11));
  storage.watches[0].handlers.onEvent(put('/registry/b', 12));
  storage.watches[0].handlers.onError(new StorageError('Unavailable', '/registry/'));
  assert.equal(feed.running, false);
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(storage.watches.length, 2);
  assert.equal(storage.watches[1].after, 12, 'resumes after the last revision delivered');
  assert.equal(feed.running, true);
  assert.deepEqual(seen, [11, 12]);
  feed.close();
  assert.equal(storage.watches[1].stopped, true);
});

test('after a compaction overtook it, restarts at the current revision and asks for a rebuild', async () => {
  const storage = fakeStorage(10);
  const resets: number[] = [];
  const feed = new StoreFeed(storage as unknown as Storage, '/registry/', { onEvent: () => {}, onReset: (r) => resets.push(r) });
  await feed.start();
  storage.revision = 50;
  storage.watches[0].handlers.onError(new StorageError('Compacted', '/registry/', { revision: 40 }));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(resets, [50]);
  assert.equal(storage.watches[1].after, 50);
  assert.equal(feed.revision, 50);
  feed.close();
});

test('waitFor resolves once the revision is delivered, false on timeout or close', async () => {
  const storage = fakeStorage(10);
  const feed = new StoreFeed(storage as unknown as Storage, '/registry/', { onEvent: () => {}, onReset: () => {} });
  await feed.start();
  assert.equal(await feed.waitFor(10, 1000), true);
  const waiting = feed.waitFor(12, 1000);
  assert.equal(feed.behind, true);
  storage.watches[0].handlers.onEvent(put('/registry/a', 13));
  assert.equal(await waiting, true);
  assert.equal(feed.behind, false);
  assert.equal(await feed.waitFor(20, 10), false);
  const pending = feed.waitFor(20, 1000);
  feed.close();
  assert.equal(await pending, false);
});
