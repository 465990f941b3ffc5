import type Database from 'better-sqlite3';
import { ALONGSIDE_ROOT } from '../interfaces.js';

/**
 * History's size bound on the embedded store (Storage.historyBoundRevision): every row past the
 * compacted revision that superseded an earlier revision of its key weighs that revision's bytes:
 * an update's or delete's the old_value it superseded, and a row putting an alongside key over one
 * its previous row held that row's (the alongside key's name and value). Summed from the newest
 * revision down, the first revision where the sum passes the bound is the one to compact to.
 */
const BOUND = `
  SELECT r FROM (
    SELECT r, SUM(b) OVER (ORDER BY r DESC ROWS UNBOUNDED PRECEDING) AS kept FROM (
      SELECT k.id AS r,
          CASE WHEN k.created = 0 THEN LENGTH(k.name) + LENGTH(k.old_value) ELSE 0 END
          + CASE WHEN k.side IS NULL THEN 0 ELSE COALESCE(
              (SELECT ${ALONGSIDE_ROOT.length - 1} + LENGTH(p.name) + LENGTH(p.side) FROM kine p WHERE p.id = k.prev_revision), 0) END AS b
        FROM kine k WHERE k.id > @compacted AND k.prev_revision > 0
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
