/**
 * Conformance: WriteOptions.alongside, the revision ledger's record written in the same transaction
 * as the write it records — with it, or not at all; past values readable at their revisions.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { guaranteedUpdate } from '../../../apiserver/storage/guaranteed-update.js';
import { ALONGSIDE_ROOT } from '../../../apiserver/storage/interfaces.js';
import { buf, rejectsWith, type Fixture } from './fixture.js';

export function describeAlongside(fx: () => Fixture): void {
  describe('a key written alongside', () => {
    test('create, update and delete put it in their transaction; a refused write puts nothing', async () => {
      const { storage, ns } = fx();
      const side = `${ALONGSIDE_ROOT}${ns.slice(1)}obj/a`;
      const created = await storage.create(`${ns}obj/a`, buf('1'), { alongside: { key: side, value: buf('create') } });
      const r1 = await storage.get(side);
      assert.deepEqual(r1?.value, buf('create'));
      // At the revision of the write it went with, on every backend.
      assert.equal(r1!.modRevision, created.modRevision);
      assert.equal(r1!.createRevision, created.modRevision);
      await rejectsWith(storage.create(`${ns}obj/a`, buf('x'), { alongside: { key: side, value: buf('refused') } }), 'KeyExists');
      await rejectsWith(
        storage.update(`${ns}obj/a`, buf('x'), created.modRevision - 1, { alongside: { key: side, value: buf('refused') } }),
        'Conflict',
      );
      assert.deepEqual((await storage.get(side))?.value, buf('create'));
      const updated = await storage.update(`${ns}obj/a`, buf('2'), created.modRevision, { alongside: { key: side, value: buf('update') } });
      const r2 = await storage.get(side);
      assert.deepEqual(r2?.value, buf('update'));
      assert.equal(r2!.modRevision, updated.modRevision);
      assert.equal(r2!.createRevision, r1!.createRevision);
      const deleted = await guaranteedUpdate(storage, `${ns}obj/a`, () => null, undefined, {
        alongside: { key: side, value: buf('delete') },
      });
      assert.ok(deleted.deleted);
      const r3 = await storage.get(side);
      assert.deepEqual(r3?.value, buf('delete'));
      assert.equal(r3!.modRevision, deleted.kv.modRevision);
      assert.equal(await storage.get(`${ns}obj/a`), null);
      // Each record stays readable at its revision, with the object as its write left it.
      const at = (key: string, revision: number) => storage.get(key, { revision });
      assert.deepEqual((await at(side, r2!.modRevision - 1))?.value, buf('create'));
      assert.deepEqual((await at(`${ns}obj/a`, r2!.modRevision))?.value, buf('2'));
      assert.equal(updated.modRevision < r3!.modRevision, true);
      assert.equal(await at(`${ns}obj/a`, r3!.modRevision), null);
      await rejectsWith(storage.get(side, { revision: (await storage.currentRevision()) + 10 }), 'FutureRevision');
      // Nothing under the object's prefix saw the side key.
      assert.deepEqual((await storage.list(`${ns}obj/`)).items, []);
    });

    test('the newest revision of the store stays the write one, and the side keys list (at a revision too) and compact like any key', async () => {
      const { storage, ns } = fx();
      const root = `${ALONGSIDE_ROOT}${ns.slice(1)}obj/`;
      const watched: number[] = [];
      const a = await storage.create(`${ns}obj/a`, buf('1'), { alongside: { key: `${root}a`, value: buf('a1') } });
      const watcher = storage.watch(
        `${ns}obj/`,
        { afterRevision: a.modRevision },
        {
          onEvent: (e) => watched.push(e.kv.modRevision),
          onError: () => undefined,
        },
      );
      try {
        const b = await storage.create(`${ns}obj/b`, buf('1'), { alongside: { key: `${root}b`, value: buf('b1') } });
        // A consistent read waits for the store's newest revision: it must be one the watch delivers.
        assert.ok((await storage.currentRevision()) >= b.modRevision);
        const a2 = await storage.update(`${ns}obj/a`, buf('2'), a.modRevision, { alongside: { key: `${root}a`, value: buf('a2') } });
        const listed = await storage.list(root);
        assert.deepEqual(
          listed.items.map((kv) => [kv.key, kv.value.toString(), kv.modRevision]),
          [
            [`${root}a`, 'a2', a2.modRevision],
            [`${root}b`, 'b1', b.modRevision],
          ],
        );
        const past = await storage.list(root, { revision: b.modRevision, limit: 1 });
        assert.deepEqual(
          past.items.map((kv) => [kv.key, kv.value.toString()]),
          [[`${root}a`, 'a1']],
        );
        assert.equal(past.more, true);
        assert.equal(past.remaining, 1);
        for (let i = 0; i < 50 && watched.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
        assert.deepEqual(watched, [b.modRevision, a2.modRevision]);
        // Compacted to b: a's record at a2 and b's stay, a's first record (superseded at b) goes.
        await storage.compact(b.modRevision);
        assert.deepEqual((await storage.get(`${root}a`, { revision: b.modRevision }))?.value, buf('a1'));
        await rejectsWith(storage.get(`${root}a`, { revision: a.modRevision }), 'Compacted');
        assert.deepEqual((await storage.get(`${root}a`))?.value, buf('a2'));
      } finally {
        watcher.stop();
      }
    });

    test('alongsideHistory: the writes of an indexed alongside key, newest first, each with its owner as that write left it', async () => {
      const { storage, ns } = fx();
      const root = `${ALONGSIDE_ROOT}${ns.slice(1)}obj/`;
      const obj = `${ns}obj/a`;
      const side = (value: string) => ({ alongside: { key: `${root}a`, value: buf(value), indexSeconds: 3600 } });
      const c = await storage.create(obj, buf('1'), side('create'));
      // A neighbour whose alongside key starts with this one's: its writes are not this key's.
      const other = await storage.create(`${ns}obj/ab`, buf('x'), { alongside: { key: `${root}ab`, value: buf('o'), indexSeconds: 3600 } });
      const u1 = await storage.update(obj, buf('2'), c.modRevision, side('u1'));
      const u2 = await storage.update(obj, buf('3'), u1.modRevision, side('u2'));
      await storage.update(`${ns}obj/ab`, buf('y'), other.modRevision, {
        alongside: { key: `${root}ab`, value: buf('o2'), indexSeconds: 3600 },
      });
      const d = await storage.delete(obj, u2.modRevision, side('delete'));
      const c2 = await storage.create(obj, buf('4'), side('again'));
      const read = async (atOrBefore: number, limit: number) => {
        const h = await storage.alongsideHistory(`${root}a`, obj, { atOrBefore, limit });
        return {
          complete: h.complete,
          writes: h.writes.map((w) => [w.alongside.modRevision, w.alongside.value.toString(), w.owner?.value.toString() ?? null]),
        };
      };
      const all = [
        [c2.modRevision, 'again', '4'],
        [d.modRevision, 'delete', null],
        [u2.modRevision, 'u2', '3'],
        [u1.modRevision, 'u1', '2'],
        [c.modRevision, 'create', '1'],
      ];
      assert.deepEqual(await read(await storage.currentRevision(), 10), { complete: true, writes: all });
      // Without atOrBefore: at the current revision; either way with the alongside key's value there.
      const now = await storage.alongsideHistory(`${root}a`, obj, { limit: 2 });
      assert.equal(now.revision, await storage.currentRevision());
      assert.deepEqual([now.newest?.modRevision, now.newest?.value.toString()], [c2.modRevision, 'again']);
      assert.deepEqual(
        now.writes.map((w) => w.alongside.modRevision),
        [c2.modRevision, d.modRevision],
      );
      const before = await storage.alongsideHistory(`${root}a`, obj, { atOrBefore: u2.modRevision + 1, limit: 1 });
      assert.deepEqual([before.revision, before.newest?.modRevision], [u2.modRevision + 1, u2.modRevision]);
      await rejectsWith(storage.alongsideHistory(`${root}a`, obj, { atOrBefore: now.revision + 10, limit: 1 }), 'FutureRevision');
      // A full page is complete as far as it goes; atOrBefore starts lower down.
      assert.deepEqual(await read(c2.modRevision, 2), { complete: true, writes: all.slice(0, 2) });
      assert.deepEqual(await read(u2.modRevision, 10), { complete: true, writes: all.slice(2) });
      // Compacted to u1: nothing below it is listed.
      await storage.compact(u1.modRevision);
      assert.deepEqual(await read(await storage.currentRevision(), 10), { complete: true, writes: all.slice(0, 4) });
      // Writes made without an index: the embedded store's rows are their own index; etcd lists none
      // of them and says so (the ledger walks on, a read per write).
      const e = await storage.create(`${ns}obj/e`, buf('1'), { alongside: { key: `${root}e`, value: buf('e1') } });
      const e2 = await storage.update(`${ns}obj/e`, buf('2'), e.modRevision, {
        alongside: { key: `${root}e`, value: buf('e2'), indexSeconds: 3600 },
      });
      const h = await storage.alongsideHistory(`${root}e`, `${ns}obj/e`, { atOrBefore: e2.modRevision, limit: 10 });
      const listed = h.writes.map((w) => w.alongside.modRevision);
      if (h.complete) assert.deepEqual(listed, [e2.modRevision, e.modRevision]);
      else assert.deepEqual(listed, [e2.modRevision]);
    });

    test('an alongside key written with a TTL expires unless written again; by the next compaction on the embedded store', async () => {
      const { storage, ns } = fx();
      const root = `${ALONGSIDE_ROOT}${ns.slice(1)}obj/`;
      const a = await storage.create(`${ns}obj/a`, buf('1'), { alongside: { key: `${root}a`, value: buf('a'), ttlSeconds: 1 } });
      const b = await storage.create(`${ns}obj/b`, buf('1'), { alongside: { key: `${root}b`, value: buf('b'), ttlSeconds: 1 } });
      await storage.update(`${ns}obj/b`, buf('2'), b.modRevision, { alongside: { key: `${root}b`, value: buf('b2') } });
      assert.deepEqual((await storage.get(`${root}a`))?.value, buf('a'));
      // etcd grants the lease for the TTL plus its reuse window and checks leases about twice a second.
      let gone = false;
      for (let i = 0; i < 60 && !gone; i++) {
        await new Promise((r) => setTimeout(r, 100));
        await storage.compact(await storage.currentRevision());
        gone = (await storage.get(`${root}a`)) === null;
      }
      assert.ok(gone, 'the key written with a TTL is gone');
      assert.deepEqual((await storage.get(`${root}b`))?.value, buf('b2'));
      assert.deepEqual((await storage.get(`${ns}obj/a`))?.modRevision, a.modRevision);
      assert.deepEqual(
        (await storage.list(root)).items.map((kv) => kv.key),
        [`${root}b`],
      );
    });
  });
}
