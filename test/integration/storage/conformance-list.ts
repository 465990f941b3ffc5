/** Conformance: lists at revisions, prefixes, paging. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { KeyValue } from '../../../apiserver/storage/interfaces.js';
import { buf, nextKey, rejectsWith, type Fixture } from './fixture.js';

/** Registers the list tests; fx() is the running test's fixture. */
export function describeList(fx: () => Fixture): void {
  describe('list', () => {
    test('reads a past revision: old values, no later keys, keys deleted later still there', async () => {
      const { storage, ns } = fx();
      const a1 = await storage.create(`${ns}a`, buf('a1'));
      const b1 = await storage.create(`${ns}b`, buf('b1'));
      const past = await storage.currentRevision();
      const a2 = await storage.update(`${ns}a`, buf('a2'), a1.modRevision);
      const c1 = await storage.create(`${ns}c`, buf('c1'));
      await storage.delete(`${ns}b`);

      assert.deepEqual(await storage.list(ns, { revision: past }), { items: [a1, b1], revision: past, more: false, remaining: 0 });
      const now = await storage.list(ns);
      assert.deepEqual(now, { items: [a2, c1], revision: await storage.currentRevision(), more: false, remaining: 0 });
    });

    test('a prefix covers only keys under it, in byte order', async () => {
      const { storage, ns } = fx();
      for (const key of ['a/2', 'a/1', 'a/10', 'ab/1', 'a', 'b/1']) await storage.create(`${ns}${key}`, buf(key));
      const { items } = await storage.list(`${ns}a/`);
      assert.deepEqual(
        items.map((kv) => kv.key),
        ['a/1', 'a/10', 'a/2'].map((key) => `${ns}${key}`),
      );
      assert.deepEqual(await storage.list(`${ns}zzz/`), {
        items: [],
        revision: await storage.currentRevision(),
        more: false,
        remaining: 0,
      });
    });

    test('pages with limit and startKey across the whole prefix', async () => {
      const { storage, ns } = fx();
      const keys = ['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6'].map((k) => `${ns}${k}`);
      for (const key of keys) await storage.create(key, buf(key));
      await storage.create(`${ns.slice(0, -1)}x/outside`, buf('outside'));

      const page1 = await storage.list(ns, { limit: 3 });
      assert.deepEqual([page1.items.map((kv) => kv.key), page1.more, page1.remaining], [keys.slice(0, 3), true, 4]);
      const page2 = await storage.list(ns, { limit: 3, startKey: nextKey(page1), revision: page1.revision });
      assert.deepEqual([page2.items.map((kv) => kv.key), page2.more, page2.remaining], [keys.slice(3, 6), true, 1]);
      const page3 = await storage.list(ns, { limit: 3, startKey: nextKey(page2), revision: page1.revision });
      assert.deepEqual([page3.items.map((kv) => kv.key), page3.more, page3.remaining], [keys.slice(6), false, 0]);
      assert.equal(page3.revision, page1.revision);

      const exact = await storage.list(ns, { limit: keys.length });
      assert.deepEqual([exact.items.length, exact.more, exact.remaining], [keys.length, false, 0]);
      const unlimited = await storage.list(ns, { limit: 0 });
      assert.deepEqual(
        unlimited.items.map((kv) => kv.key),
        keys,
      );
      const fromKey = await storage.list(ns, { startKey: keys[5] });
      assert.deepEqual(
        fromKey.items.map((kv) => kv.key),
        keys.slice(5),
      );
    });

    test('paging at a fixed revision is a consistent snapshot while writes continue', async () => {
      const { storage, ns } = fx();
      const snapshot: KeyValue[] = [];
      for (let i = 0; i < 10; i++) snapshot.push(await storage.create(`${ns}k${i}`, buf(`v${i}`)));

      const pages: KeyValue[][] = [];
      let page = await storage.list(ns, { limit: 4 });
      const revision = page.revision;
      pages.push(page.items);
      let writes = 0;
      while (page.more) {
        // Change keys on both sides of the cursor before reading the next page.
        const victim = snapshot[(writes * 3) % snapshot.length];
        const current = await storage.get(victim.key);
        if (current) await storage.delete(victim.key);
        else await storage.create(victim.key, buf('recreated'));
        await storage.create(`${ns}k${writes}-new`, buf('new'));
        writes++;
        page = await storage.list(ns, { limit: 4, startKey: nextKey(page), revision });
        assert.equal(page.revision, revision);
        pages.push(page.items);
      }
      assert.deepEqual(
        pages.map((p) => p.length),
        [4, 4, 2],
      );
      assert.deepEqual(pages.flat(), snapshot);
    });

    test('a revision newer than the current one is FutureRevision', async () => {
      const { storage, ns } = fx();
      await storage.create(`${ns}a`, buf('a'));
      const current = await storage.currentRevision();
      const err = await rejectsWith(storage.list(ns, { revision: current + 100 }), 'FutureRevision');
      assert.equal(err.revision, current);
      assert.equal(err.requestedRevision, current + 100);
    });

    test('startKey outside the prefix is refused', async () => {
      const { storage, ns } = fx();
      await assert.rejects(storage.list(`${ns}a/`, { startKey: `${ns}b/1` }), /not under prefix/);
    });
  });
}
