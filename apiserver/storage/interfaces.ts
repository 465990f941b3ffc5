/**
 * The storage contract: bytes in, bytes out, revisions are numbers.
 *
 * Every write gets a new, strictly increasing store-wide revision (etcd's revision; the embedded
 * store's row id). `modRevision` of a key is the revision of its last write; it is the object's
 * resourceVersion. Nothing above this layer knows about etcd or SQLite.
 */

/** One stored key at one revision. */
export interface KeyValue {
  key: string;
  value: Buffer;
  /** Revision at which the key was (last) created. */
  createRevision: number;
  /** Revision of the write that produced this value (for a deletion event: the deletion's revision). */
  modRevision: number;
}

export interface ListOptions {
  /** Read at this revision (exact snapshot); 0 or absent = the current revision. */
  revision?: number;
  /** At most this many items; 0 or absent = no limit. */
  limit?: number;
  /** Start at this full key (inclusive) instead of the prefix itself; must lie under the prefix. */
  startKey?: string;
}

export interface ListResult {
  items: KeyValue[];
  /** The revision the list was read at (the current revision when none was asked). */
  revision: number;
  /** True when keys under the prefix remain after the last item. */
  more: boolean;
  /** How many keys remain after the last item (0 when `more` is false). */
  remaining: number;
}

export type StorageEventType = 'put' | 'delete';

export interface StorageEvent {
  type: StorageEventType;
  /**
   * put: the new value (createRevision === modRevision when the key was created by this write).
   * delete: the last value the key had, with modRevision set to the deletion's revision.
   */
  kv: KeyValue;
  /** The value before this event; absent for a create. */
  prev?: KeyValue;
}

export interface WatchOptions {
  /** Deliver every event with revision > afterRevision, in revision order, with no gaps. */
  afterRevision: number;
}

/**
 * A running watch. Events arrive in revision order through `onEvent`; a failure arrives once through
 * `onError` (a StorageError with code 'Compacted' when afterRevision has been compacted away), after
 * which no more events are delivered.
 */
export interface StorageWatcher {
  stop(): void;
}

export interface WatchHandlers {
  onEvent(event: StorageEvent): void;
  onError(err: Error): void;
}

/**
 * Keys under this root are only ever written alongside another write (WriteOptions.alongside) and
 * read with get and list (at a revision too); they are never watched, and no create, update or
 * delete names them.
 */
export const ALONGSIDE_ROOT = '/orch-ledger/';

/**
 * The alongside key of a key, the only one a write of that key may put beside it: under
 * ALONGSIDE_ROOT, the key without its leading '/'. The embedded store keeps it in the key's own rows.
 */
export function alongsideKey(key: string): string {
  return `${ALONGSIDE_ROOT}${key.startsWith('/') ? key.slice(1) : key}`;
}

/** The key an alongside key is written beside (alongsideKey's inverse). */
export function ownerOfAlongsideKey(alongside: string): string {
  return `/${alongside.slice(ALONGSIDE_ROOT.length)}`;
}

/**
 * etcd's index of the writes of alongside keys (Storage.alongsideHistory): one key per write, named
 * after the alongside key, created in the write's txn (so its createRevision is the write's revision).
 * Apart from every object prefix and from ALONGSIDE_ROOT, so no watch or listing of either sees it.
 */
export const ALONGSIDE_INDEX_ROOT = '/orch-ledger-index/';

/** Options of a create or update. */
export interface WriteOptions {
  /**
   * The key expires (is deleted, with a delete event) about this many seconds after this write; a
   * later write without it keeps the key for good. etcd: a lease; the embedded store: an expiry it
   * enforces itself.
   */
  ttlSeconds?: number;
  /**
   * Another key put with this write, at this write's own revision, or with none of it (the revision
   * ledger's record beside the object). Its key is alongsideKey(the written key). etcd: one more put
   * in the write's txn; the embedded store: columns of the row the write appends. Either way
   * the store's newest revision stays the object's, so a watch of the object's prefix is never
   * behind the store. With ttlSeconds the alongside key expires that long after this write unless
   * it is written again (etcd: a lease; the embedded store: its reads leave it out from then on). With
   * indexSeconds the write is listed for alongsideHistory for at least that long (etcd: an index
   * key on a lease; the embedded store's rows are their own index).
   */
  alongside?: { key: string; value: Buffer; ttlSeconds?: number; indexSeconds?: number };
}

/**
 * One write of an alongside key (Storage.alongsideHistory): the alongside key's value it wrote (its
 * modRevision is the write's revision) and the owner key's value as the write left it (null: the
 * write deleted it, or the owner was absent).
 */
export interface AlongsideWrite {
  alongside: KeyValue;
  owner: KeyValue | null;
}

