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

/** Runs fn with the path of a store file in a fresh directory, removed after. */
async function inStateFile(fn: (path: string) => Promise<void>): Promise<void> {
  const dir = await tempDir();
  try {
    await fn(join(dir.path, 'state.db'));
  } finally {
    await dir.remove();
  }
}

/** What fn reads from the file, opened read-only beside the store (closed after). */
function readFile<T>(path: string, fn: (db: Database.Database) => T): T {
  const raw = new Database(path, { readonly: true });
  try {
    return fn(raw);
  } finally {
    raw.close();
  }
}

/** The file's tables, by name. */
function tablesOf(db: Database.Database): unknown[] {
  return db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
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

test('sqlite: data, revisions and the compacted revision survive a reopen; the file is in WAL mode', () =>
  inStateFile(async (path) => {
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

    readFile(path, (raw) => {
      assert.equal(raw.pragma('journal_mode', { simple: true }), 'wal');
      const tables = tablesOf(raw);
      assert.deepEqual(tables, ['expiry', 'kine', 'meta', 'sqlite_sequence']);
    });
  }));

test('sqlite: compaction keeps only the newest row of each live key', () =>
  inStateFile(async (path) => {
    const storage = newSqliteStorage({ path });
    let a = await storage.create('/r/a', Buffer.from('0'));
    for (let i = 1; i <= 2500; i++) a = await storage.update('/r/a', Buffer.from(String(i)), a.modRevision);
    const gone = await storage.create('/r/gone', Buffer.from('x'));
    await storage.delete('/r/gone', gone.modRevision);
    await storage.compact(await storage.currentRevision());
    await storage.close();

    readFile(path, (raw) => {
      const rows = raw.prepare('SELECT id, CAST(name AS TEXT) AS name FROM kine ORDER BY id').all();
      assert.deepEqual(rows, [{ id: a.modRevision, name: '/r/a' }]);
    });
  }));

test('sqlite: a file made with the alongside table has its records moved into the rows they went with, the table dropped', () =>
  inStateFile(async (path) => {
    // The schema before the side columns: kine without them, the records in a table of their own.
    const old = new Database(path);
    old.exec(`CREATE TABLE kine (id INTEGER PRIMARY KEY AUTOINCREMENT, name BLOB NOT NULL, created INTEGER NOT NULL,
      deleted INTEGER NOT NULL, create_revision INTEGER NOT NULL, prev_revision INTEGER NOT NULL, value BLOB NOT NULL,
      old_value BLOB NOT NULL);
    CREATE INDEX kine_name_id ON kine (name, id);
    CREATE TABLE alongside (name BLOB NOT NULL, revision INTEGER NOT NULL, create_revision INTEGER NOT NULL,
      value BLOB NOT NULL, expires_at INTEGER NOT NULL, PRIMARY KEY (name, revision)) WITHOUT ROWID;
    CREATE TABLE meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
    CREATE TABLE expiry (name BLOB PRIMARY KEY, expires_at INTEGER NOT NULL);`);
    const b = (s: string) => Buffer.from(s);
    const row = old.prepare(
      'INSERT INTO kine (name, created, deleted, create_revision, prev_revision, value, old_value) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const record = old.prepare('INSERT INTO alongside (name, revision, create_revision, value, expires_at) VALUES (?, ?, ?, ?, ?)');
    row.run(b('/r/a'), 1, 0, 0, 0, b('a1'), b(''));
    record.run(b('/orch-ledger/r/a'), 1, 1, b('create'), 0);
    row.run(b('/r/a'), 0, 0, 1, 1, b('a2'), b('a1'));
    record.run(b('/orch-ledger/r/a'), 2, 1, b('update'), 0);
    row.run(b('/r/gone'), 1, 0, 0, 0, b('g'), b(''));
    record.run(b('/orch-ledger/r/gone'), 3, 3, b('create'), 0);
    row.run(b('/r/gone'), 0, 1, 3, 3, b('g'), b('g'));
    record.run(b('/orch-ledger/r/gone'), 4, 3, b('delete'), Date.now() + 3_600_000);
    // A record whose row compaction had removed, and one of another key at a row's revision: neither is moved.
    record.run(b('/orch-ledger/r/lost'), 900, 900, b('lost'), 0);
    record.run(b('/orch-ledger/r/other'), 2, 2, b('foreign'), 0);
    old.close();

    const storage = newSqliteStorage({ path });
    try {
      const side = await storage.get('/orch-ledger/r/a');
      assert.deepEqual([side?.value.toString(), side?.createRevision, side?.modRevision], ['update', 1, 2]);
      assert.equal((await storage.get('/orch-ledger/r/a', { revision: 1 }))?.value.toString(), 'create');
      assert.equal((await storage.get('/orch-ledger/r/gone'))?.value.toString(), 'delete');
      assert.equal(await storage.get('/orch-ledger/r/lost'), null);
      assert.equal(await storage.get('/orch-ledger/r/other'), null);
      const history = await storage.alongsideHistory('/orch-ledger/r/a', '/r/a', { atOrBefore: 4, limit: 10 });
      assert.deepEqual(
        history.writes.map((w) => [w.alongside.modRevision, w.alongside.value.toString(), w.owner?.value.toString()]),
        [
          [2, 'update', 'a2'],
          [1, 'create', 'a1'],
        ],
      );
      // The key the migrated records started goes on: a new write keeps its create revision.
      const a3 = await storage.update('/r/a', b('a3'), 2, { alongside: { key: '/orch-ledger/r/a', value: b('again') } });
      assert.deepEqual((await storage.get('/orch-ledger/r/a'))?.createRevision, 1);
      assert.equal(a3.modRevision, 5);
    } finally {
      await storage.close();
    }
    readFile(path, (raw) => {
      const tables = tablesOf(raw);
      assert.deepEqual(tables, ['expiry', 'kine', 'meta', 'sqlite_sequence']);
    });
  }));

test("sqlite: a write with a record appends one row, the record in it; the alongside key must be the written key's", () =>
  inStateFile(async (path) => {
    const storage = newSqliteStorage({ path });
    try {
      const a = await storage.create('/r/a', Buffer.from('1'), { alongside: { key: '/orch-ledger/r/a', value: Buffer.from('rec') } });
      await assert.rejects(
        storage.update('/r/a', Buffer.from('2'), a.modRevision, { alongside: { key: '/orch-ledger/r/b', value: Buffer.from('x') } }),
        /the alongside key of \/r\/a is \/orch-ledger\/r\/a/,
      );
    } finally {
      await storage.close();
    }
    readFile(path, (raw) => {
      const rows = raw.prepare('SELECT id, CAST(name AS TEXT) AS name, CAST(side AS TEXT) AS side FROM kine').all();
      assert.deepEqual(rows, [{ id: 1, name: '/r/a', side: 'rec' }]);
    });
  }));

test('sqlite: once the newest record of an alongside key expired, the key is gone: an older record does not read again, and a new write starts the key anew', () =>
  inStateFile(async (path) => {
    const storage = newSqliteStorage({ path });
    try {
      const side = '/orch-ledger/r/a';
      const a = await storage.create('/r/a', Buffer.from('1'), { alongside: { key: side, value: Buffer.from('create') } });
      const d = await storage.delete('/r/a', a.modRevision, { alongside: { key: side, value: Buffer.from('delete'), ttlSeconds: 1 } });
      assert.equal((await storage.get(side))?.value.toString(), 'delete');
      await new Promise((r) => setTimeout(r, 1100));
      // No compaction has run: the create's record is still stored below the expired one.
      assert.equal(await storage.get(side), null);
      assert.equal(await storage.get(side, { revision: d.modRevision }), null);
      assert.deepEqual((await storage.list('/orch-ledger/r/')).items, []);
      const page = await storage.alongsideHistory(side, '/r/a', { limit: 10 });
      assert.equal(page.newest, null);
      const again = await storage.create('/r/a', Buffer.from('2'), { alongside: { key: side, value: Buffer.from('again') } });
      assert.deepEqual((await storage.get(side))?.createRevision, again.modRevision);
    } finally {
      await storage.close();
    }
  }));
