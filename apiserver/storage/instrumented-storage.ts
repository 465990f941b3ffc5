/**
 * A Storage that reports how long each request to the store takes (etcd_request_duration_seconds):
 * the operation (get, list, create, update, delete, …) and the type of what was asked for (by key).
 * Watches are long-lived and not timed.
 */
import type { Storage } from './interfaces.js';

export interface StorageObserver {
  /** The label of a key's type ("pods", "deployments.apps"). */
  typeOf(key: string): string;
  observe(operation: string, type: string, seconds: number): void;
}

export function instrumentStorage(storage: Storage, observer: StorageObserver): Storage {
  const timed = async <T>(operation: string, key: string, call: () => Promise<T>): Promise<T> => {
    const start = process.hrtime.bigint();
    try {
      return await call();
    } finally {
      observer.observe(operation, observer.typeOf(key), Number(process.hrtime.bigint() - start) / 1e9);
    }
  };
  return {
    create: (key, value, options) => timed('create', key, () => storage.create(key, value, options)),
    createBatch: (creates) => timed('create', creates[0]?.key ?? '', () => storage.createBatch(creates)),
    get: (key, options) => timed('get', key, () => storage.get(key, options)),
    list: (prefix, options) => timed('list', prefix, () => storage.list(prefix, options)),
    update: (key, value, rev, options) => timed('update', key, () => storage.update(key, value, rev, options)),
    delete: (key, rev, options) => timed('delete', key, () => storage.delete(key, rev, options)),
    watch: (prefix, options, handlers) => storage.watch(prefix, options, handlers),
    currentRevision: () => timed('currentRevision', '', () => storage.currentRevision()),
    compactedRevision: () => timed('compactedRevision', '', () => storage.compactedRevision()),
    compact: (revision) => timed('compact', '', () => storage.compact(revision)),
    historyBoundRevision: (maxBytes) => timed('historyBoundRevision', '', () => storage.historyBoundRevision(maxBytes)),
    alongsideHistory: (key, ownerKey, options) =>
      timed('alongsideHistory', ownerKey, () => storage.alongsideHistory(key, ownerKey, options)),
    close: () => storage.close(),
  };
}
