import type Database from 'better-sqlite3';
import { StorageError } from '../errors.js';
import {
  ALONGSIDE_ROOT,
  type AlongsideHistory,
  type AlongsideWrite,
  alongsideKey,
  type BatchCreate,
  type HistoryPageOptions,
  type KeyValue,
  type ListOptions,
  type ListResult,
  MAX_BATCH_CREATES,
  ownerOfAlongsideKey,
  type Storage,
  type StorageWatcher,
  type WatchHandlers,
  type WatchOptions,
  type WriteOptions,
} from '../interfaces.js';
import { type KeyRange, listRange, watchRange } from '../key-range.js';
import { WatchSink } from '../watch-sink.js';
import { AlongsideQueries, alongsideKeyValue, live } from './alongside-queries.js';
import { HistoryBoundQuery } from './history-bound.js';
import { type KineRow, Queries } from './queries.js';
import { rowToEvent, rowToKeyValue } from './rows.js';
import { openDatabase, type Row } from './schema.js';
import { WatchHub } from './watch-hub.js';

export interface SqliteStorageOptions {
  /** The database file (created when missing). */
  path: string;
}

/** Revisions a compaction clears per transaction, so a large compaction does not block the process. */
const COMPACT_BATCH = 1000;
/** How often keys past their expiry are deleted. */
const EXPIRE_INTERVAL_MS = 1000;

/**
 * The embedded Storage: one SQLite file, kine style (see schema.ts). Writes are synchronous
 * better-sqlite3 transactions, so each compare-and-swap is atomic; watches are pushed in-process.
 * One process owns the file: watches only see writes made through this Storage object.
 */
export function newSqliteStorage(options: SqliteStorageOptions): Storage {
  return new SqliteStorage(openDatabase(options.path));
}

class SqliteStorage implements Storage {
  private readonly queries: Queries;
  /** The keys written beside a write (ALONGSIDE_ROOT): reads of them read their owners' rows. */
  private readonly alongside: AlongsideQueries;
  private readonly historyBound: HistoryBoundQuery;
  private readonly hub = new WatchHub();
  /**
   * The newest committed revision, kept in memory: this object is the file's only writer, so reading
   * it back from SQLite on every consistent read (the watch cache asks for it per read) is wasted work.
   */
  private readonly head: { revision: number };
  /** Keys with an expiry (kept in memory so a write of any other key costs no expiry statement). */
  private readonly expiring: Set<string>;
  private expiryTimer: NodeJS.Timeout | undefined;
  /**
   * The rows of writeAll, appended in one transaction. Made once: better-sqlite3 builds a
   * transaction's wrappers anew on each db.transaction() call, about as costly as a row's insert.
   */
  private readonly writeTransaction: (writes: RowWrite[]) => Row[];

  constructor(private readonly db: Database.Database) {
    this.writeTransaction = db.transaction((writes: RowWrite[]): Row[] =>
      writes.map(({ key, options, next }) => {
        const ttl = options?.ttlSeconds;
        const extra = options?.alongside;
        const latest = this.queries.latest(key);
        // The alongside key goes in the row itself (schema.ts), continuing the key the owner's rows hold.
        const side = extra
          ? {
              side: extra.value,
              side_create: this.alongside.createRevision(key, latest),
              side_expires: extra.ttlSeconds ? Date.now() + extra.ttlSeconds * 1000 : 0,
            }
          : NO_SIDE;
        const newRow = { ...next(latest), ...side };
        const id = this.queries.insert(newRow);
        if (ttl && !newRow.deleted) this.queries.setExpiry(key, Date.now() + ttl * 1000);
        else if (this.expiring.has(key)) this.queries.clearExpiry(key);
        return { ...newRow, id };
      }),
    );
    this.queries = new Queries(db);
    this.alongside = new AlongsideQueries(db);
    this.historyBound = new HistoryBoundQuery(db);
    this.head = { revision: this.queries.currentRevision() };
    this.expiring = new Set(this.queries.expiring());
    if (this.expiring.size > 0) this.startExpiry();
  }

  async create(key: string, value: Buffer, options?: WriteOptions): Promise<KeyValue> {
    return this.write(key, options, (latest) => newKeyRow(key, value, latest));
  }

  async createBatch(creates: BatchCreate[]): Promise<KeyValue[]> {
    if (creates.length > MAX_BATCH_CREATES) throw new Error(`storage: a batch holds at most ${MAX_BATCH_CREATES} creates`);
    return this.writeAll(creates.map((c) => ({ key: c.key, options: c.options, next: (latest) => newKeyRow(c.key, c.value, latest) })));
  }

  async get(key: string, options?: { revision?: number }): Promise<KeyValue | null> {
    this.ensureOpen(key);
    if (key.startsWith(ALONGSIDE_ROOT)) {
      const row = this.alongside.latestAt(ownerOfAlongsideKey(key), this.readableRevision(key, options?.revision));
      return row ? alongsideKeyValue(row) : null;
    }
    const latest = options?.revision ? this.queries.latestAt(key, this.readableRevision(key, options.revision)) : this.queries.latest(key);
    return latest && !latest.deleted ? rowToKeyValue(latest) : null;
  }

