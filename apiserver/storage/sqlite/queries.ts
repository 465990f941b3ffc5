import type Database from 'better-sqlite3';
import type { KeyRange } from '../key-range.js';
import type { Row } from './schema.js';

/** A row to append (the id, i.e. the revision, is assigned by SQLite). */
export type NewRow = Omit<Row, 'id'>;

/** A row to append, but for its alongside key's columns (the store adds them). */
export type KineRow = Omit<NewRow, 'side' | 'side_create' | 'side_expires'>;

/** The latest row of each key in [start, end) with id <= revision, tombstones left out. */
const LATEST_IN_RANGE = `
  FROM kine k
  JOIN (SELECT MAX(id) AS id FROM kine WHERE name >= @start AND name < @end AND id <= @revision GROUP BY name) m
    ON k.id = m.id
  WHERE k.deleted = 0`;

/**
 * Every SQL statement of the embedded store, prepared once. Methods are synchronous; callers compose
 * them into better-sqlite3 transactions.
 */
export class Queries {
  private readonly latestStmt;
  private readonly latestAtStmt;
  private readonly insertStmt;
  private readonly listStmt;
  private readonly countStmt;
  private readonly replayRangeStmt;
  private readonly replayKeyStmt;
  private readonly currentRevisionStmt;
  private readonly compactRevisionStmt;
  private readonly setCompactRevisionStmt;
  private readonly minIdStmt;
  private readonly compactBatchStmt;
  private readonly setExpiryStmt;
  private readonly clearExpiryStmt;
  private readonly expiredStmt;
  private readonly expiringStmt;

  constructor(db: Database.Database) {
    this.latestStmt = db.prepare<[Buffer], Row>('SELECT * FROM kine WHERE name = ? ORDER BY id DESC LIMIT 1');
    this.latestAtStmt = db.prepare<[Buffer, number], Row>('SELECT * FROM kine WHERE name = ? AND id <= ? ORDER BY id DESC LIMIT 1');
    this.insertStmt = db.prepare<[NewRow]>(
      `INSERT INTO kine (name, created, deleted, create_revision, prev_revision, value, old_value, side, side_create, side_expires)
       VALUES (@name, @created, @deleted, @create_revision, @prev_revision, @value, @old_value, @side, @side_create, @side_expires)`,
    );
    this.listStmt = db.prepare<[{ start: Buffer; end: Buffer; revision: number; limit: number }], Row>(
      `SELECT k.* ${LATEST_IN_RANGE} ORDER BY k.name LIMIT @limit`,
    );
    this.countStmt = db.prepare<[{ start: Buffer; end: Buffer; revision: number }], number>(`SELECT COUNT(*) ${LATEST_IN_RANGE}`).pluck();
    this.replayRangeStmt = db.prepare<[{ start: Buffer; end: Buffer; after: number }], Row>(
      'SELECT * FROM kine WHERE id > @after AND name >= @start AND name < @end ORDER BY id',
    );
    this.replayKeyStmt = db.prepare<[{ name: Buffer; after: number }], Row>(
      'SELECT * FROM kine WHERE name = @name AND id > @after ORDER BY id',
    );
    this.currentRevisionStmt = db.prepare<[], number>("SELECT seq FROM sqlite_sequence WHERE name = 'kine'").pluck();
    this.compactRevisionStmt = db.prepare<[], number>("SELECT value FROM meta WHERE name = 'compact_rev'").pluck();
    this.setCompactRevisionStmt = db.prepare<[number]>(
      `INSERT INTO meta (name, value) VALUES ('compact_rev', ?)
       ON CONFLICT (name) DO UPDATE SET value = MAX(value, excluded.value)`,
    );
    this.minIdStmt = db.prepare<[], number | null>('SELECT MIN(id) FROM kine').pluck();
    this.setExpiryStmt = db.prepare<[{ name: Buffer; at: number }]>(
      'INSERT INTO expiry (name, expires_at) VALUES (@name, @at) ON CONFLICT (name) DO UPDATE SET expires_at = excluded.expires_at',
    );
    this.clearExpiryStmt = db.prepare<[Buffer]>('DELETE FROM expiry WHERE name = ?');
    this.expiredStmt = db.prepare<[number], Buffer>('SELECT name FROM expiry WHERE expires_at <= ? ORDER BY expires_at').pluck();
    this.expiringStmt = db.prepare<[], Buffer>('SELECT name FROM expiry').pluck();
    // A row at or below the compaction revision goes when a later row of its key at or below that
    // revision supersedes it, or it is a tombstone, unless the tombstone holds an alongside key not yet
    // expired (a deletion's ledger record: its key outlives the object until then, as on etcd). What
    // is left is each live key's value at the revision, and those alongside keys.
    this.compactBatchStmt = db.prepare<[{ from: number; to: number; revision: number; now: number }]>(
      `DELETE FROM kine WHERE id > @from AND id <= @to AND (
         (deleted = 1 AND (side IS NULL OR (side_expires > 0 AND side_expires <= @now)))
         OR id < (SELECT MAX(k2.id) FROM kine k2 WHERE k2.name = kine.name AND k2.id <= @revision))`,
    );
  }

