import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { describe, test } from 'node:test';
import { TaskCancelledError } from 'cockatiel';
import { isStorageError } from '../../../apiserver/storage/errors.js';
import { newEtcdStorage } from '../../../apiserver/storage/etcd3/index.js';
import { startEtcd, useEtcd } from '../../support/etcd.js';
import { runStorageConformance } from './conformance.js';
import { WatchRecorder } from './recorder.js';

describe('etcd3', () => {
  const endpoint = useEtcd();

  runStorageConformance('etcd3', async () => {
    const storage = newEtcdStorage({ endpoints: [endpoint()] });
    return { storage, cleanup: () => storage.close() };
  });

  test('etcd3: gets asked for together (one read-only transaction) each see their own key, present or absent', async () => {
    const storage = newEtcdStorage({ endpoints: [endpoint()] });
    try {
      const created = await Promise.all(['a', 'b', 'c'].map((n) => storage.create(`/batch/${n}`, Buffer.from(n))));
      const got = await Promise.all(['/batch/c', '/batch/none', '/batch/a', '/batch/b', '/batch/a'].map((k) => storage.get(k)));
      assert.deepEqual(
        got.map((kv) => kv && [kv.key, kv.value.toString(), kv.modRevision]),
        [
          ['/batch/c', 'c', created[2].modRevision],
          null,
          ['/batch/a', 'a', created[0].modRevision],
          ['/batch/b', 'b', created[1].modRevision],
          ['/batch/a', 'a', created[0].modRevision],
        ],
      );
      // A write acknowledged before the next gets were asked for is seen by all of them.
      const updated = await storage.update('/batch/a', Buffer.from('a2'), created[0].modRevision);
      const again = await Promise.all(['/batch/a', '/batch/a', '/batch/b'].map((k) => storage.get(k)));
      assert.deepEqual(
        again.map((kv) => kv?.modRevision),
        [updated.modRevision, updated.modRevision, created[1].modRevision],
      );
    } finally {
      await storage.close();
    }
  });

  test('etcd3: compactedRevision finds a compaction made by another client', async () => {
    const observer = newEtcdStorage({ endpoints: [endpoint()] });
    const compactor = newEtcdStorage({ endpoints: [endpoint()] });
    try {
      const kv = await compactor.create(`/other-${Date.now()}`, Buffer.from('x'));
      await compactor.create(`/other-${Date.now()}-2`, Buffer.from('y'));
      await compactor.compact(kv.modRevision);
      assert.equal(await observer.compactedRevision(), kv.modRevision);
      const latest = await compactor.currentRevision();
      await compactor.compact(latest);
      assert.equal(await observer.compactedRevision(), latest);
    } finally {
      await observer.close();
      await compactor.close();
    }
  });
});

describe('etcd3 availability', () => {
  test('etcd3: a fresh etcd reports nothing compacted; a watch fails with Unavailable when etcd goes away', async () => {
    const etcd = await startEtcd();
    const storage = newEtcdStorage({ endpoints: [etcd.endpoint] });
    try {
      assert.equal(await storage.compactedRevision(), 0);
      const watcher = new WatchRecorder(storage, '/w/', await storage.currentRevision());
      await storage.create('/w/a', Buffer.from('a'));
      await watcher.waitForEvents(1);
      await etcd.stop();
      const err = await watcher.waitForError();
      assert.ok(isStorageError(err, 'Unavailable'), String(err));
      await assert.rejects(storage.get('/w/a'), (e) => isStorageError(e, 'Unavailable'));
    } finally {
      await storage.close();
      await etcd.stop();
    }
  });

  test('etcd3: requests to an unreachable etcd fail with Unavailable', async () => {
    const etcd = await startEtcd();
    await etcd.stop();
    const storage = newEtcdStorage({ endpoints: [etcd.endpoint], requestTimeoutMs: 2000 });
    try {
      await assert.rejects(storage.create('/u/a', Buffer.from('a')), (e) => isStorageError(e, 'Unavailable'));
      await assert.rejects(storage.list('/u/'), (e) => isStorageError(e, 'Unavailable'));
      const watcher = new WatchRecorder(storage, '/u/', 0);
      assert.ok(isStorageError(await watcher.waitForError(), 'Unavailable'));
    } finally {
      await storage.close();
    }
  });

  test('etcd3: a request to an etcd that never answers fails with Unavailable once requestTimeoutMs is spent, retries included', async () => {
    const sockets: Socket[] = [];
    const blackHole = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
    const address = blackHole.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const storage = newEtcdStorage({ endpoints: [`http://127.0.0.1:${port}`], requestTimeoutMs: 500 });
    try {
      const started = Date.now();
      await assert.rejects(storage.get('/h/a'), (e) => isStorageError(e, 'Unavailable') && e.cause instanceof TaskCancelledError);
      const elapsed = Date.now() - started;
      assert.ok(elapsed >= 500, `failed before the budget was spent (${elapsed} ms)`);
      // The client's default gave each of 3 tries the full deadline (≥ 1500 ms).
      assert.ok(elapsed < 1000, `took ${elapsed} ms for a 500 ms budget`);
    } finally {
      await storage.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => blackHole.close(resolve));
    }
  });
});
