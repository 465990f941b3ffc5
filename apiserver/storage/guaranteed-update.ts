import type { KeyValue, Storage } from './interfaces.js';
import { isStorageError } from './errors.js';

/**
 * The one optimistic-concurrency loop. tryUpdate gets the current state (null when the key is absent)
 * and returns the bytes to write, or null to delete the key. On a lost race the loop retries from the
 * state the store returned, without re-reading. Anything tryUpdate throws ends the loop unchanged.
 *
 * `cached` is an optional state the caller already read (saves the first read; a stale one only costs
 * a retry). Bytes equal to the stored ones are not written: the current state is returned as is.
 */
export async function guaranteedUpdate(
  storage: Storage,
  key: string,
  tryUpdate: (current: KeyValue | null) => Promise<Buffer | null> | Buffer | null,
  cached?: KeyValue | null,
): Promise<{ kv: KeyValue; deleted: boolean }> {
  let current = cached === undefined ? await storage.get(key) : cached;
  for (;;) {
    const next = await tryUpdate(current);
    if (current && next?.equals(current.value)) return { kv: current, deleted: false };
    try {
      if (next === null) {
        if (!current) throw new Error('guaranteedUpdate: cannot delete an absent key');
        return { kv: await storage.delete(key, current.modRevision), deleted: true };
      }
      const kv = current ? await storage.update(key, next, current.modRevision) : await storage.create(key, next);
      return { kv, deleted: false };
    } catch (err) {
      if (isStorageError(err, 'Conflict')) {
        current = err.current ?? null;
        continue;
      }
      if (isStorageError(err, 'KeyExists') || isStorageError(err, 'KeyNotFound')) {
        current = await storage.get(key);
        continue;
      }
      throw err;
    }
  }
}
