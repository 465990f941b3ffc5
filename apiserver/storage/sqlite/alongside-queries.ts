import type Database from 'better-sqlite3';
import type { KeyValue } from '../interfaces.js';
import type { KeyRange } from '../key-range.js';
import type { AlongsideRow } from './schema.js';

/** The newest row of each key in [start, end) at or below revision. */
const LATEST_IN_RANGE = `
  FROM alongside a
  JOIN (SELECT name, MAX(revision) AS revision FROM alongside
        WHERE name >= @start AND name < @end AND revision <= @revision GROUP BY name) m
    ON a.name = m.name AND a.revision = m.revision`;

/**
 * The statements of the alongside table (schema.ts): the keys written beside a write, each row at
 * the revision of the write it went with. Synchronous, composed into the store's transactions.
 */
export class AlongsideQueries {
  private readonly latestAtStmt;
  private readonly writesStmt;
  private readonly createRevisionAtStmt;
  private readonly insertStmt;
  private readonly listStmt;
  private readonly countStmt;
  private readonly batchEndStmt;
  private readonly compactBatchStmt;
  private readonly compactLastBatchStmt;
  private readonly expireStmt;

  constructor(db: Database.Database) {
    this.latestAtStmt = db.prepare<[Buffer, number], AlongsideRow>(
      'SELECT * FROM alongside WHERE name = ? AND revision <= ? ORDER BY revision DESC LIMIT 1',
    );
    this.writesStmt = db.prepare<[{ name: Buffer; from: number; to: number; limit: number }], AlongsideRow>(
      'SELECT * FROM alongside WHERE name = @name AND revision >= @from AND revision <= @to ORDER BY revision DESC LIMIT @limit',
    );
    // A put only needs its key's create revision, not the previous value.
    this.createRevisionAtStmt = db
      .prepare<[Buffer, number], number>(
        'SELECT create_revision FROM alongside WHERE name = ? AND revision <= ? ORDER BY revision DESC LIMIT 1',
      )
      .pluck();
    this.insertStmt = db.prepare<[AlongsideRow]>(
      `INSERT INTO alongside (name, revision, create_revision, value, expires_at)
       VALUES (@name, @revision, @create_revision, @value, @expires_at)`,
    );
    this.listStmt = db.prepare<[{ start: Buffer; end: Buffer; revision: number; limit: number }], AlongsideRow>(
      `SELECT a.* ${LATEST_IN_RANGE} ORDER BY a.name LIMIT @limit`,
    );
    this.countStmt = db.prepare<[{ start: Buffer; end: Buffer; revision: number }], number>(`SELECT COUNT(*) ${LATEST_IN_RANGE}`).pluck();
    this.batchEndStmt = db
      .prepare<[{ after: Buffer; rows: number }], Buffer>(
        'SELECT name FROM alongside WHERE name > @after ORDER BY name LIMIT 1 OFFSET @rows',
      )
      .pluck();
    // A row at or below the compaction revision goes when a later row of its key at or below that
    // revision supersedes it: what is left is each key's value at the revision, and everything after.
    const superseded = `revision < (SELECT MAX(a2.revision) FROM alongside a2 WHERE a2.name = alongside.name AND a2.revision <= @revision)`;
    this.compactBatchStmt = db.prepare<[{ after: Buffer; end: Buffer; revision: number }]>(
      `DELETE FROM alongside WHERE name > @after AND name <= @end AND ${superseded}`,
    );
    this.compactLastBatchStmt = db.prepare<[{ after: Buffer; revision: number }]>(
      `DELETE FROM alongside WHERE name > @after AND ${superseded}`,
    );
    this.expireStmt = db.prepare<[{ now: number }]>(
      `DELETE FROM alongside WHERE name IN (SELECT a.name FROM alongside a WHERE a.expires_at > 0 AND a.expires_at <= @now
         AND a.revision = (SELECT MAX(a2.revision) FROM alongside a2 WHERE a2.name = a.name))`,
    );
  }

  /** The key's newest row at or below revision, or undefined. */
  /** The key's rows from revision `from` to `to`, newest first, at most limit. */
  writes(key: string, from: number, to: number, limit: number): AlongsideRow[] {
    return this.writesStmt.all({ name: Buffer.from(key), from, to, limit });
  }

  latestAt(key: string, revision: number): AlongsideRow | undefined {
    return this.latestAtStmt.get(Buffer.from(key), revision);
  }

  /**
   * Puts key at revision (the revision of the write it goes with), inside the caller's transaction;
   * expiresAt (ms since the epoch, 0: never) is when it goes unless written again.
   */
  put(key: string, value: Buffer, revision: number, expiresAt: number): void {
    const name = Buffer.from(key);
    const createRevision = this.createRevisionAtStmt.get(name, revision);
    this.insertStmt.run({ name, revision, create_revision: createRevision ?? revision, value, expires_at: expiresAt });
  }

  /** Removes every row of the keys whose newest row expired at or before now. */
  expire(now: number): void {
    this.expireStmt.run({ now });
  }

  /** Up to limit (negative: all) keys of range at revision, in key order. */
  list(range: KeyRange, revision: number, limit: number): AlongsideRow[] {
    return this.listStmt.all({ ...range, revision, limit });
  }

  /** How many keys range holds at revision. */
  count(range: KeyRange, revision: number): number {
    return this.countStmt.get({ ...range, revision }) ?? 0;
  }

  /**
   * Removes what a compaction to revision drops of the keys after `after` (in key order), about
   * `rows` rows' worth of them; returns the last key covered, or null once the table's end was.
   */
  compactBatch(after: Buffer, rows: number, revision: number): Buffer | null {
    const end = this.batchEndStmt.get({ after, rows: rows - 1 });
    if (end) this.compactBatchStmt.run({ after, end, revision });
    else this.compactLastBatchStmt.run({ after, revision });
    return end ?? null;
  }
}

/** The key's value as of this row. */
export function alongsideKeyValue(row: AlongsideRow): KeyValue {
  return { key: row.name.toString(), value: row.value, createRevision: row.create_revision, modRevision: row.revision };
}
