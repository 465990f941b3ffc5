import Database from 'better-sqlite3';

/**
 * The embedded store's schema, kine style: ONE data table, `kine`, where every write appends a row
 * and the row id is the store revision.
 *
 * - name: the key (as a BLOB, so it compares bytewise like etcd keys).
 * - created = 1 when the row created the key (its create revision is then the row id);
 *   deleted = 1 for a tombstone (the row a delete appends).
 * - create_revision: the key's create revision (rows that are not creations).
 * - prev_revision: the id of the key's previous row (0 for none).
 * - value: the value written; for a tombstone, the value the key had.
 * - old_value: the previous row's value (empty for a creation), so an event can be rebuilt from
 *   its own row even after compaction removed the previous one.
 *
 * The `alongside` table holds the keys written beside a write (WriteOptions.alongside, the revision
 * ledger's records): one row per such put, at the revision of the kine row it went with, so the
 * store's newest revision stays a kine row's. create_revision is the revision the key was first
 * written at; expires_at (ms since the epoch, 0: never) when the key goes unless written again
 * (WriteOptions.alongside.ttlSeconds). Compaction drops the rows a later one at or below its
 * revision supersedes, as kine's, and every row of a key whose newest row has expired. It walks the
 * table in key order: the table has no index by revision (files made before had one; it is
 * dropped), since every write paid a page of it in its commit while only compaction read it.
 *
 * The `meta` table only holds bookkeeping (the compacted revision), never data. The `expiry` table
 * holds when each key written with a TTL expires (milliseconds since the epoch); the store deletes
 * such keys itself once that time has passed (etcd does it with leases). AUTOINCREMENT keeps
 * ids strictly increasing and never reused, even after compaction deleted the newest rows; the
 * current revision is therefore sqlite_sequence's counter for `kine`.
 */
const DDL = `
CREATE TABLE IF NOT EXISTS kine (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name BLOB NOT NULL,
  created INTEGER NOT NULL,
  deleted INTEGER NOT NULL,
  create_revision INTEGER NOT NULL,
  prev_revision INTEGER NOT NULL,
  value BLOB NOT NULL,
  old_value BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS kine_name_id ON kine (name, id);
CREATE TABLE IF NOT EXISTS alongside (
  name BLOB NOT NULL,
  revision INTEGER NOT NULL,
  create_revision INTEGER NOT NULL,
  value BLOB NOT NULL,
  expires_at INTEGER NOT NULL,
  PRIMARY KEY (name, revision)
) WITHOUT ROWID;
DROP INDEX IF EXISTS alongside_revision;
CREATE INDEX IF NOT EXISTS alongside_expiring ON alongside (expires_at) WHERE expires_at > 0;
CREATE TABLE IF NOT EXISTS meta (
  name TEXT PRIMARY KEY,
  value INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS expiry (
  name BLOB PRIMARY KEY,
  expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS expiry_at ON expiry (expires_at);
`;

/** One row of the kine table. */
export interface Row {
  id: number;
  name: Buffer;
  created: number;
  deleted: number;
  create_revision: number;
  prev_revision: number;
  value: Buffer;
  old_value: Buffer;
}

/** One row of the alongside table. */
export interface AlongsideRow {
  name: Buffer;
  revision: number;
  create_revision: number;
  value: Buffer;
  expires_at: number;
}

/** Opens (creating when needed) the database file at path in WAL mode, with the schema in place. */
export function openDatabase(path: string): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(DDL);
  return db;
}
