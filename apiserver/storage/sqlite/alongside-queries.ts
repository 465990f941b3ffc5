import type Database from 'better-sqlite3';
import { type KeyValue, alongsideKey } from '../interfaces.js';
import type { KeyRange } from '../key-range.js';
import type { Row } from './schema.js';

/** The newest row with an alongside value of each key in [start, end) at or below revision, unexpired. */
const LATEST_IN_RANGE = `
  FROM kine k
  JOIN (SELECT MAX(id) AS id FROM kine
        WHERE name >= @start AND name < @end AND id <= @revision AND side IS NOT NULL GROUP BY name) m
    ON k.id = m.id
  WHERE k.side_expires = 0 OR k.side_expires > @now`;

/** A row that holds an alongside value. */
export type SideRow = Row & { side: Buffer };

/**
 * The statements that read alongside keys (schema.ts: each lives in its owner's rows, the `side`
 * columns). They take the owner's key; synchronous, composed into the store's transactions.
 */
export class AlongsideQueries {
  private readonly latestAtStmt;
  private readonly writesStmt;
  private readonly createRevisionStmt;
  private readonly listStmt;
  private readonly countStmt;

  constructor(db: Database.Database) {
    // The newest record, expired or not: an expired newest one means the key is gone (an older one does not come back).
    this.latestAtStmt = db.prepare<[{ name: Buffer; revision: number }], SideRow>(
      'SELECT * FROM kine WHERE name = @name AND id <= @revision AND side IS NOT NULL ORDER BY id DESC LIMIT 1',
    );
    this.writesStmt = db.prepare<[{ name: Buffer; from: number; to: number; limit: number }], SideRow>(
      'SELECT * FROM kine WHERE name = @name AND id >= @from AND id <= @to AND side IS NOT NULL ORDER BY id DESC LIMIT @limit',
    );
    // A write only needs the create revision of the alongside key it continues, when its newest row does not hold it.
    this.createRevisionStmt = db.prepare<[{ name: Buffer }], Pick<Row, 'id' | 'side_create' | 'side_expires'>>(
      'SELECT id, side_create, side_expires FROM kine WHERE name = @name AND side IS NOT NULL ORDER BY id DESC LIMIT 1',
    );
    this.listStmt = db.prepare<[{ start: Buffer; end: Buffer; revision: number; limit: number; now: number }], SideRow>(
      `SELECT k.* ${LATEST_IN_RANGE} ORDER BY k.name LIMIT @limit`,
    );
    this.countStmt = db
      .prepare<[{ start: Buffer; end: Buffer; revision: number; now: number }], number>(`SELECT COUNT(*) ${LATEST_IN_RANGE}`)
      .pluck();
  }

  /** The owner's rows with an alongside value from revision `from` to `to`, newest first, at most limit. */
  writes(owner: string, from: number, to: number, limit: number): SideRow[] {
    return this.writesStmt.all({ name: Buffer.from(owner), from, to, limit });
  }

  /** The owner's newest row with an alongside value at or below revision, undefined when there is none or it expired. */
  latestAt(owner: string, revision: number): SideRow | undefined {
    return live(this.latestAtStmt.get({ name: Buffer.from(owner), revision }));
  }

  /**
   * side_create for a new row of owner putting its alongside key, given the owner's newest row: the
   * key's create revision when it lives on (in that row, or an earlier one), else 0 (created now).
   */
  createRevision(owner: string, latest: Row | undefined): number {
    if (!latest) return 0;
    const holder = live(latest.side !== null ? latest : this.createRevisionStmt.get({ name: Buffer.from(owner) }));
    return holder ? sideCreateRevision(holder) : 0;
  }

  /** Up to limit (negative: all) alongside keys of the owners in range at revision, in key order. */
  list(range: KeyRange, revision: number, limit: number): SideRow[] {
    return this.listStmt.all({ ...range, revision, limit, now: Date.now() });
  }

  /** How many alongside keys the owners in range hold at revision. */
  count(range: KeyRange, revision: number): number {
    return this.countStmt.get({ ...range, revision, now: Date.now() }) ?? 0;
  }
}

/** The row, unless its alongside value has expired (side_expires passed): the key is gone then. */
export function live<R extends Pick<Row, 'side_expires'>>(row: R | undefined): R | undefined {
  return row && (row.side_expires === 0 || row.side_expires > Date.now()) ? row : undefined;
}

/** The create revision of the alongside key a row holds. */
function sideCreateRevision(row: Pick<Row, 'id' | 'side_create'>): number {
  return row.side_create || row.id;
}

/** The alongside key's value as of this row. */
export function alongsideKeyValue(row: SideRow): KeyValue {
  return { key: alongsideKey(row.name.toString()), value: row.side, createRevision: sideCreateRevision(row), modRevision: row.id };
}
