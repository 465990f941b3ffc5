import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { newSqliteStorage } from '../../../apiserver/storage/sqlite/index.js';
import { runStorageConformance } from './conformance.js';

async function tempDir(): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), 'orch-sqlite-'));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

runStorageConformance('sqlite', async () => {
  const dir = await tempDir();
  const storage = newSqliteStorage({ path: join(dir.path, 'state.db') });
  return {
    storage,
    cleanup: async () => {
      await storage.close();
      await dir.remove();
    },
  };
});

test('sqlite: data, revisions and the compacted revision survive a reopen; the file is in WAL mode', async () => {
  const dir = await tempDir();
  const path = join(dir.path, 'state.db');
  try {
    const first = newSqliteStorage({ path });
    const a = await first.create('/r/a', Buffer.from('a'));
    const b = await first.create('/r/b', Buffer.from('b'));
    await first.compact(b.modRevision);
    const deleted = await first.delete('/r/b');
    await first.close();

    const second = newSqliteStorage({ path });
    try {
      assert.equal(await second.currentRevision(), deleted.modRevision);
      assert.equal(await second.compactedRevision(), b.modRevision);
      assert.deepEqual((await second.list('/r/')).items, [a]);
      const c = await second.create('/r/c', Buffer.from('c'));
      assert.equal(c.modRevision, deleted.modRevision + 1);
    } finally {
      await second.close();
    }

    const raw = new Database(path, { readonly: true });
    try {
      assert.equal(raw.pragma('journal_mode', { simple: true }), 'wal');
      const tables = raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
      assert.deepEqual(tables, ['alongside', 'expiry', 'kine', 'meta', 'sqlite_sequence']);
    } finally {
      raw.close();
    }
  } finally {
    await dir.remove();
  }
});

test('sqlite: compaction keeps only the newest row of each live key', async () => {
  const dir = await tempDir();
  const path = join(dir.path, 'state.db');
  try {
    const storage = newSqliteStorage({ path });
    let a = await storage.create('/r/a', Buffer.from('0'));
    for (let i = 1; i <= 2500; i++) a = await storage.update('/r/a', Buffer.from(String(i)), a.modRevision);
    const gone = await storage.create('/r/gone', Buffer.from('x'));
    await storage.delete('/r/gone', gone.modRevision);
    await storage.compact(await storage.currentRevision());
    await storage.close();

    const raw = new Database(path, { readonly: true });
    try {
      const rows = raw.prepare('SELECT id, CAST(name AS TEXT) AS name FROM kine ORDER BY id').all();
      assert.deepEqual(rows, [{ id: a.modRevision, name: '/r/a' }]);
    } finally {
      raw.close();
    }
  } finally {
    await dir.remove();
  }
});

test('sqlite: a file made with the alongside table indexed by revision loses the index; compaction walks the table in key order, in batches', async () => {
  const dir = await tempDir();
  const path = join(dir.path, 'state.db');
  try {
    let storage = newSqliteStorage({ path });
    await storage.close();
    const old = new Database(path);
    old.exec('CREATE INDEX alongside_revision ON alongside (revision)');
    old.close();
    storage = newSqliteStorage({ path });
    // More ledger keys than one compaction batch (1,000 rows), each rewritten, and one key never rewritten.
    const ledger = (i: number) => ({ alongside: { key: `/orch-ledger/r/k${String(i).padStart(4, '0')}`, value: Buffer.from(`r${i}`) } });
    await storage.create('/r/still', Buffer.from('s'), { alongside: { key: '/orch-ledger/r/still', value: Buffer.from('s') } });
    const kvs = [];
    for (let i = 0; i < 1500; i++) kvs.push(await storage.create(`/r/k${i}`, Buffer.from('0'), ledger(i)));
    for (let i = 0; i < 1500; i++) await storage.update(`/r/k${i}`, Buffer.from('1'), kvs[i].modRevision, ledger(i));
    await storage.compact(await storage.currentRevision());
    await storage.close();

    const raw = new Database(path, { readonly: true });
    try {
      const indexes = raw.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'alongside'").pluck().all();
      assert.ok(!indexes.includes('alongside_revision'), String(indexes));
      // One row per ledger key is left: each key's newest.
      const rows = raw.prepare('SELECT COUNT(*) AS n, COUNT(DISTINCT name) AS keys FROM alongside').get();
      assert.deepEqual(rows, { n: 1501, keys: 1501 });
      const still = raw
        .prepare("SELECT CAST(value AS TEXT) FROM alongside WHERE name = CAST('/orch-ledger/r/still' AS BLOB)")
        .pluck()
        .get();
      assert.equal(still, 's');
    } finally {
      raw.close();
    }
  } finally {
    await dir.remove();
  }
});
