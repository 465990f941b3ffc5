/** The worker loop every controller runs over its queue. */
import type { WorkQueue } from './work-queue.js';

/** What a sync may ask for besides success (resolve) and a rate-limited retry (throw). */
export interface SyncResult {
  /** Queue the item again after this long, without counting a failure. */
  requeueAfterMs?: number;
  /** Queue the item again after the rate limiter's delay (not a failure, nothing is logged). */
  requeueRateLimited?: boolean;
}

/**
 * Runs `workers` concurrent loops that take items from `queue` and sync them until the queue shuts
 * down: success forgets the item's backoff, a thrown error re-queues it rate limited (and is passed to
 * onError), a requeueAfterMs result re-queues it after that delay and a requeueRateLimited one after
 * the rate limiter's.
 */
export async function runWorkers<T>(
  queue: WorkQueue<T>,
  workers: number,
  sync: (item: T) => Promise<SyncResult | undefined> | Promise<void>,
  onError: (item: T, err: unknown) => void,
): Promise<void> {
  const worker = async (): Promise<void> => {
    for (let item = await queue.get(); item !== undefined; item = await queue.get()) {
      try {
        const result = await sync(item);
        if (result?.requeueAfterMs !== undefined) queue.addAfter(item, result.requeueAfterMs);
        else if (result?.requeueRateLimited) queue.addRateLimited(item);
        else queue.forget(item);
      } catch (err) {
        onError(item, err);
        queue.addRateLimited(item);
      } finally {
        queue.done(item);
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
}
