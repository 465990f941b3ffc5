import Database from 'better-sqlite3';
import { ALONGSIDE_ROOT } from '../interfaces.js';

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
 * - side: the value of the key's alongside key (WriteOptions.alongside, the revision ledger's
 *   record) this write put, NULL when it put none; side_create its alongside key's create revision
 *   (0: this row's id, the write created it); side_expires when the alongside key goes unless
 *   written again (ms since the epoch, 0: never). The alongside key lives in its owner's rows: a
 *   write with a record appends nothing more than a longer row, and the key's index (name, id)
 *   finds both. (Files made before kept them in a table of their own, `alongside`, that every write
 *   paid a random page of in its commit: 1.3x the latency of an update without.)
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
  old_value BLOB NOT NULL,
  side BLOB,
  side_create INTEGER NOT NULL DEFAULT 0,
  side_expires INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS kine_name_id ON kine (name, id);
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
  side: Buffer | null;
  side_create: number;
  side_expires: number;
}

/** Opens (creating when needed) the database file at path in WAL mode, with the schema in place. */
export function openDatabase(path: string): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.transaction(() => {
    addSideColumns(db);
    db.exec(DDL);
    moveAlongsideTable(db);
  })();
  return db;
}

/** A kine table made before the side columns gets them (empty: no write of it put an alongside key). */
function addSideColumns(db: Database.Database): void {
  const columns = db.prepare<[], string>("SELECT name FROM pragma_table_info('kine')").pluck().all();
  if (columns.length === 0 || columns.includes('side')) return;
  db.exec(`ALTER TABLE kine ADD COLUMN side BLOB;
    ALTER TABLE kine ADD COLUMN side_create INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE kine ADD COLUMN side_expires INTEGER NOT NULL DEFAULT 0;`);
}

/**
 * The alongside table of a file made before moves into the rows its records went with (a record sat
 * at the revision, the row id, of its write); a record whose write's row compaction had removed goes
 * with the table (its key's history before the write kept is outside what any read can reach).
 */
function moveAlongsideTable(db: Database.Database): void {
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'alongside'").get()) return;
  db.exec(`UPDATE kine SET side = a.value,
      side_create = CASE WHEN a.create_revision = kine.id THEN 0 ELSE a.create_revision END,
      side_expires = a.expires_at
    FROM alongside a WHERE a.revision = kine.id
      AND a.name = CAST('${ALONGSIDE_ROOT}' || substr(CAST(kine.name AS TEXT), 2) AS BLOB);
    DROP TABLE alongside;`);
}
