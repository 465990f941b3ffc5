import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KeyValue, Storage } from '../../../../apiserver/storage/interfaces.js';
import { isStorageError } from '../../../../apiserver/storage/errors.js';
import { newSqliteStorage } from '../../../../apiserver/storage/sqlite/index.js';
import { dryRunTarget, storageTarget } from '../../../../apiserver/registry/generic/write-target.js';

describe('write targets over a real embedded store', () => {
  let dir = '';
  let storage: Storage;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-write-target-'));
    storage = newSqliteStorage({ path: join(dir, 'state.db') });
  });
  after(async () => {
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('the storage target writes, the dry-run target stores nothing and answers null', async () => {
    const stored = await storageTarget(storage).create('/t/a', Buffer.from('one'));
    assert.ok(stored && stored.modRevision > 0);
    const revision = await storage.currentRevision();
    assert.equal(await dryRunTarget(storage).create('/t/b', Buffer.from('two')), null);
    assert.equal(await storage.get('/t/b'), null);
    assert.equal(await storage.currentRevision(), revision);
  });

  it('a dry-run create of a key that is there fails as the storage would: KeyExists', async () => {
    await assert.rejects(dryRunTarget(storage).create('/t/a', Buffer.from('again')), (err) => isStorageError(err, 'KeyExists'));
    await assert.rejects(storageTarget(storage).create('/t/a', Buffer.from('again')), (err) => isStorageError(err, 'KeyExists'));
  });

  it('a dry-run update runs its step once on the stored state, never a cached one, and writes nothing', async () => {
    const seen: (string | null)[] = [];
    const cached: KeyValue = { key: '/t/a', value: Buffer.from('stale'), createRevision: 1, modRevision: 1 };
    const step = (current: KeyValue | null) => {
      seen.push(current ? current.value.toString() : null);
      return Buffer.from('changed');
    };
    assert.equal(await dryRunTarget(storage).update('/t/a', step, cached), null);
    assert.deepEqual(seen, ['one']);
    assert.equal((await storage.get('/t/a'))?.value.toString(), 'one');
    const written = await storageTarget(storage).update('/t/a', step);
    assert.equal(written?.deleted, false);
    assert.equal((await storage.get('/t/a'))?.value.toString(), 'changed');
  });

  it('a dry-run update fails as its step fails', async () => {
    await assert.rejects(
      dryRunTarget(storage).update('/t/a', () => {
        throw new Error('refused');
      }),
      /refused/,
    );
  });
});