  /** The key's newest row (possibly a tombstone), or undefined when it never existed or was compacted away. */
  latest(key: string): Row | undefined {
    return this.latestStmt.get(Buffer.from(key));
  }

  /** The key's newest row at or below revision (possibly a tombstone), or undefined. */
  latestAt(key: string, revision: number): Row | undefined {
    return this.latestAtStmt.get(Buffer.from(key), revision);
  }

  /** Appends a row and returns its id: the revision of this write. */
  insert(row: NewRow): number {
    return Number(this.insertStmt.run(row).lastInsertRowid);
  }

  /** Up to limit (negative: all) live keys of range at revision, in key order. */
  list(range: KeyRange, revision: number, limit: number): Row[] {
    return this.listStmt.all({ ...range, revision, limit });
  }

  /** How many live keys range holds at revision. */
  count(range: KeyRange, revision: number): number {
    return this.countStmt.get({ ...range, revision }) ?? 0;
  }

  /** Rows after a revision, in revision order: of every key in range, or of one key when end is null. */
  replay(range: { start: Buffer; end: Buffer | null }, after: number): Row[] {
    return range.end === null
      ? this.replayKeyStmt.all({ name: range.start, after })
      : this.replayRangeStmt.all({ start: range.start, end: range.end, after });
  }

  /** The newest revision ever written (0 for an empty store). */
  currentRevision(): number {
    return this.currentRevisionStmt.get() ?? 0;
  }

  /** The revision compacted to (0 when never compacted). */
  compactRevision(): number {
    return this.compactRevisionStmt.get() ?? 0;
  }

  /** Records a compaction to revision (never lowers the recorded one). */
  setCompactRevision(revision: number): void {
    this.setCompactRevisionStmt.run(revision);
  }

  /** The oldest row still stored (null for an empty table). */
  oldestRowId(): number | null {
    return this.minIdStmt.get() ?? null;
  }

  /** Removes the rows in (from, to] that a compaction to revision drops. */
  compactBatch(from: number, to: number, revision: number): void {
    this.compactBatchStmt.run({ from, to, revision, now: Date.now() });
  }

  /** Records that key expires at `at` (ms since the epoch). */
  setExpiry(key: string, at: number): void {
    this.setExpiryStmt.run({ name: Buffer.from(key), at });
  }

  /** Forgets key's expiry. */
  clearExpiry(key: string): void {
    this.clearExpiryStmt.run(Buffer.from(key));
  }

  /** Keys whose expiry is at or before now, the earliest first. */
  expired(now: number): string[] {
    return this.expiredStmt.all(now).map((b) => b.toString());
  }

  /** Every key with an expiry. */
  expiring(): string[] {
    return this.expiringStmt.all().map((b) => b.toString());
  }
}
