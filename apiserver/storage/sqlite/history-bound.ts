import type Database from 'better-sqlite3';

/**
 * History's size bound on the embedded store (Storage.historyBoundRevision): every row past the
 * compacted revision that superseded an earlier revision of its key weighs that revision's bytes,
 * kine's updates and deletes their old_value (the value they superseded), the alongside table's
 * rows after a key's first the row before them. Summed from the newest revision down, the first
 * revision where the sum passes the bound is the one to compact to.
 */
const BOUND = `
  SELECT r FROM (
    SELECT r, SUM(b) OVER (ORDER BY r DESC ROWS UNBOUNDED PRECEDING) AS kept FROM (
      SELECT id AS r, LENGTH(name) + LENGTH(old_value) AS b FROM kine WHERE id > @compacted AND created = 0
      UNION ALL
      SELECT a.revision, LENGTH(a.name) + COALESCE((SELECT LENGTH(p.value) FROM alongside p
          WHERE p.name = a.name AND p.revision < a.revision ORDER BY p.revision DESC LIMIT 1), 0)
        FROM alongside a WHERE a.revision > @compacted AND a.create_revision < a.revision
    )
  ) WHERE kept > @maxBytes LIMIT 1`;

export class HistoryBoundQuery {
  private readonly stmt;

  constructor(db: Database.Database) {
    this.stmt = db.prepare<[{ compacted: number; maxBytes: number }], number>(BOUND).pluck();
  }

  /** The lowest revision compacting to which leaves at most maxBytes of history past compacted; 0 when within. */
  boundRevision(compacted: number, maxBytes: number): number {
    return this.stmt.get({ compacted, maxBytes }) ?? 0;
  }
}
