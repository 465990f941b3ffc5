/**
 * The CronJob controller: creates a Job from `jobTemplate` at each scheduled time (in `timeZone`),
 * named `<cronjob>-<minutes since the epoch>` so a time is never run twice. Missed times since the
 * last one count as one run of the latest (more than 100 are reported; `startingDeadlineSeconds`
 * bounds how late a start may be, later ones are reported missed). Concurrency: Allow, Forbid (skip
 * while a Job is active) or Replace (delete the active ones first). `status.active` lists the running
 * Jobs, `lastScheduleTime` / `lastSuccessfulTime` when they ran; finished Jobs beyond
 * successfulJobsHistoryLimit / failedJobsHistoryLimit are deleted, oldest first. Suspended CronJobs
 * create nothing. Each outcome is an event.
 */
import type { CronJob, CronJobSpec, CronJobStatus, Job, JobSpec, ObjectReference } from '../../apiserver/api/generated/types.js';
import { deepCopy, jsonEqual } from '../../apiserver/api/object.js';
import { isApiError } from '../../apiserver/api/status.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import type { EventRecorder } from '../events/event-recorder.js';
import { objectReference } from '../events/event-recorder.js';
import type { Informer } from '../informers/informer.js';
import type { SyncResult } from '../workqueue/run-workers.js';
import { enqueueChanges, runQueueWorkers } from '../controllerutil/run-controller.js';
import type { WorkQueue } from '../workqueue/work-queue.js';
import { CONTROLLER_UID_INDEX, controllerRefOf, ensureControllerIndex, newControllerRef } from '../controllerutil/controller-ref.js';
import { finishedCondition } from '../job/job-util.js';
import { CRONJOBS, JOBS } from '../controllerutil/resources.js';
import { parseSchedule, type Schedule } from './cron-schedule.js';
import { messageOf } from '../../apiserver/api/thrown.js';

/** More missed start times than this are reported. */
const MAX_MISSED = 100;

/** The spec as this controller reads it: `schedule` and `jobTemplate` are required, but a missing one is still checked for. */
type CronJobSpecRead = Partial<CronJobSpec>;

const timestamp = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const cjSpec = (cj: CronJob): CronJobSpecRead => cj.spec ?? {};

