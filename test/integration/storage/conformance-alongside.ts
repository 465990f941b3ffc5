/**
 * Conformance: WriteOptions.alongside, the revision ledger's record written in the same transaction
 * as the write it records — with it, or not at all; past values readable at their revisions.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { guaranteedUpdate } from '../../../apiserver/storage/guaranteed-update.js';
import { buf, rejectsWith, type Fixture } from './fixture.js';

export function describeAlongside(fx: () => Fixture): void {
  describe('a key written alongside', () => {
    test('create, update and delete put it in their transaction; a refused write puts nothing', async () => {
      const { storage, ns } = fx();
      const side = `${ns}ledger/a`;
      const created = await storage.create(`${ns}obj/a`, buf('1'), { alongside: { key: side, value: buf('create') } });
      const r1 = await storage.get(side);
      assert.deepEqual(r1?.value, buf('create'));
      // Same revision on etcd, the next on the embedded store: never another write's.
      assert.ok(r1!.modRevision - created.modRevision <= 1);
      await rejectsWith(storage.create(`${ns}obj/a`, buf('x'), { alongside: { key: side, value: buf('refused') } }), 'KeyExists');
      await rejectsWith(
        storage.update(`${ns}obj/a`, buf('x'), created.modRevision - 1, { alongside: { key: side, value: buf('refused') } }),
        'Conflict',
      );
      assert.deepEqual((await storage.get(side))?.value, buf('create'));
      const updated = await storage.update(`${ns}obj/a`, buf('2'), created.modRevision, { alongside: { key: side, value: buf('update') } });
      const r2 = await storage.get(side);
      assert.deepEqual(r2?.value, buf('update'));
      assert.equal(r2!.createRevision, r1!.createRevision);
      const deleted = await guaranteedUpdate(storage, `${ns}obj/a`, () => null, undefined, {
        alongside: { key: side, value: buf('delete') },
      });
      assert.ok(deleted.deleted);
      const r3 = await storage.get(side);
      assert.deepEqual(r3?.value, buf('delete'));
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
  });
}
