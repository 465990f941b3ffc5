/**
 * The wiring every controller repeats, once: enqueue an informer's objects, wait until the informers'
 * caches have synced, then either run workers over the queue until the signal aborts (the queue is
 * shut down then) or call a periodic pass until it aborts. Failures are logged with what failed and
 * the item's key, never thrown: as warnings, except a Conflict (the object changed since the cache
 * read it; the item is retried from a fresher cache), which is what optimistic concurrency looks like
 * in a healthy cluster and is logged at verbose.
 */
import type { KindObject } from '../../apiserver/api/object.js';
import { isApiError } from '../../apiserver/api/status.js';
import type { Logger } from '../../apiserver/component-base/logs/logger.js';
import { sleep } from '../informers/backoff.js';
import { objectKey } from '../informers/indexer.js';
import type { Informer } from '../informers/informer.js';
import { runWorkers, type SyncResult } from '../workqueue/run-workers.js';
import type { WorkQueue } from '../workqueue/work-queue.js';
import type { Expectations } from './expectations.js';
import { messageOf } from '../../apiserver/api/thrown.js';

/** An informer of any kind, as far as waiting for its cache goes. */
export type SyncingInformer = Pick<Informer, 'waitForSync'>;

/** Waits for every informer's first list; false when the signal aborted first. */
export async function waitForCacheSync(signal: AbortSignal, informers: Iterable<SyncingInformer>): Promise<boolean> {
  for (const informer of informers) if (!(await informer.waitForSync(signal))) return false;
  return true;
}

/**
 * Queues `keyOf(obj)` for every object the informer adds or updates and, unless `deletes` is false,
 * deletes.
 */
export function enqueueChanges<K extends KindObject>(
  informer: Informer<K>,
  queue: WorkQueue<string>,
  opts: { keyOf?: (obj: K) => string; deletes?: boolean } = {},
): void {
  const keyOf = opts.keyOf ?? objectKey;
  const enqueue = (obj: K) => queue.add(keyOf(obj));
  informer.addEventHandler({
    onAdd: enqueue,
    onUpdate: (_old, obj) => enqueue(obj),
    ...(opts.deletes === false ? {} : { onDelete: enqueue }),
  });
}

/**
 * Queues every controller object (a ReplicaSet, a Job, a DaemonSet) the informer adds, updates or
 * deletes; a deleted one's expectations are forgotten first.
 */
export function enqueueControllers<K extends KindObject>(
  informer: Informer<K>,
  queue: WorkQueue<string>,
  expectations: Expectations,
): void {
  informer.addEventHandler({
    onAdd: (obj) => queue.add(objectKey(obj)),
    onUpdate: (_old, obj) => queue.add(objectKey(obj)),
    onDelete: (obj) => {
      expectations.delete(objectKey(obj));
      queue.add(objectKey(obj));
    },
  });
}

/**
 * What the workers work off: a queue and the sync of one of its items. A queue-driven controller is
 * one itself (its `queue` and `sync`); one whose items need decoding passes the two.
 */
export interface QueueSync<T> {
  readonly queue: WorkQueue<T>;
  sync(item: T): Promise<SyncResult | undefined> | Promise<void>;
}

export interface QueueWorkers {
  /** Caches that must have synced before the first sync. */
  informers: Iterable<SyncingInformer>;
  workers: number;
  logger: Logger;
  /** What failed, for the log line: "syncing a ReplicaSet". */
  failure: string;
  /** The log field naming the item: "replicaset". */
  itemField: string;
  /** Called once the caches have synced, before the workers start. */
  onSynced?: () => void;
}

/** Runs a queue-driven controller until the signal aborts. */
export async function runQueueWorkers<T>(signal: AbortSignal, work: QueueSync<T>, spec: QueueWorkers): Promise<void> {
  signal.addEventListener('abort', () => work.queue.shutDown(), { once: true });
  if (!(await waitForCacheSync(signal, spec.informers))) return;
  spec.onSynced?.();
  await runWorkers(
    work.queue,
    spec.workers,
    (item) => work.sync(item),
    (item, err) =>
      spec.logger.log(isApiError(err, 'Conflict') ? 'verbose' : 'warn', `${spec.failure} failed`, {
        [spec.itemField]: item,
        error: messageOf(err),
      }),
  );
}

export interface PeriodicPass {
  /** Caches that must have synced before the first pass. */
  informers: Iterable<SyncingInformer>;
  periodMs: number;
  pass: () => Promise<void>;
  logger: Logger;
  /** What failed, for the log line: "pod garbage collection". */
  failure: string;
}

/** Runs `pass` now and every `periodMs` after it finishes, until the signal aborts. */
export async function runPeriodically(signal: AbortSignal, spec: PeriodicPass): Promise<void> {
  if (!(await waitForCacheSync(signal, spec.informers))) return;
  while (!signal.aborted) {
    try {
      await spec.pass();
    } catch (err) {
      spec.logger.warn(`${spec.failure} failed`, { error: messageOf(err) });
    }
    await sleep(spec.periodMs, signal);
  }
}
