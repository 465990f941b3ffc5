/**
 * Where the store's writes go: the storage, or for a dry run a stand-in over it (Kubernetes'
 * dryrun.Storage) that reads what the write would read, runs the write's steps on it, fails as the
 * write would fail, and stores nothing. Null from either method means nothing was stored.
 */
import type { KeyValue, Storage, WriteOptions } from '../../storage/interfaces.js';
import { StorageError } from '../../storage/errors.js';
import { guaranteedUpdate } from '../../storage/guaranteed-update.js';

/** guaranteedUpdate's step: the bytes to write from the current state, null to delete the key. */
export type TryUpdate = (current: KeyValue | null) => Promise<Buffer | null> | Buffer | null;

export interface WriteTarget {
  /** Stores a new key; KeyExists when it is there. */
  create(key: string, value: Buffer, options?: WriteOptions): Promise<KeyValue | null>;
  /** The optimistic-concurrency loop of storage/guaranteed-update.ts, from `cached` when given. */
  update(key: string, tryUpdate: TryUpdate, cached?: KeyValue, options?: WriteOptions): Promise<{ kv: KeyValue; deleted: boolean } | null>;
}

export function storageTarget(storage: Storage): WriteTarget {
  return {
    create: (key, value, options) => storage.create(key, value, options),
    update: (key, tryUpdate, cached, options) => guaranteedUpdate(storage, key, tryUpdate, cached, options),
  };
}

/** A dry run's target: one attempt on the stored state (never a cached one), nothing written. */
export function dryRunTarget(storage: Storage): WriteTarget {
  return {
    async create(key) {
      if (await storage.get(key)) throw new StorageError('KeyExists', key);
      return null;
    },
    async update(key, tryUpdate) {
      await tryUpdate(await storage.get(key));
      return null;
    },
  };
}
