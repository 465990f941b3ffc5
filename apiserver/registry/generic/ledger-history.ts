/**
 * Reads the revision ledger of one object (ledger-record.ts): its records newest first, each with
 * the object as that write left it, read from the store's own history at the record's revision, and
 * the change from the write before as an RFC 6902 patch (json-diff.ts). Nothing here writes.
 *
 * The walk: the ledger key at revision R holds the record of the object's last write at or before
 * R; the record before it is the ledger key at (its modRevision - 1). The object read at a record's
 * modRevision is what that write stored (absent after a delete: both backends keep the record at
 * the revision of the write it describes, storage/interfaces.ts's alongside). A read below the compacted
 * revision ends the walk: that history left the --history-retention window.
 */
import type { ApiObject } from '../../api/object.js';
import { isStorageError } from '../../storage/errors.js';
import type { KeyValue, Storage } from '../../storage/interfaces.js';
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

/**
 * Up to `limit` (default and at most 500) revisions of the object at objectKey, newest first, from the ledger
 * record at `from` (a continue position) or the current revision.
 */
export async function readHistory(src: HistorySource, objectKey: string, opts: { limit?: number; from?: number }): Promise<HistoryPage> {
  const { storage } = src;
  const lkey = ledgerKey(objectKey);
  // At most a page of 500: each revision is several storage reads, so a larger `limit` gets 500 and a
  // continue token (a server may answer fewer items than asked, as a list's does).
  const limit = Math.min(opts.limit && opts.limit > 0 ? opts.limit : MAX_PAGE, MAX_PAGE);
  const revision = opts.from ?? (await storage.currentRevision());
  // The first read is the one a stale continue position fails (410), as a list's does.
  let record = await keyAt(storage, lkey, revision);
  if (!record) return { items: [], revision, found: false };
  const items: ObjectRevision[] = [];
  let state = (await stateAt(src, objectKey, record.modRevision)).object;
  while (record && items.length < limit) {
    const previous: KeyValue | null =
      record.createRevision < record.modRevision ? await retainedAt(storage, lkey, record.modRevision - 1) : null;
    const read = previous ? await stateAt(src, objectKey, previous.modRevision) : undefined;
    // Compacted while the walk read it: what the write before left is gone, so this revision is the
    // oldest in the window (the whole object), and the walk ends here.
    if (read?.compacted) {
      items.push(revisionOf(record, state, undefined, true));
      record = null;
      break;
    }
    const before = read?.object;
    items.push(revisionOf(record, state, before, previous === null));
    record = previous;
    state = before ?? null;
  }
  return { items, revision, found: true, ...(record ? { next: record.modRevision } : {}) };
}

/**
 * The object as the write at a ledger revision left it (null: deleted). The oldest record in the
 * window may lie below the compacted revision; the object is then read at that revision, where it
 * still holds what the record's write stored (every later write of it would have a later record).
 */
async function stateAt(src: HistorySource, objectKey: string, revision: number): Promise<{ object: ApiObject | null; compacted: boolean }> {
  let kv: KeyValue | null;
  let compacted = false;
  try {
    kv = await keyAt(src.storage, objectKey, revision);
  } catch (err) {
    if (!isStorageError(err, 'Compacted')) throw err;
    compacted = true;
    kv = await keyAt(src.storage, objectKey, Math.max(revision, await src.storage.compactedRevision()));
  }
  return { object: kv ? await src.decode(kv) : null, compacted };
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
