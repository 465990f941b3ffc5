/**
 * The Job controller: runs a Job's Pods to completion. It keeps up to `parallelism` Pods active until
 * `completions` Pods succeeded (or, without completions, until one succeeded and none is active);
 * Indexed Jobs give each Pod a completion index (annotation, label, hostname `<job>-<i>`, env
 * JOB_COMPLETION_INDEX) and finish when every index succeeded. Failed Pods count against
 * `backoffLimit` unless the pod failure policy ignores them or fails the Job at once; new Pods after
 * failures wait 10 s doubling (at most 6 min). `activeDeadlineSeconds` fails a Job that ran too long;
 * `suspend` deletes its active Pods. Status: active, ready, succeeded, failed, startTime,
 * completionTime, completedIndexes and the Complete / Failed / Suspended conditions, with events.
 * Succeeded and failed Pods are counted through the tracking finalizer (pod-tracking.ts), so the
 * counts hold after the Pods are gone.
 */
import type { Job, Pod } from '../../apiserver/api/generated/types.js';
import { deepCopy, jsonEqual } from '../../apiserver/api/object.js';
import { isApiError } from '../../apiserver/api/status.js';
import { labelSelectorFromObject, type LabelSelector } from '../../apiserver/runtime/selectors/label-selector.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import type { EventRecorder, ObjectReference } from '../events/event-recorder.js';
import { objectReference } from '../events/event-recorder.js';
import type { Informer } from '../informers/informer.js';
import { NAMESPACE_INDEX, objectKey } from '../informers/indexer.js';
import type { SyncResult } from '../workqueue/run-workers.js';
import { enqueueControllers, runQueueWorkers } from '../controllerutil/run-controller.js';
import type { WorkQueue } from '../workqueue/work-queue.js';
import {
  claimObjects,
  controllerRefOf,
  ensureControllerIndex,
  newControllerRef,
  readFromServer,
  resolveControllerRef,
} from '../controllerutil/controller-ref.js';
import { Expectations } from '../controllerutil/expectations.js';
import { JOBS, PODS } from '../controllerutil/resources.js';
import { PodControl } from '../controllerutil/pod-control.js';
import { isPodActive, isPodReady, podStatus } from '../controllerutil/pod-status.js';
import { sortPodsForDeletion } from '../controllerutil/pod-ranking.js';
import { podFromTemplate } from '../controllerutil/pod-template.js';
import { slowStartBatch } from '../controllerutil/slow-start.js';
import {
  completionIndexKey,
  finishedCondition,
  formatIndexes,
  type JobCondition,
  type JobStatusView,
  jobSpec,
  jobStatus,
  matchPodFailurePolicy,
  parseIndexes,
  podIndex,
} from './job-util.js';
import { hasFinalizer, releasePod, terminalPhase, trackingFinalizer, type UncountedPods } from './pod-tracking.js';
import { messageOf } from '../../apiserver/api/thrown.js';

const BACKOFF_BASE_MS = 10_000;
const BACKOFF_MAX_MS = 6 * 60_000;
/** Queue keys of Pods whose tracking finalizer may outlive their Job. */
const ORPHAN = 'orphan-pod:';

/** uncountedTerminatedPods as Kubernetes writes it: empty lists left out. */
function uncountedView(u: Required<UncountedPods>): UncountedPods {
  return { ...(u.succeeded.length ? { succeeded: u.succeeded } : {}), ...(u.failed.length ? { failed: u.failed } : {}) };
}

const timestamp = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** When a failed Pod finished: its containers' finishedAt, else its last condition change, else its creation. */
function finishedAt(pod: Pod): number {
  const s = pod.status;
  const times = [
    ...(s?.containerStatuses ?? []).map((c) => c.state?.terminated?.finishedAt),
    ...(s?.conditions ?? []).map((c) => c.lastTransitionTime),
    pod.metadata.creationTimestamp,
  ]
    .filter((t): t is string => !!t)
    .map((t) => Date.parse(t));
  return Math.max(0, ...times);
}

