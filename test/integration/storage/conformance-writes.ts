/** Conformance: create, get, compare-and-swap update and delete, guaranteedUpdate. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { guaranteedUpdate } from '../../../apiserver/storage/guaranteed-update.js';
import type { KeyValue } from '../../../apiserver/storage/interfaces.js';
import { buf, rejectsWith, type Fixture } from './fixture.js';

/** Registers the create, get, update, delete tests; fx() is the running test's fixture. */
export function describeWrites(fx: () => Fixture): void {
  describe('create, get, update, delete', () => {
    test('create stores a new key and refuses an existing one', async () => {
      const { storage, ns } = fx();
      const kv = await storage.create(`${ns}a`, buf('v1'));
      assert.deepEqual(kv, { key: `${ns}a`, value: buf('v1'), createRevision: kv.modRevision, modRevision: kv.modRevision });
      assert.equal(await storage.currentRevision(), kv.modRevision);
      assert.deepEqual(await storage.get(`${ns}a`), kv);
      assert.equal(await storage.get(`${ns}missing`), null);
      await rejectsWith(storage.create(`${ns}a`, buf('v2')), 'KeyExists');
      assert.deepEqual(await storage.get(`${ns}a`), kv);
    });

    test('every write takes the next revision', async () => {
      const { storage, ns } = fx();
      const start = await storage.currentRevision();
      const a = await storage.create(`${ns}a`, buf('1'));
      const a2 = await storage.update(`${ns}a`, buf('2'), a.modRevision);
      const deleted = await storage.delete(`${ns}a`);
      assert.deepEqual([a.modRevision, a2.modRevision, deleted.modRevision], [start + 1, start + 2, start + 3]);
      assert.equal(await storage.currentRevision(), start + 3);
    });

    test('update is a compare-and-swap that returns the current value on conflict', async () => {
      const { storage, ns } = fx();
      const v1 = await storage.create(`${ns}a`, buf('v1'));
      const v2 = await storage.update(`${ns}a`, buf('v2'), v1.modRevision);
      assert.deepEqual(v2, { key: `${ns}a`, value: buf('v2'), createRevision: v1.createRevision, modRevision: v2.modRevision });
      assert.ok(v2.modRevision > v1.modRevision);

      const conflict = await rejectsWith(storage.update(`${ns}a`, buf('v3'), v1.modRevision), 'Conflict');
      assert.deepEqual(conflict.current, v2);
      assert.deepEqual(await storage.get(`${ns}a`), v2);

      await rejectsWith(storage.update(`${ns}missing`, buf('x'), v1.modRevision), 'KeyNotFound');
      await storage.delete(`${ns}a`);
      await rejectsWith(storage.update(`${ns}a`, buf('v4'), v2.modRevision), 'KeyNotFound');
    });

    test('delete honours its precondition and returns the last value', async () => {
      const { storage, ns } = fx();
      const v1 = await storage.create(`${ns}a`, buf('v1'));
      const v2 = await storage.update(`${ns}a`, buf('v2'), v1.modRevision);

      const conflict = await rejectsWith(storage.delete(`${ns}a`, v1.modRevision), 'Conflict');
      assert.deepEqual(conflict.current, v2);

      const deleted = await storage.delete(`${ns}a`, v2.modRevision);
      assert.deepEqual(deleted, { key: `${ns}a`, value: buf('v2'), createRevision: v1.createRevision, modRevision: v2.modRevision + 1 });
      assert.equal(await storage.get(`${ns}a`), null);
      await rejectsWith(storage.delete(`${ns}a`), 'KeyNotFound');
      await rejectsWith(storage.delete(`${ns}a`, v2.modRevision), 'KeyNotFound');

      const again = await storage.create(`${ns}a`, buf('v3'));
      assert.equal(again.createRevision, deleted.modRevision + 1);
      assert.deepEqual(await storage.delete(`${ns}a`), { ...again, modRevision: again.modRevision + 1 });
    });

    test('guaranteedUpdate: 20 concurrent writers increment one counter exactly', async () => {
      const { storage, ns } = fx();
      const key = `${ns}counter`;
      const increments = 3;
      const increment = (current: KeyValue | null): Buffer => buf(String(Number(current?.value.toString() ?? '0') + 1));
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          for (let i = 0; i < increments; i++) await guaranteedUpdate(storage, key, increment);
        }),
      );
      const final = await storage.get(key);
      assert.equal(final?.value.toString(), String(20 * increments));

      const removed = await guaranteedUpdate(storage, key, () => null);
      assert.deepEqual(removed, { kv: { ...final, modRevision: final!.modRevision + 1 }, deleted: true });
      assert.equal(await storage.get(key), null);
    });

    test('guaranteedUpdate from a stale cached state: the write retries from the store, errors and no-ops are checked against it', async () => {
      const { storage, ns } = fx();
      const key = `${ns}cached`;
      const stale = await storage.create(key, buf('1'));
      const live = await storage.update(key, buf('2'), stale.modRevision);
      const seen: string[] = [];
      const increment = (current: KeyValue | null): Buffer => {
        seen.push(current!.value.toString());
        return buf(String(Number(current!.value.toString()) + 1));
      };
      const { kv } = await guaranteedUpdate(storage, key, increment, stale);
      assert.deepEqual(seen, ['1', '2']);
      assert.equal(kv.value.toString(), '3');

      // An error computed from the stale state is retried on the stored one; from the stored one it ends the loop.
      const refuseOld = (current: KeyValue | null): Buffer => {
        if (current!.modRevision !== kv.modRevision) throw new Error('stale');
        return buf('4');
      };
      assert.equal((await guaranteedUpdate(storage, key, refuseOld, live)).kv.value.toString(), '4');
      await assert.rejects(
        guaranteedUpdate(storage, key, () => {
          throw new Error('refused');
        }),
        /refused/,
      );

      // Nothing to change in the stale state is not taken for nothing to change in the store.
      const stored = await storage.get(key);
      const unchanged = await guaranteedUpdate(
        storage,
        key,
        (current) => (current!.value.toString() === '2' ? current!.value : buf('5')),
        live,
      );
      assert.equal(unchanged.kv.value.toString(), '5');
      assert.ok(unchanged.kv.modRevision > stored!.modRevision);
    });
  });
}