export interface AlongsideHistory {
  /** Newest first, each at or below the revision asked for and none below the compacted revision. */
  writes: AlongsideWrite[];
  /**
   * True when no retained write is missing: fewer writes than the limit means there are none older
   * in the window. False when the store's index of the key's writes may lack older ones (etcd:
   * writes made before the index existed, or whose index entries expired early); the caller then
   * walks on from the oldest write listed, one read per write (get at modRevision - 1).
   */
  complete: boolean;
  /** The revision the page was read at: atOrBefore, or the current revision when none was asked. */
  revision: number;
  /**
   * The alongside key's value at that revision (a get of it there), null when it has none: the first
   * write listed is this one's unless the index lacks it (the caller then walks from here).
   */
  newest: KeyValue | null;
}

/** Which writes Storage.alongsideHistory lists: the last `limit` at or below atOrBefore (absent: the current revision). */
export interface HistoryPageOptions {
  atOrBefore?: number;
  limit: number;
}

/** One create of a batch (Storage.createBatch). */
export interface BatchCreate {
  key: string;
  value: Buffer;
  options?: WriteOptions;
}

/**
 * The most creates one createBatch takes: etcd's default --max-txn-ops (128) over three puts each
 * (the key's, its alongside key's and that one's index entry).
 */
export const MAX_BATCH_CREATES = 42;

/** The most bytes (keys and values) one createBatch should carry: under etcd's default --max-request-bytes (1.5 MiB). */
export const MAX_BATCH_BYTES = 1024 * 1024;

export interface Storage {
  /** Create key if absent. Throws StorageError 'KeyExists' when present. */
  create(key: string, value: Buffer, options?: WriteOptions): Promise<KeyValue>;

  /**
   * Create every key, or none (a namespace restore writes an owner with its dependents this way, so
   * no watcher sees one without the others). Throws 'KeyExists' naming the first key present. Every
   * watcher gets the whole batch at once: etcd writes it in one txn (every key at that txn's one
   * revision), the embedded store in one transaction (consecutive revisions, published together
   * after the commit). At most MAX_BATCH_CREATES creates; returns them in the order given.
   */
  createBatch(creates: BatchCreate[]): Promise<KeyValue[]>;

  /**
   * The current value of key, or null; with `revision`, the value it had at that revision (the
   * revision ledger's reads), throwing 'Compacted' / 'FutureRevision' as list does.
   */
  get(key: string, options?: { revision?: number }): Promise<KeyValue | null>;

  /**
   * Keys under prefix in key order, optionally at a past revision and paged.
   * Throws 'Compacted' for a revision older than the compacted one, 'FutureRevision' for one newer
   * than the store's current revision.
   */
  list(prefix: string, options?: ListOptions): Promise<ListResult>;

  /**
   * Compare-and-swap: write value when the key's modRevision equals expectedModRevision.
   * Throws 'Conflict' (with `current`, the value now stored) when it differs, 'KeyNotFound' when absent.
   * Callers go through guaranteedUpdate(), the one retry loop; nothing else compares revisions.
   */
  update(key: string, value: Buffer, expectedModRevision: number, options?: WriteOptions): Promise<KeyValue>;

  /**
   * Delete key, when expectedModRevision is given only if it still matches ('Conflict' with `current`
   * otherwise). Returns the deleted value with modRevision = the deletion's revision.
   * Throws 'KeyNotFound' when absent.
   */
  delete(key: string, expectedModRevision?: number, options?: Pick<WriteOptions, 'alongside'>): Promise<KeyValue>;

  /** Watch every key under prefix (a prefix ending in '/', or one exact key). */
  watch(prefix: string, options: WatchOptions, handlers: WatchHandlers): StorageWatcher;

  /** The store's current revision (the latest write's). */
  currentRevision(): Promise<number>;

  /** The oldest revision still readable (0 when nothing was compacted). */
  compactedRevision(): Promise<number>;

  /** Drop history older than revision. */
  compact(revision: number): Promise<void>;

  /**
   * The size bound of history (--history-retention-max-bytes): the lowest revision compacting to
   * which leaves at most maxBytes of history, 0 when it holds no more (or the store cannot tell
   * yet). History is every revision a later write of its key superseded (updated, deleted), of
   * objects and of alongside keys alike: its key's and value's bytes, counted at the superseding
   * write's revision (a compaction to it drops them). A key's current revision never counts, so no
   * compaction this answers removes a live object's state.
   */
  historyBoundRevision(maxBytes: number): Promise<number>;

  /**
   * The last `limit` writes, at or below `atOrBefore` (absent: the current revision), of an alongside key written
   * beside ownerKey, each with the owner's value at that write: the revision ledger's history page in a
   * few requests rather than two reads per revision. The embedded store reads its alongside rows; etcd
   * reads an index it keeps beside each alongside write given `indexSeconds` (a key per write under
   * ALONGSIDE_INDEX_ROOT, on a lease of that many seconds), then every value in one transaction. Throws
   * 'Compacted' / 'FutureRevision' for atOrBefore as get does.
   */
  alongsideHistory(key: string, ownerKey: string, options: HistoryPageOptions): Promise<AlongsideHistory>;

  close(): Promise<void>;
}