export class JobController implements Controller {
  readonly jobs: Informer<Job>;
  readonly pods: Informer<Pod>;
  readonly queue: WorkQueue<string>;
  readonly expectations = new Expectations();
  private readonly recorder: EventRecorder;
  private readonly podControl: PodControl;
  private readonly indexKey: string;
  private readonly finalizer: string;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly opts: { workers?: number; now?: () => number } = {},
  ) {
    this.indexKey = completionIndexKey(ctx.domain.labelPrefix);
    this.finalizer = trackingFinalizer(ctx.domain.labelPrefix);
    this.queue = ctx.newQueue('job');
    this.recorder = ctx.recorder('job-controller');
    this.podControl = new PodControl(ctx.client, this.recorder);
    this.jobs = ctx.informers.forResource(JOBS);
    this.pods = ctx.informers.forResource(PODS);
    ensureControllerIndex(this.pods.indexer);
    enqueueControllers(this.jobs, this.queue, this.expectations);
    this.pods.addEventHandler({
      onAdd: (p) => {
        const job = this.ownerOf(p);
        if (!job) return;
        if (!p.metadata.deletionTimestamp) this.expectations.creationObserved(objectKey(job));
        this.queue.add(objectKey(job));
      },
      onUpdate: (old, p) => {
        if (old.metadata.resourceVersion === p.metadata.resourceVersion) return;
        const job = this.ownerOf(p);
        if (job) this.queue.add(objectKey(job));
        if ((!job || finishedCondition(job)) && controllerRefOf(p)?.kind === 'Job' && hasFinalizer(p, this.finalizer))
          this.queue.add(ORPHAN + objectKey(p));
      },
      onDelete: (p) => {
        const job = this.ownerOf(p);
        if (!job) return;
        this.expectations.deletionObserved(objectKey(job), objectKey(p));
        this.queue.add(objectKey(job));
      },
    });
  }

  private now(): number {
    return this.opts.now?.() ?? Date.now();
  }

  private ownerOf(pod: Pod): Job | undefined {
    return resolveControllerRef(this.jobs.indexer, pod.metadata.namespace, controllerRefOf(pod), 'Job');
  }

  run(signal: AbortSignal): Promise<void> {
    return runQueueWorkers(signal, this, {
      informers: [this.jobs, this.pods],
      workers: this.opts.workers ?? 5,
      logger: this.ctx.logger,
      failure: 'syncing a Job',
      itemField: 'job',
    });
  }

  async sync(key: string): Promise<SyncResult | undefined> {
    if (key.startsWith(ORPHAN)) {
      await this.releaseOrphan(key.slice(ORPHAN.length));
      return undefined;
    }
    const job = this.jobs.indexer.get(key);
    if (!job) {
      this.expectations.delete(key);
      return undefined;
    }
    if (finishedCondition(job)) return undefined;
    let selector: LabelSelector;
    try {
      selector = labelSelectorFromObject(jobSpec(job).selector);
    } catch (err) {
      this.ctx.logger.warn('Job has an invalid selector', { job: key, error: messageOf(err) });
      return undefined;
    }
    const ns = job.metadata.namespace ?? '';
    const pods = await claimObjects(this.pods.indexer.byIndex(NAMESPACE_INDEX, ns), {
      owner: job,
      ownerRef: newControllerRef(job, 'batch/v1', 'Job'),
      selector,
      resource: this.ctx.client.resource(PODS, ns),
      recheckOwner: readFromServer(this.ctx.client.resource(JOBS, ns), job.metadata.name!),
    });
    const spec = jobSpec(job);
    const ref = objectReference(job, 'batch/v1', 'Job');
    const now = this.now();
    const status: JobStatusView = deepCopy(jobStatus(job));
    const indexed = spec.completionMode === 'Indexed';
    const completions = spec.completions;
    let active = pods.filter(isPodActive);
    const tracking = this.track(job, pods);
    const succeededCount = (status.succeeded ?? 0) + tracking.uncounted.succeeded!.length;
    const failedCount = (status.failed ?? 0) + tracking.uncounted.failed!.length;
    let failJob: { reason: string; message: string } | undefined;
    const failed = pods.filter((p) => podStatus(p).phase === 'Failed' && matchPodFailurePolicy(job, p)?.action !== 'Ignore');
    for (const pod of failed) {
      const match = matchPodFailurePolicy(job, pod);
      if (match?.action === 'FailJob') {
        failJob = { reason: 'PodFailurePolicy', message: match.message };
        break;
      }
    }
    if (!status.startTime && !spec.suspend) status.startTime = timestamp(now);
    const backoffLimit = spec.backoffLimit ?? 6;
    if (!failJob && failedCount > backoffLimit)
      failJob = { reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' };
    const deadline =
      spec.activeDeadlineSeconds !== undefined && status.startTime
        ? Date.parse(status.startTime) + spec.activeDeadlineSeconds * 1000
        : undefined;
    if (!failJob && !spec.suspend && deadline !== undefined && now >= deadline) {
      failJob = { reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' };
    }
    const succeededIndexes = new Set(
      [
        ...parseIndexes(status.completedIndexes),
        ...pods.filter((p) => podStatus(p).phase === 'Succeeded').map((p) => podIndex(p, this.indexKey)),
      ].filter((i): i is number => i !== undefined && i < (completions ?? 0)),
    );
    const complete = indexed
      ? succeededIndexes.size === completions
      : completions !== undefined
        ? succeededCount >= completions
        : succeededCount >= 1 && active.length === 0;

    let result: SyncResult | undefined;
    let finish: { type: 'Failed' | 'Complete'; reason: string; message: string } | undefined;
    if (failJob) {
      await this.deleteAll(key, active, ref);
      active = [];
      finish = { type: 'Failed', ...failJob };
    } else if (complete) {
      await this.deleteAll(key, active, ref);
      active = [];
      finish = { type: 'Complete', reason: '', message: '' };
    } else if (spec.suspend) {
      await this.deleteAll(key, active, ref);
      active = [];
      if (this.setCondition(status, 'Suspended', 'True', 'JobSuspended', 'Job suspended', now)) {
        this.recorder.event(ref, 'Normal', 'Suspended', 'Suspend', 'Job suspended');
      }
    } else {
      const suspended = status.conditions?.find((c) => c.type === 'Suspended');
      if (suspended?.status === 'True') {
        this.setCondition(status, 'Suspended', 'False', 'JobResumed', 'Job resumed', now);
        status.startTime = timestamp(now);
        this.recorder.event(ref, 'Normal', 'Resumed', 'Resume', 'Job resumed');
      }
      const managed = await this.manage(key, job, active, succeededCount, succeededIndexes, failedCount, failed, now);
      active = managed.active;
      result = managed.result;
      if (deadline !== undefined) {
        const left = deadline - now;
        result = { requeueAfterMs: Math.min(result?.requeueAfterMs ?? left, left) };
      }
    }

    status.active = active.length;
    status.ready = active.filter(isPodReady).length;
    if (indexed) {
      const done = formatIndexes(succeededIndexes);
      if (done) status.completedIndexes = done;
      else delete status.completedIndexes;
    }
    await this.flush(job, status, tracking, finish ? pods : tracking.finished, finish, now);
    return result;
  }

  /**
   * The Job's terminated Pods still holding the tracking finalizer, and the uids to count: those
   * already in uncountedTerminatedPods plus the newly terminated (an ignored failure counts nowhere).
   */
  private track(job: Job, pods: Pod[]): { finished: Pod[]; uncounted: Required<UncountedPods> } {
    const old = jobStatus(job).uncountedTerminatedPods ?? {};
    const uncounted = { succeeded: [...(old.succeeded ?? [])], failed: [...(old.failed ?? [])] };
    const known = new Set([...uncounted.succeeded, ...uncounted.failed]);
    const finished: Pod[] = [];
    for (const pod of pods) {
      const phase = terminalPhase(pod);
      if (!phase || !hasFinalizer(pod, this.finalizer)) continue;
      finished.push(pod);
      const uid = pod.metadata.uid!;
      if (known.has(uid)) continue;
      if (phase === 'Succeeded') uncounted.succeeded.push(uid);
      else if (podStatus(pod).phase !== 'Failed' || matchPodFailurePolicy(job, pod)?.action !== 'Ignore') uncounted.failed.push(uid);
    }
    return { finished, uncounted };
  }

  /**
   * trackJobStatusAndRemoveFinalizers: records the uncounted uids, removes the finalizers of `release`,
   * then counts the uids whose Pods no longer hold it; the finished condition is set only once nothing
   * is left uncounted.
   */
  private async flush(
    job: Job,
    status: JobStatusView,
    tracking: { uncounted: Required<UncountedPods> },
    release: Pod[],
    finish: { type: 'Failed' | 'Complete'; reason: string; message: string } | undefined,
    now: number,
  ): Promise<void> {
    const recorded = jobStatus(job).uncountedTerminatedPods ?? {};
    const pending = tracking.uncounted;
    const grew = pending.succeeded.length > (recorded.succeeded?.length ?? 0) || pending.failed.length > (recorded.failed?.length ?? 0);
    let current = job;
    if (grew) current = await this.writeStatus(current, { ...status, uncountedTerminatedPods: uncountedView(pending) });
    const results = await Promise.allSettled(release.map((p) => releasePod(this.ctx.client, p, this.finalizer)));
    const holding = new Set(release.filter((_p, i) => results[i].status !== 'fulfilled').map((p) => p.metadata.uid!));
    const counted = (uids: string[]) => uids.filter((u) => !holding.has(u));
    status.succeeded = (status.succeeded ?? 0) + counted(pending.succeeded).length;
    status.failed = (status.failed ?? 0) + counted(pending.failed).length;
    const left = { succeeded: pending.succeeded.filter((u) => holding.has(u)), failed: pending.failed.filter((u) => holding.has(u)) };
    status.uncountedTerminatedPods = uncountedView(left);
    const ref = objectReference(job, 'batch/v1', 'Job');
    if (finish && left.succeeded.length + left.failed.length === 0) {
      this.setCondition(status, finish.type, 'True', finish.reason, finish.message, now);
      if (finish.type === 'Complete') {
        status.completionTime = timestamp(now);
        this.recorder.event(ref, 'Normal', 'Completed', 'Complete', 'Job completed');
      } else this.recorder.event(ref, 'Warning', finish.reason, 'Fail', finish.message);
    }
    if (!jsonEqual(status, jobStatus(current))) await this.writeStatus(current, status);
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) throw failure.reason;
  }

  private async writeStatus(job: Job, status: JobStatusView): Promise<Job> {
    const next = deepCopy(job);
    next.status = status;
    try {
      return await this.ctx.client.resource(JOBS, job.metadata.namespace).update(next, 'status');
    } catch (err) {
      if (!isApiError(err, 'NotFound')) throw err;
      return next;
    }
  }

  /** A Pod whose Job is gone or finished keeps no tracking finalizer. */
  private async releaseOrphan(podKey: string): Promise<void> {
    const pod = this.pods.indexer.get(podKey);
    if (!pod || !hasFinalizer(pod, this.finalizer)) return;
    const job = this.ownerOf(pod);
    if (job && !finishedCondition(job)) return;
    await releasePod(this.ctx.client, pod, this.finalizer);
  }

  /** Sets a condition; true when it changed. */
  private setCondition(status: JobStatusView, type: string, value: string, reason: string, message: string, now: number): boolean {
    const current = status.conditions?.find((c) => c.type === type);
    if (current && current.status === value && current.reason === reason) return false;
    const t = timestamp(now);
    const c: JobCondition = { type, status: value, lastProbeTime: t, lastTransitionTime: t };
    if (reason) c.reason = reason;
    if (message) c.message = message;
    status.conditions = [...(status.conditions ?? []).filter((x) => x.type !== type), c];
    return true;
  }

  /** Deletes the Pods, their tracking finalizer first: a Pod the controller deletes is not counted (deleteJobPods). */
  private async deleteAll(key: string, pods: Pod[], ref: ObjectReference): Promise<void> {
    if (pods.length === 0) return;
    this.expectations.expect(key, 0, pods.map(objectKey));
    const results = await Promise.allSettled(
      pods.map(async (p) => {
        try {
          await releasePod(this.ctx.client, p, this.finalizer);
        } catch (err) {
          this.expectations.deletionObserved(key, objectKey(p));
          throw err;
        }
        await this.podControl.deleteExpected(p, ref, this.expectations, key);
      }),
    );
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** manageJob: create or delete Pods towards the wanted number of active ones. */
  private async manage(
    key: string,
    job: Job,
    active: Pod[],
    succeeded: number,
    succeededIndexes: Set<number>,
    failures: number,
    failed: Pod[],
    now: number,
  ): Promise<{ active: Pod[]; result?: SyncResult }> {
    const spec = jobSpec(job);
    const parallelism = spec.parallelism ?? 1;
    const completions = spec.completions;
    const indexed = spec.completionMode === 'Indexed';
    const ref = objectReference(job, 'batch/v1', 'Job');
    // Indexes still to run: not succeeded, not running.
    const running = new Set(active.map((p) => podIndex(p, this.indexKey)));
    const pending: number[] = [];
    if (indexed) for (let i = 0; i < (completions ?? 0); i++) if (!succeededIndexes.has(i) && !running.has(i)) pending.push(i);
    let want: number;
    if (indexed) want = Math.min(parallelism, active.length + pending.length);
    else if (completions !== undefined) want = Math.max(0, Math.min(parallelism, completions - succeeded));
    else want = succeeded > 0 ? Math.min(active.length, parallelism) : parallelism;

    if (!this.expectations.satisfied(key)) return { active };
    if (active.length > want) {
      const victims = sortPodsForDeletion(active, active, this.ctx.domain.labelPrefix).slice(0, active.length - want);
      await this.deleteAll(key, victims, ref);
      return { active: active.filter((p) => !victims.includes(p)) };
    }
    if (active.length === want) return { active };
    if (failures > 0 && failed.length > 0) {
      const backoff = Math.min(BACKOFF_BASE_MS * 2 ** (failures - 1), BACKOFF_MAX_MS);
      const wait = Math.max(...failed.map(finishedAt)) + backoff - now;
      if (wait > 0) return { active, result: { requeueAfterMs: wait } };
    }
    const count = want - active.length;
    const indexes = indexed ? pending.slice(0, count) : [];
    this.expectations.expect(key, count);
    let next = 0;
    const { successes, error } = await slowStartBatch(count, 1, async () => {
      const pod = this.newPod(job, indexed ? indexes[next++] : undefined);
      await this.podControl.createExpected(pod, ref, this.expectations, key);
    });
    for (let i = successes + (error ? 1 : 0); i < count; i++) this.expectations.creationObserved(key);
    if (error) throw error;
    return { active: [...active, ...Array.from({ length: successes }, (): Pod => ({ metadata: {} }))] };
  }

  private newPod(job: Job, index: number | undefined): Pod {
    const name = job.metadata.name!;
    const pod = podFromTemplate(
      jobSpec(job).template ?? {},
      job.metadata.namespace ?? '',
      index === undefined ? name : `${name}-${index}`,
      newControllerRef(job, 'batch/v1', 'Job'),
    );
    pod.metadata.finalizers = [...(pod.metadata.finalizers ?? []), this.finalizer];
    if (index === undefined) return pod;
    pod.metadata.annotations = { ...pod.metadata.annotations, [this.indexKey]: String(index) };
    pod.metadata.labels = { ...pod.metadata.labels, [this.indexKey]: String(index) };
    const spec = pod.spec;
    spec.hostname ??= `${name}-${index}`;
    const env = { name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${this.indexKey}']` } } };
    for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) c.env = [...(c.env ?? []), env];
    return pod;
  }
}
