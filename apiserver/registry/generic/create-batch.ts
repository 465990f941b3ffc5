/**
 * Creates of several objects, of any kinds, stored in one storage batch (Storage.createBatch): each
 * prepared exactly as a create is (defaults, mutating admission, strategy, validation, validating
 * admission, the kind's hooks), then all written at once, so no watcher — a controller, the garbage
 * collector — sees one of them without the others. A namespace restore writes an owner with its
 * dependents this way.
 *
 * One object refused (by admission or validation, or its name taken) is left out with its error and
 * the others are written without it (prepared again: a failed batch undid every preparation). Any
 * other failure (storage unavailable) fails the whole call with nothing written.
 */
import type { ApiObject } from '../../api/object.js';
import * as status from '../../api/status.js';
import { isStorageError } from '../../storage/errors.js';
import type { Storage } from '../../storage/interfaces.js';
import type { RequestContext } from './request-context.js';
import type { CreateOptions, GenericStore, PreparedCreate } from './store.js';
import { WriteTransaction } from './write-transaction.js';

export interface BatchItem {
  store: GenericStore;
  /** The create's context (its namespace: the object's). */
  ctx: RequestContext;
  input: ApiObject;
  opts?: CreateOptions;
}

/** Each item's outcome, in the items' order: the object stored, or the API error that left it out. */
export type BatchOutcome = { object: ApiObject; error?: undefined } | { error: status.ApiError; object?: undefined };

interface Prepared {
  index: number;
  txn: WriteTransaction;
  prepared: PreparedCreate;
}

/** Stores the items (at most MAX_BATCH_CREATES, every store over `storage`, none a dry run) in one batch. */
export async function createBatch(storage: Storage, items: BatchItem[]): Promise<BatchOutcome[]> {
  const outcomes: (BatchOutcome | undefined)[] = items.map(() => undefined);
  const refuse = (index: number, err: unknown): void => {
    const item = items[index];
    const apiErr = item.store.apiError(err, item.input.metadata.name ?? '');
    if (!status.isApiError(apiErr)) throw apiErr;
    outcomes[index] = { error: apiErr };
  };
  for (;;) {
    const pending: Prepared[] = [];
    try {
      // Prepared side by side, as concurrent creates are: admission's lookups overlap.
      const prepares = items.map(async (item, index) => {
        if (outcomes[index]) return;
        const txn = new WriteTransaction();
        try {
          pending.push({ index, txn, prepared: await item.store.prepareCreateWrite(item.ctx, item.input, txn, item.opts) });
        } catch (err) {
          await txn.end();
          refuse(index, err);
        }
      });
      const failed = (await Promise.allSettled(prepares)).find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
      pending.sort((x, y) => x.index - y.index);
      if (pending.length === 0) break;
      let kvs;
      try {
        kvs = await storage.createBatch(pending.map((p) => p.prepared.write));
      } catch (err) {
        const taken = isStorageError(err, 'KeyExists') ? pending.find((p) => p.prepared.write.key === err.key) : undefined;
        if (!taken) throw items[pending[0].index].store.apiError(err, items[pending[0].index].input.metadata.name ?? '');
        // That name is taken: the others go again without it.
        refuse(taken.index, err);
        continue;
      }
      for (const [i, p] of pending.entries()) {
        await p.txn.commit();
        outcomes[p.index] = { object: await items[p.index].store.createdObject(p.prepared, kvs[i]) };
      }
      break;
    } finally {
      for (const p of pending) await p.txn.end();
    }
  }
  return outcomes.map((o) => o!);
}
