/**
 * Conformance: createBatch, the creates of a namespace restore's owner with its dependents — every
 * key with its alongside key, or none; watchers get the whole batch.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ALONGSIDE_ROOT, MAX_BATCH_CREATES } from '../../../apiserver/storage/interfaces.js';
import { buf, rejectsWith, type Fixture } from './fixture.js';
import { WatchRecorder } from './recorder.js';

export function describeBatch(fx: () => Fixture): void {
  describe('createBatch', () => {
    test('creates every key with its alongside key, in order, and watchers get them all', async () => {
      const { storage, ns } = fx();
      const start = await storage.currentRevision();
      const watch = new WatchRecorder(storage, ns, start);
      try {
        const side = (k: string) => `${ALONGSIDE_ROOT}${ns.slice(1)}${k}`;
        const creates = ['a', 'b', 'c'].map((k) => ({
          key: `${ns}${k}`,
          value: buf(k),
          options: { alongside: { key: side(k), value: buf(`s${k}`) } },
        }));
        const kvs = await storage.createBatch(creates);
        assert.deepEqual(
          kvs.map((kv) => [kv.key, kv.value.toString(), kv.createRevision === kv.modRevision]),
          [
            [`${ns}a`, 'a', true],
            [`${ns}b`, 'b', true],
            [`${ns}c`, 'c', true],
          ],
        );
        for (const kv of kvs) {
          assert.deepEqual(await storage.get(kv.key), kv);
          const s = await storage.get(side(kv.key.slice(ns.length)));
          assert.equal(s?.value.toString(), `s${kv.key.slice(ns.length)}`);
          assert.equal(s?.modRevision, kv.modRevision);
        }
        assert.ok(kvs[0].modRevision > start);
        assert.equal(await storage.currentRevision(), Math.max(...kvs.map((kv) => kv.modRevision)));
        const events = await watch.waitForEvents(3);
        assert.deepEqual(
          events.map((e) => [e.type, e.kv.key]),
          kvs.map((kv) => ['put', kv.key]),
        );
        assert.deepEqual(await storage.createBatch([]), []);
      } finally {
        watch.stop();
      }
    });

    test('writes nothing when one key exists, and names it', async () => {
      const { storage, ns } = fx();
      await storage.create(`${ns}b`, buf('old'));
      const before = await storage.currentRevision();
      const side = `${ALONGSIDE_ROOT}${ns.slice(1)}a`;
      const err = await rejectsWith(
        storage.createBatch([
          { key: `${ns}a`, value: buf('a'), options: { alongside: { key: side, value: buf('s') } } },
          { key: `${ns}b`, value: buf('b') },
          { key: `${ns}c`, value: buf('c') },
        ]),
        'KeyExists',
      );
      assert.equal(err.key, `${ns}b`);
      assert.equal(await storage.currentRevision(), before);
      assert.equal(await storage.get(`${ns}a`), null);
      assert.equal(await storage.get(`${ns}c`), null);
      assert.equal(await storage.get(side), null);
      assert.equal((await storage.get(`${ns}b`))?.value.toString(), 'old');
    });

    test('takes MAX_BATCH_CREATES creates with indexed alongside keys (etcd: within its default --max-txn-ops)', async () => {
      const { storage, ns } = fx();
      const creates = Array.from({ length: MAX_BATCH_CREATES }, (_, i) => ({
        key: `${ns}k${i}`,
        value: buf(String(i)),
        options: { alongside: { key: `${ALONGSIDE_ROOT}${ns.slice(1)}k${i}`, value: buf('s'), indexSeconds: 3600 } },
      }));
      assert.equal((await storage.createBatch(creates)).length, MAX_BATCH_CREATES);
      assert.equal((await storage.list(ns)).items.length, MAX_BATCH_CREATES);
    });
  });
}
