/**
 * A controller's status write from its cache, retried once (updateReplicaSetStatus,
 * storeDaemonSetStatus): the cache may lag behind the controller's own last write, so on a Conflict
 * the object is read afresh and the status set on it once more, instead of failing the sync into the
 * queue's growing backoff. Gone (NotFound, or replaced by another uid) writes nothing; any other
 * failure, or a second Conflict, is thrown and the sync retried.
 */
import type { KindObject } from '../../apiserver/api/object.js';
import { deepCopy } from '../../apiserver/api/object.js';
import { isApiError } from '../../apiserver/api/status.js';
import type { ResourceClient } from '../client/api-client.js';

/** Puts `status(current)` as the status of `cached` (then of the fresh object, once, on a Conflict). */
export async function updateStatusFromCache<T extends KindObject & { status?: unknown }>(
  client: ResourceClient<T>,
  cached: T,
  status: (current: T) => T['status'],
): Promise<void> {
  let next = deepCopy(cached);
  for (let attempt = 0; ; attempt++) {
    next.status = status(next);
    try {
      await client.update(next, 'status');
      return;
    } catch (err) {
      if (isApiError(err, 'NotFound')) return;
      if (!isApiError(err, 'Conflict') || attempt > 0) throw err;
    }
    try {
      next = await client.get(cached.metadata.name!);
    } catch (err) {
      if (isApiError(err, 'NotFound')) return;
      throw err;
    }
    if (next.metadata.uid !== cached.metadata.uid) return;
  }
}
