/**
 * An object's last deletion, read from the revision ledger (generic/ledger-record.ts): the ledger
 * key outlives the object, so at a revision where the ledger key is present and the object key is
 * not, the object was deleted, by the write of the ledger key's latest record (same revision as the
 * object's removal). The object as it was just before is the object key one revision earlier, while
 * that revision is inside the --history-retention window. Nothing here writes.
 */
import type { ApiObject } from '../../api/object.js';
import { isStorageError } from '../../storage/errors.js';
import type { KeyValue, Storage } from '../../storage/interfaces.js';
import { decodeLedgerRecord, ledgerKey } from '../generic/ledger-record.js';
import type { GenericStore } from '../generic/store.js';

/** How many ledger records back a deletion's request is looked for (finalizers remove the object later). */
const DELETE_REQUEST_WALK = 32;

export interface LastDeletion {
  store: GenericStore;
  /** The revision the object was removed at (the deletion's resourceVersion). */
  deletedRevision: number;
  /** The object as last stored, resourceVersion included. */
  object: ApiObject;
  /** Who asked for the deletion and when (the DELETE request's record when it is still in the window). */
  user: string;
  time: string;
  /**
   * The revision the deletion started at: the DELETE request's record (which set deletionTimestamp
   * when finalizers kept the object), else the removal's.
   */
  startedRevision: number;
}

/** `get` at a revision; null where the revision left the window. */
async function retained(storage: Storage, key: string, revision: number): Promise<KeyValue | null> {
  try {
    return await storage.get(key, { revision });
  } catch (err) {
    if (isStorageError(err, 'Compacted')) return null;
    throw err;
  }
}

/**
 * The deletion of the object at objectKey as seen at `revision`, given the ledger key's value there
 * (`ledger`, from a list of ledger keys, or read here when absent); null when the object is present
 * then, was never recorded, or its last live state left the window.
 */
export async function lastDeletion(
  store: GenericStore,
  objectKey: string,
  revision: number,
  ledger?: KeyValue,
): Promise<LastDeletion | null> {
  const { storage } = store;
  const lkey = ledgerKey(objectKey);
  const record = ledger ?? (await storage.get(lkey, { revision }));
  if (!record) return null;
  if (await storage.get(objectKey, { revision })) return null;
  const last = await retained(storage, objectKey, record.modRevision - 1);
  // Absent before the ledger's last write: that write was not the removal (a damaged or foreign record).
  if (!last) return null;
  const removal = decodeLedgerRecord(record.value);
  let by = { user: removal.user, time: removal.time, revision: record.modRevision };
  // A DELETE kept by finalizers was recorded as 'delete'; the write that removed the object later
  // (a controller's last finalizer) as an update. The deleter is the DELETE's user.
  if (removal.operation !== 'delete') {
    let cur: KeyValue | null = record;
    for (let i = 0; cur && i < DELETE_REQUEST_WALK && cur.createRevision < cur.modRevision; i++) {
      cur = await retained(storage, lkey, cur.modRevision - 1);
      if (!cur) break;
      const r = decodeLedgerRecord(cur.value);
      if (r.operation === 'create') break;
      if (r.operation === 'delete') {
        by = { user: r.user, time: r.time, revision: cur.modRevision };
        break;
      }
    }
  }
  return {
    store,
    deletedRevision: record.modRevision,
    object: store.decode(last),
    user: by.user,
    time: by.time,
    startedRevision: by.revision,
  };
}