export class CronJobController implements Controller {
  readonly cronJobs: Informer<CronJob>;
  readonly jobs: Informer<Job>;
  readonly queue: WorkQueue<string>;
  private readonly recorder: EventRecorder;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly opts: { workers?: number; now?: () => number } = {},
  ) {
    this.queue = ctx.newQueue('cronjob');
    this.recorder = ctx.recorder('cronjob-controller');
    this.cronJobs = ctx.informers.forResource(CRONJOBS);
    this.jobs = ctx.informers.forResource(JOBS);
    ensureControllerIndex(this.jobs.indexer);
    enqueueChanges(this.cronJobs, this.queue, { deletes: false });
    const jobChanged = (job: Job) => {
      const ref = controllerRefOf(job);
      if (ref?.kind === 'CronJob') this.queue.add(`${job.metadata.namespace}/${ref.name}`);
    };
    this.jobs.addEventHandler({
      onAdd: jobChanged,
      onUpdate: (old, job) => {
        if (old.metadata.resourceVersion !== job.metadata.resourceVersion) jobChanged(job);
      },
      onDelete: jobChanged,
    });
  }

  private now(): number {
    return this.opts.now?.() ?? Date.now();
  }

  run(signal: AbortSignal): Promise<void> {
    return runQueueWorkers(signal, this, {
      informers: [this.cronJobs, this.jobs],
      workers: this.opts.workers ?? 5,
      logger: this.ctx.logger,
      failure: 'syncing a CronJob',
      itemField: 'cronjob',
    });
  }

  private jobsClient(namespace?: string) {
    return this.ctx.client.resource(JOBS, namespace);
  }

  async sync(key: string): Promise<SyncResult | undefined> {
    const cached = this.cronJobs.indexer.get(key);
    if (!cached) return undefined;
    const cj = deepCopy(cached);
    const spec = cjSpec(cj);
    const ref = objectReference(cj, 'batch/v1', 'CronJob');
    const now = this.now();
    const owned = this.jobs.indexer
      .byIndex(CONTROLLER_UID_INDEX, cj.metadata.uid ?? '')
      .filter((j) => j.metadata.namespace === cj.metadata.namespace);
    const status: CronJobStatus = deepCopy(cj.status ?? {});

    // Active list: running owned Jobs in, finished or vanished ones out.
    const active: ObjectReference[] = [];
    for (const job of owned) {
      const done = finishedCondition(job);
      const listed = status.active?.find((a) => a.uid === job.metadata.uid);
      if (!done) {
        active.push(listed ?? jobRef(job));
        continue;
      }
      if (listed) {
        this.recorder.event(ref, 'Normal', 'SawCompletedJob', 'Complete', `Saw completed job: ${job.metadata.name}, status: ${done.type}`);
      }
      if (done.type === 'Complete') {
        const completed = Date.parse(job.status?.completionTime ?? '') || 0;
        const last = Date.parse(status.lastSuccessfulTime ?? '') || 0;
        if (completed > last) status.lastSuccessfulTime = timestamp(completed);
      }
    }
    // A listed Job the cache has not seen yet (just created) stays listed while the API still has it.
    for (const listed of status.active ?? []) {
      if (owned.some((j) => j.metadata.uid === listed.uid)) continue;
      try {
        const job = await this.jobsClient(cj.metadata.namespace).get(listed.name!);
        if (job.metadata.uid === listed.uid && !finishedCondition(job)) active.push(listed);
      } catch (err) {
        if (!isApiError(err, 'NotFound')) throw err;
        this.recorder.event(ref, 'Normal', 'MissingJob', 'Sync', `Active job went missing: ${listed.name}`);
      }
    }
    status.active = active.sort((a, b) => (a.name! < b.name! ? -1 : 1));
    await this.cleanupFinished(owned, spec);

    let result: SyncResult | undefined;
    if (!cj.metadata.deletionTimestamp && !spec.suspend) {
      result = await this.schedule(cj, status, owned, now);
    }
    if (status.active.length === 0) delete status.active;
    if (!jsonEqual(status, cj.status ?? {})) {
      const next = deepCopy(cached);
      next.status = status;
      try {
        await this.ctx.client.resource(CRONJOBS, cj.metadata.namespace).update(next, 'status');
      } catch (err) {
        if (!isApiError(err, 'NotFound')) throw err;
      }
    }
    return result;
  }

  /** Starts the Job of the most recent unmet schedule time, if it is due; asks to be woken for the next one. */
  private async schedule(cj: CronJob, status: CronJobStatus, owned: Job[], now: number): Promise<SyncResult | undefined> {
    const spec = cjSpec(cj);
    const ref = objectReference(cj, 'batch/v1', 'CronJob');
    let sched: Schedule;
    if (spec.timeZone && !isTimeZone(spec.timeZone)) {
      this.recorder.event(
        ref,
        'Warning',
        'UnknownTimeZone',
        'Schedule',
        `invalid timeZone: "${spec.timeZone}": unknown time zone ${spec.timeZone}`,
      );
      return undefined;
    }
    try {
      sched = parseSchedule(spec.schedule ?? '', spec.timeZone);
    } catch (err) {
      this.recorder.event(
        ref,
        'Warning',
        'UnparseableSchedule',
        'Schedule',
        `unparseable schedule: "${spec.schedule}" : ${messageOf(err)}`,
      );
      return undefined;
    }
    const wakeAt = (t: number | undefined): SyncResult | undefined =>
      t === undefined ? undefined : { requeueAfterMs: Math.max(t - now, 0) + 100 };

    // The most recent schedule time not yet run, counting the missed ones.
    let earliest = Date.parse(status.lastScheduleTime ?? cj.metadata.creationTimestamp ?? '') || now;
    if (spec.startingDeadlineSeconds !== undefined) earliest = Math.max(earliest, now - spec.startingDeadlineSeconds * 1000);
    let scheduled: number | undefined;
    let missed = 0;
    for (let t = sched.next(earliest); t !== undefined && t <= now; t = sched.next(t)) {
      scheduled = t;
      if (++missed > 100_000) break;
    }
    if (missed > MAX_MISSED) {
      this.recorder.event(
        ref,
        'Warning',
        'TooManyMissedTimes',
        'Schedule',
        `too many missed start times: ${missed}. Set or decrease .spec.startingDeadlineSeconds or check clock skew`,
      );
    }
    const next = sched.next(now);
    if (scheduled === undefined) return wakeAt(next);
    if (spec.startingDeadlineSeconds !== undefined && scheduled + spec.startingDeadlineSeconds * 1000 < now) {
      this.recorder.event(
        ref,
        'Warning',
        'MissSchedule',
        'Schedule',
        `Missed scheduled time to start a job: ${new Date(scheduled).toISOString()}`,
      );
      return wakeAt(next);
    }
    const name = `${cj.metadata.name}-${Math.floor(scheduled / 60_000)}`;
    if (status.active?.some((a) => a.name === name) || owned.some((j) => j.metadata.name === name)) return wakeAt(next);
    const policy = spec.concurrencyPolicy ?? 'Allow';
    if (policy === 'Forbid' && (status.active?.length ?? 0) > 0) {
      this.recorder.event(
        ref,
        'Normal',
        'JobAlreadyActive',
        'Schedule',
        'Not starting job because prior execution is running and concurrency policy is Forbid',
      );
      return wakeAt(next);
    }
    if (policy === 'Replace') {
      for (const a of status.active ?? []) {
        try {
          await this.jobsClient(cj.metadata.namespace).delete(a.name!, { propagationPolicy: 'Background' });
          this.recorder.event(ref, 'Normal', 'SuccessfulDelete', 'Delete', `Deleted job ${a.name}`);
        } catch (err) {
          if (!isApiError(err, 'NotFound')) throw err;
        }
      }
      status.active = [];
    }
    const template = spec.jobTemplate ?? {};
    const job: Job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name,
        namespace: cj.metadata.namespace,
        labels: { ...template.metadata?.labels },
        annotations: { ...template.metadata?.annotations },
        ownerReferences: [newControllerRef(cj, 'batch/v1', 'CronJob')],
      },
      // A template without a spec sends an empty one, which the server refuses with its own message.
      spec: deepCopy(template.spec ?? ({} as JobSpec)),
    };
    let created: Job;
    try {
      created = await this.jobsClient(cj.metadata.namespace).create(job);
    } catch (err) {
      if (isApiError(err, 'AlreadyExists')) return wakeAt(next);
      this.recorder.event(ref, 'Warning', 'FailedCreate', 'Create', `Error creating job: ${messageOf(err)}`);
      throw err;
    }
    this.recorder.event(ref, 'Normal', 'SuccessfulCreate', 'Create', `Created job ${created.metadata.name}`);
    status.active = [...(status.active ?? []), jobRef(created)];
    status.lastScheduleTime = timestamp(scheduled);
    return wakeAt(next);
  }

  /** Deletes the oldest finished Jobs beyond the history limits. */
  private async cleanupFinished(owned: Job[], spec: CronJobSpecRead): Promise<void> {
    const started = (j: Job) => Date.parse(j.status?.startTime ?? j.metadata.creationTimestamp ?? '') || 0;
    const limits: [string, number][] = [
      ['Complete', spec.successfulJobsHistoryLimit ?? 3],
      ['Failed', spec.failedJobsHistoryLimit ?? 1],
    ];
    for (const [type, limit] of limits) {
      const finished = owned
        .filter((j) => finishedCondition(j)?.type === type && !j.metadata.deletionTimestamp)
        .sort((a, b) => started(a) - started(b));
      for (const job of finished.slice(0, Math.max(0, finished.length - limit))) {
        try {
          await this.jobsClient(job.metadata.namespace).delete(job.metadata.name!, {
            propagationPolicy: 'Background',
            preconditions: { uid: job.metadata.uid },
          });
        } catch (err) {
          if (!isApiError(err, 'NotFound') && !isApiError(err, 'Conflict')) throw err;
        }
      }
    }
  }
}

function jobRef(job: Job): ObjectReference {
  const m = job.metadata;
  return { kind: 'Job', namespace: m.namespace, name: m.name, uid: m.uid, apiVersion: 'batch/v1', resourceVersion: m.resourceVersion };
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