  async list(prefix: string, options: ListOptions = {}): Promise<ListResult> {
    this.ensureOpen(prefix);
    const revision = this.readableRevision(prefix, options.revision);
    const side = prefix.startsWith(ALONGSIDE_ROOT);
    // Alongside keys are read from their owners' rows: the owners' range, in the same key order.
    const range = side
      ? listRange(ownerOfAlongsideKey(prefix), options.startKey && ownerOfAlongsideKey(options.startKey))
      : listRange(prefix, options.startKey);
    const table = side ? this.alongsideTable : this.kineTable;
    const items = table.list(range, revision, options.limit || -1);
    const remaining = table.count(range, revision) - items.length;
    return { items, revision, more: remaining > 0, remaining };
  }

  async update(key: string, value: Buffer, expectedModRevision: number, options?: WriteOptions): Promise<KeyValue> {
    return this.write(key, options, (latest) => {
      const current = this.checkPrecondition(key, latest, expectedModRevision);
      return { ...successor(current), deleted: 0, value, old_value: current.value };
    });
  }

  async delete(key: string, expectedModRevision?: number, options?: Pick<WriteOptions, 'alongside'>): Promise<KeyValue> {
    return this.deleteRow(key, expectedModRevision, options);
  }

  /** Appends key's tombstone (synchronously). */
  private deleteRow(key: string, expectedModRevision?: number, options?: Pick<WriteOptions, 'alongside'>): KeyValue {
    return this.write(key, options, (latest) => {
      const current = this.checkPrecondition(key, latest, expectedModRevision);
      return { ...successor(current), deleted: 1, value: current.value, old_value: current.value };
    });
  }

  watch(prefix: string, options: WatchOptions, handlers: WatchHandlers): StorageWatcher {
    const range = watchRange(prefix);
    const sink: WatchSink = new WatchSink(handlers, () => this.hub.unsubscribe(sink));
    if (!this.db.open) {
      sink.fail(new StorageError('Unavailable', prefix));
      return sink;
    }
    const compacted = this.queries.compactRevision();
    if (options.afterRevision < compacted) {
      sink.fail(compactedError(prefix, compacted, options.afterRevision));
      return sink;
    }
    // Replay and subscription happen in one synchronous step: no write can commit in between, so
    // every event after afterRevision arrives exactly once.
    for (const row of this.queries.replay(range, options.afterRevision)) sink.push(rowToEvent(row));
    this.hub.subscribe(prefix, options.afterRevision, sink);
    return sink;
  }

  async currentRevision(): Promise<number> {
    this.ensureOpen('');
    return this.head.revision;
  }

  async compactedRevision(): Promise<number> {
    this.ensureOpen('');
    return this.queries.compactRevision();
  }

  async compact(revision: number): Promise<void> {
    this.ensureOpen('');
    const current = this.head.revision;
    if (revision > current) {
      throw new StorageError('FutureRevision', '', { revision: current, requestedRevision: revision });
    }
    if (revision <= this.queries.compactRevision()) return;
    // Recorded first: from here on reads below the revision fail, so none sees a half-compacted store.
    this.queries.setCompactRevision(revision);
    // By revision; alongside keys go with their owners' rows (an expired one is left out of reads until then).
    for (let from = (this.queries.oldestRowId() ?? revision) - 1; from < revision; from += COMPACT_BATCH) {
      const to = Math.min(from + COMPACT_BATCH, revision);
      this.db.transaction(() => this.queries.compactBatch(from, to, revision))();
      if (!(await this.yieldOpen())) return;
    }
  }

  /** The owner's rows are the index: every write of the key in the window, owner and alongside value alike, in one query. */
  async alongsideHistory(key: string, ownerKey: string, options: HistoryPageOptions): Promise<AlongsideHistory> {
    this.ensureOpen(key);
    const revision = this.readableRevision(key, options.atOrBefore);
    if (key !== alongsideKey(ownerKey)) return { writes: [], complete: true, revision, newest: null };
    const rows = this.alongside.writes(ownerKey, this.queries.compactRevision(), revision, options.limit);
    const writes = rows.map(
      (row): AlongsideWrite => ({ alongside: alongsideKeyValue(row), owner: row.deleted ? null : rowToKeyValue(row) }),
    );
    // The newest row listed is the key's newest at the revision (any older one lies below it); none
    // listed, it may lie below the compacted revision.
    const newest = rows.length > 0 ? live(rows[0]) : this.alongside.latestAt(ownerKey, revision);
    return { writes, complete: true, revision, newest: newest ? alongsideKeyValue(newest) : null };
  }

  async historyBoundRevision(maxBytes: number): Promise<number> {
    this.ensureOpen('');
    return this.historyBound.boundRevision(this.queries.compactRevision(), maxBytes);
  }

  /** Lets other work run between compaction batches; false once the store was closed meanwhile. */
  private async yieldOpen(): Promise<boolean> {
    await new Promise((resolve) => setImmediate(resolve));
    return this.db.open;
  }

