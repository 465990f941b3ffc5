import type { KeyValue, Storage, WriteOptions } from './interfaces.js';
import { isStorageError } from './errors.js';

/**
 * The one optimistic-concurrency loop. tryUpdate gets the current state (null when the key is absent)
 * and returns the bytes to write, or null to delete the key. On a lost race the loop retries from the
 * state the store returned, without re-reading. Anything tryUpdate throws on a state read from the
 * store ends the loop unchanged. Bytes equal to the stored ones are not written: that state is
 * returned as is.
 *
 * `cached` is an optional state the caller already has, maybe stale (a watch cache's): it saves the
 * first read. A stale one costs a retry, never a wrong answer: a write from it fails the revision
 * compare, and an error or a no-op computed from it is checked against a fresh read first (as
 * Kubernetes' GuaranteedUpdate does with its cached existing object). `options` go with the write (a TTL, a key written alongside — the latter with a delete too).
 */
export async function guaranteedUpdate(
  storage: Storage,
  key: string,
  tryUpdate: (current: KeyValue | null) => Promise<Buffer | null> | Buffer | null,
  cached?: KeyValue | null,
  options?: WriteOptions,
): Promise<{ kv: KeyValue; deleted: boolean }> {
  let current = cached === undefined ? await storage.get(key) : cached;
  let fresh = cached === undefined;
  const reread = async () => {
    current = await storage.get(key);
    fresh = true;
  };
  for (;;) {
    let next: Buffer | null;
    try {
      next = await tryUpdate(current);
    } catch (err) {
      if (fresh) throw err;
      await reread();
      continue;
    }
    if (current && next?.equals(current.value)) {
      if (fresh) return { kv: current, deleted: false };
      await reread();
      continue;
    }
    try {
      if (next === null) {
        if (!current) throw new Error('guaranteedUpdate: cannot delete an absent key');
        return {
          kv: await storage.delete(key, current.modRevision, options?.alongside && { alongside: options.alongside }),
          deleted: true,
        };
      }
      const kv = current ? await storage.update(key, next, current.modRevision, options) : await storage.create(key, next, options);
      return { kv, deleted: false };
    } catch (err) {
      if (isStorageError(err, 'Conflict')) {
        current = err.current ?? null;
        fresh = true;
        continue;
      }
      if (isStorageError(err, 'KeyExists') || isStorageError(err, 'KeyNotFound')) {
        await reread();
        continue;
      }
      throw err;
    }
  }
}
