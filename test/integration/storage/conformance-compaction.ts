/** Conformance: compaction, compacted revisions and the compactor. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createLogger } from 'winston';
import { COMPACT_REV_KEY, startCompactor } from '../../../apiserver/storage/compactor.js';
import { isStorageError } from '../../../apiserver/storage/errors.js';
import { ALONGSIDE_ROOT, type Storage } from '../../../apiserver/storage/interfaces.js';
import { eventually } from '../../support/eventually.js';
import { buf, rejectsWith, type Fixture } from './fixture.js';
import { settle, WatchRecorder } from './recorder.js';

/** Registers the compaction tests; fx() is the running test's fixture. */
export function describeCompaction(fx: () => Fixture): void {
  describe('compaction', () => {
    test('reads and watches below the compacted revision fail with Compacted', async () => {
      const { storage, ns } = fx();
      const a1 = await storage.create(`${ns}a`, buf('a1'));
      const a2 = await storage.update(`${ns}a`, buf('a2'), a1.modRevision);
      await storage.create(`${ns}gone`, buf('x'));
      await storage.delete(`${ns}gone`);
      const compactedAt = await storage.currentRevision();
      const b1 = await storage.create(`${ns}b`, buf('b1'));

      await storage.compact(compactedAt);
      assert.equal(await storage.compactedRevision(), compactedAt);

      const listErr = await rejectsWith(storage.list(ns, { revision: a1.modRevision }), 'Compacted');
      assert.deepEqual([listErr.revision, listErr.requestedRevision], [compactedAt, a1.modRevision]);
      assert.deepEqual((await storage.list(ns, { revision: compactedAt })).items, [a2]);
      assert.deepEqual((await storage.list(ns)).items, [a2, b1]);

      const below = new WatchRecorder(storage, ns, compactedAt - 1);
      const fromZero = new WatchRecorder(storage, ns, 0);
      const atCompaction = new WatchRecorder(storage, ns, compactedAt);
      try {
        for (const watcher of [below, fromZero]) {
          const err = await watcher.waitForError();
          assert.ok(isStorageError(err, 'Compacted'), String(err));
          assert.equal(err.revision, compactedAt);
        }
        const a3 = await storage.update(`${ns}a`, buf('a3'), a2.modRevision);
        assert.deepEqual(await atCompaction.waitForEvents(2), [
          { type: 'put', kv: b1 },
          { type: 'put', kv: a3, prev: a2 },
        ]);
        await settle();
        assert.deepEqual([below.events.length, below.errors.length, fromZero.errors.length], [0, 1, 1]);
      } finally {
        for (const w of [below, fromZero, atCompaction]) w.stop();
      }
    });

    test('compacting to an older revision is a no-op; to a future one is FutureRevision', async () => {
      const { storage, ns } = fx();
      const a = await storage.create(`${ns}a`, buf('a'));
      await storage.create(`${ns}b`, buf('b'));
      const current = await storage.currentRevision();
      await storage.compact(current);
      await storage.compact(a.modRevision);
      assert.equal(await storage.compactedRevision(), current);
      const err = await rejectsWith(storage.compact(current + 10), 'FutureRevision');
      assert.equal(err.requestedRevision, current + 10);
      assert.equal(await storage.compactedRevision(), current);
    });

    test('compacting away the newest write keeps the revision counter and deleted keys stay deleted', async () => {
      const { storage, ns } = fx();
      const a = await storage.create(`${ns}a`, buf('a'));
      const deleted = await storage.delete(`${ns}a`);
      await storage.compact(deleted.modRevision);
      assert.equal(await storage.currentRevision(), deleted.modRevision);
      assert.deepEqual((await storage.list(ns, { revision: deleted.modRevision })).items, []);
      assert.equal(await storage.get(`${ns}a`), null);
      const again = await storage.create(`${ns}a`, buf('again'));
      assert.equal(again.modRevision, deleted.modRevision + 1);
      assert.ok(again.createRevision > a.createRevision);
    });

    test('compactor: two replicas on one store compact at most once per interval', async () => {
      const { storage, ns } = fx();
      const intervalMs = 80;
      const logger = createLogger({ silent: true });
      const replicas = [spyOnCompaction(storage), spyOnCompaction(storage)];
      const started = Date.now();
      const compactors = replicas.map((replica) => startCompactor(replica.storage, { intervalMs, logger }));
      let kv = await storage.create(`${ns}ticker`, buf('0'));
      while (Date.now() - started < 10 * intervalMs) {
        kv = await storage.update(kv.key, buf(String(Number(kv.value.toString()) + 1)), kv.modRevision);
        await settle(5);
      }
      await Promise.all(compactors.map((c) => c.stop()));
      const elapsed = Date.now() - started;

      const compactions = replicas.flatMap((r) => r.compactions).sort((x, y) => x.at - y.at);
      for (const replica of replicas) assert.ok(replica.rounds >= 5, `a replica ran only ${replica.rounds} rounds`);
      assert.ok(compactions.length >= 3, `only ${compactions.length} compactions`);
      assert.ok(compactions.length <= Math.floor(elapsed / intervalMs) + 1, `${compactions.length} compactions in ${elapsed} ms`);
      for (let i = 1; i < compactions.length; i++) {
        assert.ok(compactions[i].at - compactions[i - 1].at >= intervalMs / 2, 'two compactions within one interval');
        assert.ok(compactions[i].revision > compactions[i - 1].revision);
      }
      const last = compactions[compactions.length - 1];
      assert.equal(await storage.compactedRevision(), last.revision);
      // The winner of a round records its target in COMPACT_REV_KEY before compacting.
      assert.equal((await storage.get(COMPACT_REV_KEY))?.value.toString(), String(last.revision));
    });

    test('compactor with a retention keeps every revision younger than it, within the size bound', async () => {
      const { storage, ns } = fx();
      const logger = createLogger({ silent: true });
      const written: { at: number; revision: number }[] = [];
      const retentionMs = 400;
      const compactor = startCompactor(storage, { intervalMs: 50, retentionMs, logger });
      const started = Date.now();
      let compacted = await storage.compactedRevision();
      const initial = compacted;
      for (let i = 0; Date.now() - started < 1500; i++) {
        const kv = await storage.create(`${ns}r${i}`, buf('x'));
        written.push({ at: Date.now(), revision: kv.modRevision });
        compacted = await storage.compactedRevision();
        // Every revision written within the retention (less one round) is still readable.
        const young = written.find((w) => w.at >= Date.now() - retentionMs + 100);
        if (young) assert.ok(compacted <= young.revision, `compacted ${compacted} past ${young.revision}`);
        await settle(20);
      }
      await compactor.stop();
      assert.ok(compacted > initial, 'something older than the retention was compacted');
      // The size bound: with a long retention, at most maxRevisions stay.
      const bounded = startCompactor(storage, { intervalMs: 50, retentionMs: 3_600_000, maxRevisions: 5, logger });
      const before = await storage.currentRevision();
      for (let i = 0; i < 20; i++) await storage.create(`${ns}m${i}`, buf('x'));
      await settle(300);
      await bounded.stop();
      // Rounds after the 20 writes observed at least before + 20 and compacted to 5 below it.
      const bound = await storage.compactedRevision();
      assert.ok(bound >= before + 15, `the size bound compacted to ${bound} (writes from ${before})`);
      assert.ok(bound <= (await storage.currentRevision()) - 5);
    });

    test('historyBoundRevision: the lowest revision leaving at most maxBytes of superseded revisions, objects and alongside keys alike', async () => {
      const { storage, ns } = fx();
      await storage.compact(await storage.currentRevision());
      const key = `${ns}h`;
      const side = `${ALONGSIDE_ROOT}${ns.slice(1)}h`;
      const value = (i: number) => buf(String(i).padStart(100, '0'));
      const alongside = { key: side, value: buf('r'.repeat(20)) };
      let kv = await storage.create(key, value(0), { alongside });
      const revisions: number[] = [];
      for (let i = 1; i <= 10; i++) {
        kv = await storage.update(key, value(i), kv.modRevision, { alongside });
        revisions.push(kv.modRevision);
      }
      // Each update supersedes one revision of the key and one of its alongside key.
      const per = Buffer.byteLength(key) + 100 + Buffer.byteLength(side) + 20;
      // etcd's backend learns its history's bytes from a watch: it answers 0 until it has caught up.
      const bound = (maxBytes: number) =>
        eventually('a bound revision', async () => {
          const r = await storage.historyBoundRevision(maxBytes);
          return r > 0 && r;
        });
      // Newest first: the 10th, 9th and 8th updates' superseded revisions fit 3.5 of them, the 7th's passes.
      assert.equal(await bound(per * 3.5), revisions[6]);
      assert.equal(await bound(per * 3), revisions[6]);
      assert.equal(await bound(per * 2.99), revisions[7]);
      assert.equal(await storage.historyBoundRevision(per * 10), 0);
      await storage.compact(revisions[6]);
      // What the compaction dropped no longer counts; the current revision never did.
      assert.equal(await storage.historyBoundRevision(per * 3), 0);
      assert.equal(await bound(per * 2.5), revisions[7]);
      assert.deepEqual((await storage.get(key))?.value, value(10));
      assert.deepEqual((await storage.get(side))?.value, alongside.value);
    });

    test('compactor: intervalMs 0 disables it', async () => {
      const { storage, ns } = fx();
      const before = await storage.get(COMPACT_REV_KEY);
      const compactedBefore = await storage.compactedRevision();
      const compactor = startCompactor(storage, { intervalMs: 0, logger: createLogger({ silent: true }) });
      await storage.create(`${ns}a`, buf('a'));
      await settle(100);
      await compactor.stop();
      assert.deepEqual(await storage.get(COMPACT_REV_KEY), before);
      assert.equal(await storage.compactedRevision(), compactedBefore);
    });
  });
}

