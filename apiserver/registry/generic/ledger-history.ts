/**
 * Reads the revision ledger of one object (ledger-record.ts): its records newest first, each with
 * the object as that write left it, read from the store's own history at the record's revision, and
 * the change from the write before as an RFC 6902 patch (json-diff.ts). Nothing here writes.
 *
 * The object read at a record's modRevision is what that write stored (absent after a delete: both
 * backends keep the record at the revision of the write it describes, storage/interfaces.ts's
 * alongside). A read below the compacted revision ends the walk: that history left the
 * --history-retention window.
 */
import type { ApiObject } from '../../api/object.js';
import { isStorageError } from '../../storage/errors.js';
import type { AlongsideHistory, KeyValue, Storage } from '../../storage/interfaces.js';
import { jsonDiff, type JsonPatchOperation } from './json-diff.js';
import { decodeLedgerRecord, ledgerKey, type LedgerOperation } from './ledger-record.js';

/** The most revisions one history page holds, whatever `limit` asks. */
const MAX_PAGE = 500;

/** One revision of an object as the history subresource lists it. */
export interface ObjectRevision {
  resourceVersion: string;
  time: string;
  operation: LedgerOperation;
  user: string;
  fieldManager?: string;
  /**
   * From the revision before to this one. The oldest revision in the window (whose predecessor left
   * it) and a create carry the whole object as one `add` at the root; a delete carries none.
   */
  patch: JsonPatchOperation[];
}

export interface HistoryPage {
  items: ObjectRevision[];
  /** The revision the first page was read at (the list's resourceVersion). */
  revision: number;
  /** Where the next page starts: the ledger revision of its first record; absent on the last page. */
  next?: number;
  /** False when the object never had a ledger record (at the revision read). */
  found: boolean;
}

export interface HistorySource {
  storage: Storage;
  /** The stored bytes as served (decoded and converted). */
  decode(kv: KeyValue): Promise<ApiObject>;
}

/** The value key had at revision (etcd's range at a revision), or null; 'Compacted' below the window. */
export async function keyAt(storage: Storage, key: string, revision: number): Promise<KeyValue | null> {
  return storage.get(key, { revision });
}

/** As keyAt, null where the revision is compacted away. */
async function retainedAt(storage: Storage, key: string, revision: number): Promise<KeyValue | null> {
  try {
    return await keyAt(storage, key, revision);
  } catch (err) {
    if (isStorageError(err, 'Compacted')) return null;
    throw err;
  }
}

/** One write of the object in the walk: its ledger record and the object as the write left it. */
interface Write {
  record: KeyValue;
  /** null: the write deleted it. */
  object: KeyValue | null;
}

/**
 * Up to `limit` (default and at most 500) revisions of the object at objectKey, newest first, from the ledger
 * record at `from` (a continue position) or the current revision.
 */
export async function readHistory(src: HistorySource, objectKey: string, opts: { limit?: number; from?: number }): Promise<HistoryPage> {
  const { storage } = src;
  const lkey = ledgerKey(objectKey);
  // At most a page of 500 (a server may answer fewer items than asked, as a list's does).
  const limit = Math.min(opts.limit && opts.limit > 0 ? opts.limit : MAX_PAGE, MAX_PAGE);
  // One write past the page: the last item's predecessor (its patch) and the next page's start. The
  // page comes with the record at its revision (a stale continue position fails there, 410, as a
  // list's does): the current revision when it is the first.
  const want = limit + 1;
  const indexed = await storage.alongsideHistory(lkey, objectKey, { ...(opts.from ? { atOrBefore: opts.from } : {}), limit: want });
  const { revision, newest } = indexed;
  if (!newest) return { items: [], revision, found: false };
  const writes = await walk(src, objectKey, newest, indexed, want);
  const objects = await Promise.all(writes.map((w) => (w.object ? src.decode(w.object) : null)));
  const items: ObjectRevision[] = [];
  for (let i = 0; i < writes.length && i < limit; i++) {
    // The last write listed has no predecessor in the window (none, or compacted away): the whole object.
    const first = i + 1 === writes.length;
    items.push(revisionOf(writes[i].record, objects[i], first ? undefined : objects[i + 1], first));
  }
  return { items, revision, found: true, ...(writes.length > limit ? { next: writes[limit].record.modRevision } : {}) };
}

/**
 * Up to `want` writes from `newest` back, ending early at the oldest whose predecessor the window still
 * holds whole. Read from the storage's index of the record's writes (Storage.alongsideHistory, two
 * requests on etcd, `indexed`); where the index may lack older writes, the walk goes on a write at a time: the
 * ledger key at revision R holds the record of the object's last write at or before R, so the write
 * before a record's is the ledger key at (its modRevision - 1).
 */
async function walk(src: HistorySource, objectKey: string, newest: KeyValue, indexed: AlongsideHistory, want: number): Promise<Write[]> {
  const { storage } = src;
  const lkey = newest.key;
  // The index starts at the newest record, or it is of no use (a record below the compacted revision, a gap).
  const usable = indexed.writes[0]?.alongside.modRevision === newest.modRevision;
  const writes: Write[] = usable ? indexed.writes.map((w) => ({ record: w.alongside, object: w.owner })) : [];
  if (usable && indexed.complete) return writes;
  if (writes.length === 0) writes.push({ record: newest, object: (await stateAt(src, objectKey, newest.modRevision)).kv });
  while (writes.length < want) {
    const last = writes[writes.length - 1].record;
    // The record of the object's first write (of the ledger key's generation): nothing before it.
    if (last.createRevision >= last.modRevision) break;
    const previous = await retainedAt(storage, lkey, last.modRevision - 1);
    if (!previous) break;
    const read = await stateAt(src, objectKey, previous.modRevision);
    // What the write before left is gone: the last write listed is the oldest in the window.
    if (read.compacted) break;
    writes.push({ record: previous, object: read.kv });
  }
  return writes;
}

/**
 * The object as the write at a ledger revision left it (null: deleted). The oldest record in the
 * window may lie below the compacted revision; the object is then read at that revision, where it
 * still holds what the record's write stored (every later write of it would have a later record).
 */
async function stateAt(src: HistorySource, objectKey: string, revision: number): Promise<{ kv: KeyValue | null; compacted: boolean }> {
  try {
    return { kv: await keyAt(src.storage, objectKey, revision), compacted: false };
  } catch (err) {
    if (!isStorageError(err, 'Compacted')) throw err;
    return { kv: await keyAt(src.storage, objectKey, Math.max(revision, await src.storage.compactedRevision())), compacted: true };
  }
}

function revisionOf(record: KeyValue, after: ApiObject | null, before: ApiObject | null | undefined, first: boolean): ObjectRevision {
  const r = decodeLedgerRecord(record.value);
  const operation: LedgerOperation = after ? r.operation : 'delete';
  let patch: JsonPatchOperation[] = [];
  if (after) patch = first || !before ? [{ op: 'add', path: '', value: after }] : jsonDiff(before, after);
  return {
    resourceVersion: after?.metadata.resourceVersion ?? String(record.modRevision),
    time: r.time,
    operation,
    user: r.user,
    ...(r.fieldManager ? { fieldManager: r.fieldManager } : {}),
    patch,
  };
}
