/**
 * The TTL-after-finished controller: a finished Job (Complete or Failed) with
 * `ttlSecondsAfterFinished` is deleted that long after it finished (foreground, so its Pods go
 * first; guarded by its uid). The Job is read afresh before the deletion in case its TTL changed.
 */
import type { Job } from '../../apiserver/api/generated/types.js';
import { isApiError } from '../../apiserver/api/status.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import type { Informer } from '../informers/informer.js';
import { objectKey } from '../informers/indexer.js';
import type { SyncResult } from '../workqueue/run-workers.js';
import { runQueueWorkers } from '../controllerutil/run-controller.js';
import type { WorkQueue } from '../workqueue/work-queue.js';
import { JOBS } from '../controllerutil/resources.js';
import { finishedCondition, jobSpec, jobStatus } from '../job/job-util.js';

/** When the Job expires (epoch ms), or undefined when it has no TTL or has not finished. */
export function expiresAt(job: Job): number | undefined {
  const ttl = jobSpec(job).ttlSecondsAfterFinished;
  const done = finishedCondition(job);
  if (ttl === undefined || !done || job.metadata.deletionTimestamp) return undefined;
  const finished = Date.parse((done.type === 'Complete' ? jobStatus(job).completionTime : undefined) ?? done.lastTransitionTime ?? '');
  return Number.isNaN(finished) ? undefined : finished + ttl * 1000;
}

export class TtlAfterFinishedController implements Controller {
  readonly jobs: Informer<Job>;
  readonly queue: WorkQueue<string>;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly opts: { workers?: number; now?: () => number } = {},
  ) {
    this.queue = ctx.newQueue('ttl_jobs_to_delete');
    this.jobs = ctx.informers.forResource(JOBS);
    const consider = (job: Job) => {
      if (expiresAt(job) !== undefined) this.queue.add(objectKey(job));
    };
    this.jobs.addEventHandler({ onAdd: consider, onUpdate: (_o, j) => consider(j) });
  }

  run(signal: AbortSignal): Promise<void> {
    return runQueueWorkers(signal, this, {
      informers: [this.jobs],
      workers: this.opts.workers ?? 5,
      logger: this.ctx.logger,
      failure: 'cleaning up a finished Job',
      itemField: 'job',
    });
  }

  async sync(key: string): Promise<SyncResult | undefined> {
    const cached = this.jobs.indexer.get(key);
    if (!cached) return undefined;
    const now = this.opts.now?.() ?? Date.now();
    const at = expiresAt(cached);
    if (at === undefined) return undefined;
    if (at > now) return { requeueAfterMs: at - now };
    const client = this.ctx.client.resource(JOBS, cached.metadata.namespace);
    let fresh: Job;
    try {
      fresh = await client.get(cached.metadata.name!);
    } catch (err) {
      if (isApiError(err, 'NotFound')) return undefined;
      throw err;
    }
    const freshAt = expiresAt(fresh);
    if (freshAt === undefined) return undefined;
    if (freshAt > now) return { requeueAfterMs: freshAt - now };
    try {
      await client.delete(fresh.metadata.name!, { propagationPolicy: 'Foreground', preconditions: { uid: fresh.metadata.uid } });
    } catch (err) {
      if (!isApiError(err, 'NotFound') && !isApiError(err, 'Conflict')) throw err;
    }
    return undefined;
  }
}