  /** Lists of object keys read kine's rows; lists under ALONGSIDE_ROOT the alongside table's. */
  private readonly kineTable = {
    list: (range: KeyRange, revision: number, limit: number) => this.queries.list(range, revision, limit).map(rowToKeyValue),
    count: (range: KeyRange, revision: number) => this.queries.count(range, revision),
  };
  private readonly alongsideTable = {
    list: (range: KeyRange, revision: number, limit: number) => this.alongside.list(range, revision, limit).map(alongsideKeyValue),
    count: (range: KeyRange, revision: number) => this.alongside.count(range, revision),
  };

  async close(): Promise<void> {
    clearInterval(this.expiryTimer);
    this.hub.stopAll();
    if (this.db.open) this.db.close();
  }

  /**
   * Runs one write: reads the key's newest row and appends the row `next` builds from it, in one
   * transaction; then publishes the event to the watches, still before anything else can run.
   */
  private write(key: string, options: WriteOptions | undefined, next: (latest: Row | undefined) => KineRow): KeyValue {
    return this.writeAll([{ key, options, next }])[0];
  }

  /** Runs writes in one transaction (all or none), then publishes their events together. */
  private writeAll(writes: RowWrite[]): KeyValue[] {
    for (const w of writes) {
      this.ensureOpen(w.key);
      // Caller bugs, not store errors: the two key spaces never mix.
      if (w.key.startsWith(ALONGSIDE_ROOT)) throw new Error(`storage: ${w.key} lies under ${ALONGSIDE_ROOT}: it is only written alongside`);
      if (w.options?.alongside && w.options.alongside.key !== alongsideKey(w.key)) {
        throw new Error(`storage: the alongside key of ${w.key} is ${alongsideKey(w.key)}, not ${w.options.alongside.key}`);
      }
    }
    const rows = this.writeTransaction(writes);
    const events = rows.map((row, i) => {
      const key = writes[i].key;
      if (writes[i].options?.ttlSeconds && !row.deleted) {
        this.expiring.add(key);
        this.startExpiry();
      } else this.expiring.delete(key);
      return rowToEvent(row);
    });
    this.head.revision = rows[rows.length - 1]?.id ?? this.head.revision;
    for (const event of events) this.hub.publish(event);
    return events.map((e) => e.kv);
  }

  private startExpiry(): void {
    this.expiryTimer ??= setInterval(() => this.expire(), EXPIRE_INTERVAL_MS).unref();
  }

  /** Deletes the keys past their expiry, each with its delete event, as an etcd lease's end does. */
  private expire(): void {
    if (!this.db.open) return;
    for (const key of this.queries.expired(Date.now())) {
      try {
        this.deleteRow(key);
      } catch {
        // Already gone: only the expiry is left to forget.
        this.queries.clearExpiry(key);
        this.expiring.delete(key);
      }
    }
  }

  /** The key's live newest row when it satisfies the expected modRevision; else KeyNotFound/Conflict. */
  private checkPrecondition(key: string, latest: Row | undefined, expectedModRevision: number | undefined): Row {
    if (!latest || latest.deleted) throw new StorageError('KeyNotFound', key);
    if (expectedModRevision !== undefined && latest.id !== expectedModRevision) {
      throw new StorageError('Conflict', key, { current: rowToKeyValue(latest) });
    }
    return latest;
  }

  /** The revision a list reads at, checked against the compacted and the current revision. */
  private readableRevision(prefix: string, requested: number | undefined): number {
    const current = this.head.revision;
    if (!requested) return current;
    if (requested > current) {
      throw new StorageError('FutureRevision', prefix, { revision: current, requestedRevision: requested });
    }
    const compacted = this.queries.compactRevision();
    if (requested < compacted) throw compactedError(prefix, compacted, requested);
    return requested;
  }

  private ensureOpen(key: string): void {
    if (!this.db.open) throw new StorageError('Unavailable', key, { cause: new Error('storage is closed') });
  }
}

/** One write of a transaction: the key, its options and the row to append given the key's newest. */
interface RowWrite {
  key: string;
  options: WriteOptions | undefined;
  next: (latest: Row | undefined) => KineRow;
}

/** The side columns of a row whose write put no alongside key. */
const NO_SIDE = { side: null, side_create: 0, side_expires: 0 } as const;

/** The row creating key (KeyExists when it is live). */
function newKeyRow(key: string, value: Buffer, latest: Row | undefined): KineRow {
  if (latest && !latest.deleted) throw new StorageError('KeyExists', key);
  return {
    name: Buffer.from(key),
    created: 1,
    deleted: 0,
    create_revision: 0,
    prev_revision: latest?.id ?? 0,
    value,
    old_value: Buffer.alloc(0),
  };
}

/** The fields a row that follows `current` for the same key shares. */
function successor(current: Row): Pick<Row, 'name' | 'created' | 'create_revision' | 'prev_revision'> {
  return {
    name: current.name,
    created: 0,
    create_revision: rowToKeyValue(current).createRevision,
    prev_revision: current.id,
  };
}

function compactedError(key: string, compacted: number, requested: number): StorageError {
  return new StorageError('Compacted', key, { revision: compacted, requestedRevision: requested });
}
