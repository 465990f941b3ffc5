/**
 * A Storage whose values are encrypted at rest (--encryption-provider-config): the values of keys
 * whose resource has providers (storage/value/transformers.ts) are stored transformed and read back
 * through the provider their prefix names, in every read (gets, lists, watch events and their
 * previous values, the ledger's history pages, a conflict's current value). Keys of resources without
 * providers, and the ledger's records (which hold no values), pass as they are. Every layer above
 * sees plain values, the watch cache among them, as in Kubernetes (its transformer sits in the etcd
 * store, below the cacher).
 */
import { isStorageError, StorageError } from './errors.js';
import type { KeyValue, Storage, StorageEvent, StorageWatcher, WriteOptions } from './interfaces.js';
import type { PrefixTransformers } from './value/transformers.js';

/** The providers of the resource a key belongs to; undefined: stored as it is. */
export type TransformersOf = (key: string) => PrefixTransformers | undefined;

export function encryptStorage(storage: Storage, transformersOf: TransformersOf): Storage {
  const toStorage = (key: string, value: Buffer): Buffer => transformersOf(key)?.toStorage(value, key) ?? value;
  const read = (kv: KeyValue): KeyValue => {
    const t = transformersOf(kv.key);
    return t ? { ...kv, value: t.fromStorage(kv.value, kv.key) } : kv;
  };
  const readEvent = (e: StorageEvent): StorageEvent => (e.prev ? { ...e, kv: read(e.kv), prev: read(e.prev) } : { ...e, kv: read(e.kv) });
  /** A conflict's current value is read like any other. */
  const readError = (err: unknown): unknown =>
    isStorageError(err, 'Conflict') && err.current
      ? new StorageError(err.code, err.key, {
          current: read(err.current),
          revision: err.revision,
          requestedRevision: err.requestedRevision,
          cause: err.cause,
        })
      : err;
  const write = async (key: string, value: Buffer, call: (stored: Buffer) => Promise<KeyValue>): Promise<KeyValue> => {
    try {
      return { ...(await call(toStorage(key, value))), value };
    } catch (err) {
      throw readError(err);
    }
  };
  return {
    create: (key, value, options?: WriteOptions) => write(key, value, (stored) => storage.create(key, stored, options)),
    async createBatch(creates) {
      const stored = await storage.createBatch(creates.map((c) => ({ ...c, value: toStorage(c.key, c.value) })));
      return stored.map((kv, i) => ({ ...kv, value: creates[i].value }));
    },
    get: async (key, options) => {
      const kv = await storage.get(key, options);
      return kv && read(kv);
    },
    list: async (prefix, options) => {
      const page = await storage.list(prefix, options);
      return { ...page, items: page.items.map(read) };
    },
    update: (key, value, rev, options) => write(key, value, (stored) => storage.update(key, stored, rev, options)),
    delete: async (key, rev, options) => {
      try {
        return read(await storage.delete(key, rev, options));
      } catch (err) {
        throw readError(err);
      }
    },
    watch: (prefix, options, handlers) => {
      let watcher: StorageWatcher | undefined;
      let failed = false;
      watcher = storage.watch(prefix, options, {
        onEvent(event) {
          if (failed) return;
          let plain: StorageEvent;
          try {
            plain = readEvent(event);
          } catch (err) {
            // An event that does not decrypt ends the watch, as a failed decode ends Kubernetes' (the watcher relists).
            failed = true;
            watcher?.stop();
            handlers.onError(err instanceof Error ? err : new Error(String(err)));
            return;
          }
          handlers.onEvent(plain);
        },
        onError: (err) => handlers.onError(err),
      });
      if (failed) watcher.stop();
      return watcher;
    },
    currentRevision: () => storage.currentRevision(),
    compactedRevision: () => storage.compactedRevision(),
    compact: (revision) => storage.compact(revision),
    historyBoundRevision: (maxBytes) => storage.historyBoundRevision(maxBytes),
    alongsideHistory: async (key, ownerKey, options) => {
      const history = await storage.alongsideHistory(key, ownerKey, options);
      return { ...history, writes: history.writes.map((w) => ({ alongside: w.alongside, owner: w.owner && read(w.owner) })) };
    },
    close: () => storage.close(),
  };
}
