/** Conformance: watches (order, gaps, replay vs live, key matching, stop, errors). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KeyValue, StorageEvent } from '../../../apiserver/storage/interfaces.js';
import { buf, type Fixture } from './fixture.js';
import { settle, WatchRecorder } from './recorder.js';

/** Registers the watch tests; fx() is the running test's fixture. */
export function describeWatch(fx: () => Fixture): void {
  describe('watch', () => {
    test('delivers exactly the events after a revision, in order, replayed or live', async () => {
      const { storage, ns } = fx();
      const start = await storage.currentRevision();
      const live = new WatchRecorder(storage, ns, start);

      const a1 = await storage.create(`${ns}a`, buf('a1'));
      const a2 = await storage.update(`${ns}a`, buf('a2'), a1.modRevision);
      const b1 = await storage.create(`${ns}b`, buf('b1'));
      const aDeleted = await storage.delete(`${ns}a`);
      const a3 = await storage.create(`${ns}a`, buf('a3'));
      const b2 = await storage.update(`${ns}b`, buf('b2'), b1.modRevision);
      const expected: StorageEvent[] = [
        { type: 'put', kv: a1 },
        { type: 'put', kv: a2, prev: a1 },
        { type: 'put', kv: b1 },
        { type: 'delete', kv: { ...a2, modRevision: aDeleted.modRevision }, prev: a2 },
        { type: 'put', kv: a3 },
        { type: 'put', kv: b2, prev: b1 },
      ];
      assert.deepEqual(aDeleted, expected[3].kv);

      const replay = new WatchRecorder(storage, ns, start);
      const fromMiddle = new WatchRecorder(storage, ns, a2.modRevision);
      try {
        assert.deepEqual(await live.waitForEvents(6), expected);
        assert.deepEqual(await replay.waitForEvents(6), expected);
        assert.deepEqual(await fromMiddle.waitForEvents(4), expected.slice(2));
        await settle();
        assert.deepEqual([live.events.length, replay.events.length, fromMiddle.events.length], [6, 6, 4]);
      } finally {
        for (const w of [live, replay, fromMiddle]) w.stop();
      }
    });

    test('watches started while writes are in flight see every event once, without gaps', async () => {
      const { storage, ns } = fx();
      const start = await storage.currentRevision();
      const writes: Promise<KeyValue>[] = [];
      const watchers: WatchRecorder[] = [];
      for (let i = 0; i < 60; i++) {
        writes.push(storage.create(`${ns}k${i}`, buf(String(i))));
        if (i % 15 === 0) {
          watchers.push(new WatchRecorder(storage, ns, start));
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      const revisions = (await Promise.all(writes)).map((kv) => kv.modRevision).sort((x, y) => x - y);
      try {
        for (const watcher of watchers) {
          const events = await watcher.waitForEvents(revisions.length);
          assert.deepEqual(
            events.map((e) => e.kv.modRevision),
            revisions,
          );
        }
      } finally {
        for (const w of watchers) w.stop();
      }
    });

    test('a prefix ending in / covers keys under it; anything else is one exact key', async () => {
      const { storage, ns } = fx();
      const prefix = new WatchRecorder(storage, `${ns}a/`, await storage.currentRevision());
      const exactA = new WatchRecorder(storage, `${ns}a`, await storage.currentRevision());
      const exactAX = new WatchRecorder(storage, `${ns}a/x`, await storage.currentRevision());
      try {
        for (const key of ['a/x', 'ab/y', 'a', 'a/x/y', 'a/xy', 'b']) await storage.create(`${ns}${key}`, buf(key));
        // Sentinels: events come in revision order, so once a watch delivered a write, it delivered all before.
        const aX = await storage.get(`${ns}a/x`);
        const aXSentinel = await storage.update(`${ns}a/x`, buf('sentinel'), aX!.modRevision);
        const a = await storage.get(`${ns}a`);
        const aSentinel = await storage.update(`${ns}a`, buf('sentinel'), a!.modRevision);

        await prefix.waitForRevision(aXSentinel.modRevision);
        await exactAX.waitForRevision(aXSentinel.modRevision);
        await exactA.waitForRevision(aSentinel.modRevision);
        await settle();
        const keysOf = (w: WatchRecorder): string[] => w.events.map((e) => e.kv.key.slice(ns.length));
        assert.deepEqual(keysOf(prefix), ['a/x', 'a/x/y', 'a/xy', 'a/x']);
        assert.deepEqual(keysOf(exactAX), ['a/x', 'a/x']);
        assert.deepEqual(keysOf(exactA), ['a', 'a']);
      } finally {
        for (const w of [prefix, exactA, exactAX]) w.stop();
      }
    });

    test('stop ends delivery, is idempotent and never reports an error', async () => {
      const { storage, ns } = fx();
      const watcher = new WatchRecorder(storage, ns, await storage.currentRevision());
      const first = await storage.create(`${ns}a`, buf('1'));
      await watcher.waitForEvents(1);
      watcher.stop();
      watcher.stop();
      await storage.update(`${ns}a`, buf('2'), first.modRevision);
      await settle();
      assert.deepEqual([watcher.events.length, watcher.errors.length], [1, 0]);
    });

    test('stop right after starting delivers nothing, even events already due', async () => {
      const { storage, ns } = fx();
      const a = await storage.create(`${ns}a`, buf('1'));
      const watcher = new WatchRecorder(storage, ns, a.modRevision - 1);
      watcher.stop();
      await storage.create(`${ns}b`, buf('2'));
      await settle();
      assert.deepEqual([watcher.events.length, watcher.errors.length], [0, 0]);
    });

    test('a handler that throws ends the watch with what it threw', async () => {
      const { storage, ns } = fx();
      const errors: Error[] = [];
      let calls = 0;
      const watcher = storage.watch(
        ns,
        { afterRevision: await storage.currentRevision() },
        {
          onEvent: () => {
            calls++;
            throw new Error('handler broke');
          },
          onError: (err) => errors.push(err),
        },
      );
      await storage.create(`${ns}a`, buf('1'));
      await storage.create(`${ns}b`, buf('2'));
      await waitUntil(() => errors.length > 0);
      await settle();
      assert.equal(calls, 1);
      assert.deepEqual(
        errors.map((e) => e.message),
        ['handler broke'],
      );
      watcher.stop();
    });

    test('a watch from a future revision waits for it', async () => {
      const { storage, ns } = fx();
      const current = await storage.currentRevision();
      const watcher = new WatchRecorder(storage, ns, current + 2);
      try {
        await storage.create(`${ns}a`, buf('1'));
        await storage.create(`${ns}b`, buf('2'));
        const c = await storage.create(`${ns}c`, buf('3'));
        assert.deepEqual(await watcher.waitForEvents(1), [{ type: 'put', kv: c }]);
        await settle();
        assert.equal(watcher.events.length, 1);
      } finally {
        watcher.stop();
      }
    });
  });
}

async function waitUntil(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await settle(5);
  }
}