/** A view of storage that records its compactor traffic: rounds (writes of COMPACT_REV_KEY) and compactions. */
function spyOnCompaction(storage: Storage): {
  storage: Storage;
  rounds: number;
  compactions: { revision: number; at: number }[];
} {
  const spy = {
    rounds: 0,
    compactions: [] as { revision: number; at: number }[],
    storage: {
      create: (key, value) => {
        if (key === COMPACT_REV_KEY) spy.rounds++;
        return storage.create(key, value);
      },
      update: (key, value, expected) => {
        if (key === COMPACT_REV_KEY) spy.rounds++;
        return storage.update(key, value, expected);
      },
      compact: async (revision) => {
        spy.compactions.push({ revision, at: Date.now() });
        await storage.compact(revision);
      },
      createBatch: (creates) => storage.createBatch(creates),
      get: (key) => storage.get(key),
      list: (prefix, options) => storage.list(prefix, options),
      delete: (key, expected) => storage.delete(key, expected),
      watch: (prefix, options, handlers) => storage.watch(prefix, options, handlers),
      currentRevision: () => storage.currentRevision(),
      compactedRevision: () => storage.compactedRevision(),
      historyBoundRevision: (maxBytes) => storage.historyBoundRevision(maxBytes),
      alongsideHistory: (key, ownerKey, options) => storage.alongsideHistory(key, ownerKey, options),
      close: () => storage.close(),
    } satisfies Storage,
  };
  return spy;
}
