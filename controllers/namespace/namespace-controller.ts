/**
 * The namespace controller: every namespace with a deletionTimestamp is queued (a few seconds later,
 * so that every API server replica has seen the deletion) and handed to the NamespacedResourcesDeleter
 * until it is empty and finalized. Content held by finalizers is looked at again after half the
 * estimate; failures are retried with backoff; terminating namespaces are also re-queued every resync
 * period.
 */
import type { ApiObject } from '../../apiserver/api/object.js';
import type { Informer } from '../informers/informer.js';
import { objectKey } from '../informers/indexer.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import { runQueueWorkers } from '../controllerutil/run-controller.js';
import type { WorkQueue } from '../workqueue/work-queue.js';
import { BucketRateLimiter, ItemExponentialFailureRateLimiter, MaxOfRateLimiter } from '../workqueue/rate-limiters.js';
import { NamespacedResourcesDeleter, ResourcesRemainingError } from './namespaced-resources-deleter.js';

export interface NamespaceControllerOptions {
  /** Namespaces deleted at once (--concurrent-namespace-syncs, 10). */
  workers?: number;
  /** How often every terminating namespace is looked at again (--namespace-sync-period, 5m). */
  resyncPeriodMs?: number;
  /** Delay between seeing a deletion and acting on it (Kubernetes' namespaceDeletionGracePeriod, 5s). */
  deletionGracePeriodMs?: number;
}

export const NAMESPACE_DELETION_GRACE_PERIOD_MS = 5_000;

export class NamespaceController implements Controller {
  private readonly informer: Informer;
  readonly queue: WorkQueue<string>;
  private readonly deleter: NamespacedResourcesDeleter;
  private readonly workers: number;
  private readonly resyncPeriodMs: number;
  private readonly graceMs: number;

  constructor(
    private readonly ctx: ControllerContext,
    opts: NamespaceControllerOptions = {},
  ) {
    this.workers = opts.workers ?? 10;
    this.resyncPeriodMs = opts.resyncPeriodMs ?? 5 * 60_000;
    this.graceMs = opts.deletionGracePeriodMs ?? NAMESPACE_DELETION_GRACE_PERIOD_MS;
    this.queue = ctx.newQueue('namespace', {
      rateLimiter: new MaxOfRateLimiter<string>(new ItemExponentialFailureRateLimiter(5, 60_000), new BucketRateLimiter(10, 100)),
    });
    this.deleter = new NamespacedResourcesDeleter({
      client: ctx.client,
      domain: ctx.domain,
      logger: ctx.logger,
      discover: () => ctx.discover(),
    });
    this.informer = ctx.informers.forResource({ group: '', version: 'v1', resource: 'namespaces' });
    this.informer.addEventHandler({
      onAdd: (ns) => this.enqueue(ns),
      onUpdate: (_old, ns) => this.enqueue(ns),
    });
  }

  private enqueue(ns: ApiObject): void {
    if (ns.metadata.deletionTimestamp) this.queue.addAfter(objectKey(ns), this.graceMs);
  }

  async run(signal: AbortSignal): Promise<void> {
    let resync: NodeJS.Timeout | undefined;
    try {
      await runQueueWorkers(signal, this, {
        informers: [this.informer],
        workers: this.workers,
        onSynced: () => {
          resync = setInterval(() => this.informer.indexer.list().forEach((ns) => this.enqueue(ns)), this.resyncPeriodMs);
        },
        logger: this.ctx.logger,
        failure: 'deletion of namespace',
        itemField: 'namespace',
      });
    } finally {
      clearInterval(resync);
    }
  }

  async sync(name: string): Promise<{ requeueAfterMs: number } | undefined> {
    if (!this.informer.indexer.get(name)) return;
    const started = Date.now();
    try {
      await this.deleter.delete(name);
      this.ctx.logger.verbose('finished syncing namespace', { namespace: name, ms: Date.now() - started });
    } catch (err) {
      if (!(err instanceof ResourcesRemainingError)) throw err;
      const waitSeconds = Math.floor(err.estimateSeconds / 2) + 1;
      this.ctx.logger.verbose('content remaining in namespace', { namespace: name, waitSeconds });
      return { requeueAfterMs: waitSeconds * 1000 };
    }
  }
}
