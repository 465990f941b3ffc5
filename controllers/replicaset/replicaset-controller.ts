/**
 * The ReplicaSet controller: each ReplicaSet has `spec.replicas` active Pods made from its template,
 * owned through a controller reference. Pods its selector matches are adopted, owned ones that stop
 * matching are released. Creations and deletions are at most 500 per sync (creations in slow-start
 * batches), and expectations hold the next sync until the informer has seen them all, so a resync in
 * between never creates twice. Scale-down removes Pods in Kubernetes' ranking (unscheduled, pending,
 * not ready, cheap, doubled up, recently ready, restarted, young first). Status counts the Pods:
 * replicas, fullyLabeledReplicas, readyReplicas, availableReplicas (ready for minReadySeconds),
 * observedGeneration, and a ReplicaFailure condition while creating or deleting fails.
 */
import type { Pod } from '../../apiserver/api/generated/types.js';
import { jsonEqual } from '../../apiserver/api/object.js';
import { isApiError } from '../../apiserver/api/status.js';
import type { LabelSelector } from '../../apiserver/runtime/selectors/label-selector.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import type { EventRecorder } from '../events/event-recorder.js';
import { objectReference } from '../events/event-recorder.js';
import type { Informer } from '../informers/informer.js';
import { NAMESPACE_INDEX, objectKey } from '../informers/indexer.js';
import type { SyncResult } from '../workqueue/run-workers.js';
import { enqueueControllers, runQueueWorkers } from '../controllerutil/run-controller.js';
import type { WorkQueue } from '../workqueue/work-queue.js';
import {
  claimObjects,
  CONTROLLER_UID_INDEX,
  controllerRefOf,
  ensureControllerIndex,
  newControllerRef,
  resolveControllerRef,
} from '../controllerutil/controller-ref.js';
import { Expectations } from '../controllerutil/expectations.js';
import { updateStatusFromCache } from '../controllerutil/update-status.js';
import { PODS } from '../controllerutil/resources.js';
import { PodControl } from '../controllerutil/pod-control.js';
import { isPodActive, isPodReady } from '../controllerutil/pod-status.js';
import { sortPodsForDeletion } from '../controllerutil/pod-ranking.js';
import { podFromTemplate } from '../controllerutil/pod-template.js';
import { slowStartBatch } from '../controllerutil/slow-start.js';
import { REPLICA_SET_KIND, type Replicated, type ReplicatedKind } from './replicated-kind.js';
import { calculateStatus, type ManageError, rsSpec, rsStatus } from './replicaset-status.js';
import { messageOf } from '../../apiserver/api/thrown.js';

/** At most this many creations or deletions per sync (BurstReplicas). */
export const BURST_REPLICAS = 500;

/** A failed manageReplicas, carrying what the ReplicaFailure condition says of it. */
class ManageReplicasError extends Error {
  constructor(readonly manage: ManageError) {
    super(manage.message);
  }
}

export interface ReplicaSetControllerOptions {
  workers?: number;
  burstReplicas?: number;
  /** ReplicaSets (the default) or ReplicationControllers. */
  kind?: ReplicatedKind;
}

export class ReplicaSetController implements Controller {
  readonly replicaSets: Informer<Replicated>;
  readonly pods: Informer<Pod>;
  readonly queue: WorkQueue<string>;
  readonly expectations = new Expectations();
  readonly kind: ReplicatedKind;
  private readonly recorder: EventRecorder;
  private readonly podControl: PodControl;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly opts: ReplicaSetControllerOptions = {},
  ) {
    this.kind = opts.kind ?? REPLICA_SET_KIND;
    this.queue = ctx.newQueue(this.kind.queueName);
    this.recorder = ctx.recorder(this.kind.component);
    this.podControl = new PodControl(ctx.client, this.recorder);
    this.replicaSets = ctx.informers.forResource(this.kind.resource);
    this.pods = ctx.informers.forResource(PODS);
    ensureControllerIndex(this.pods.indexer);
    enqueueControllers(this.replicaSets, this.queue, this.expectations);
    this.pods.addEventHandler({
      onAdd: (pod) => this.podAdded(pod),
      onUpdate: (old, pod) => this.podUpdated(old, pod),
      onDelete: (pod) => this.podDeleted(pod),
    });
  }

  run(signal: AbortSignal): Promise<void> {
    return runQueueWorkers(signal, this, {
      informers: [this.replicaSets, this.pods],
      workers: this.opts.workers ?? 5,
      logger: this.ctx.logger,
      failure: `syncing a ${this.kind.kind}`,
      itemField: this.kind.logField,
    });
  }

  /** The ReplicaSet a controller reference names, if it is in the cache with that uid. */
  private resolve(namespace: string, ref: { kind: string; name: string; uid: string } | undefined): Replicated | undefined {
    return resolveControllerRef(this.replicaSets.indexer, namespace, ref, this.kind.kind);
  }

  /** The ReplicaSets whose selector matches an orphan Pod. */
  private matching(pod: Pod): Replicated[] {
    return this.replicaSets.indexer.byIndex(NAMESPACE_INDEX, pod.metadata.namespace ?? '').filter((rs) => {
      try {
        return this.kind.selector(rs).matches(pod.metadata.labels ?? {});
      } catch {
        return false;
      }
    });
  }

  private podAdded(pod: Pod): void {
    if (pod.metadata.deletionTimestamp) {
      this.podDeleted(pod);
      return;
    }
    const ref = controllerRefOf(pod);
    if (ref) {
      const rs = this.resolve(pod.metadata.namespace ?? '', ref);
      if (!rs) return;
      this.expectations.creationObserved(objectKey(rs));
      this.queue.add(objectKey(rs));
      return;
    }
    for (const rs of this.matching(pod)) this.queue.add(objectKey(rs));
  }

  private podUpdated(old: Pod, pod: Pod): void {
    if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return;
    const labelsChanged = !jsonEqual(old.metadata.labels, pod.metadata.labels);
    if (pod.metadata.deletionTimestamp) {
      this.podDeleted(pod);
      if (labelsChanged) this.podDeleted(old);
      return;
    }
    const ns = pod.metadata.namespace ?? '';
    const oldRef = controllerRefOf(old);
    const ref = controllerRefOf(pod);
    if (oldRef && oldRef.uid !== ref?.uid) {
      const rs = this.resolve(ns, oldRef);
      if (rs) this.queue.add(objectKey(rs));
    }
    if (ref) {
      const rs = this.resolve(ns, ref);
      if (!rs) return;
      this.queue.add(objectKey(rs));
      // A Pod that just became ready becomes available minReadySeconds later.
      const minReady = rsSpec(rs).minReadySeconds ?? 0;
      if (minReady > 0 && !isPodReady(old) && isPodReady(pod)) this.queue.addAfter(objectKey(rs), minReady * 1000 + 1000);
      return;
    }
    if (labelsChanged || oldRef) for (const rs of this.matching(pod)) this.queue.add(objectKey(rs));
  }

  private podDeleted(pod: Pod): void {
    const rs = this.resolve(pod.metadata.namespace ?? '', controllerRefOf(pod));
    if (!rs) return;
    this.expectations.deletionObserved(objectKey(rs), objectKey(pod));
    this.queue.add(objectKey(rs));
  }

  /** Brings one ReplicaSet (namespace/name) to its desired Pods and status. */
  async sync(key: string): Promise<SyncResult | undefined> {
    const cached = this.replicaSets.indexer.get(key);
    if (!cached) {
      this.expectations.delete(key);
      return undefined;
    }
    const rs = cached;
    const namespace = rs.metadata.namespace ?? '';
    let selector: LabelSelector;
    try {
      selector = this.kind.selector(rs);
    } catch (err) {
      this.ctx.logger.warn(`${this.kind.kind} has an invalid selector`, { [this.kind.logField]: key, error: messageOf(err) });
      return undefined;
    }
    const needsSync = this.expectations.satisfied(key);
    const ownerRef = newControllerRef(rs, this.kind.apiVersion, this.kind.kind);
    const candidates = this.pods.indexer.byIndex(NAMESPACE_INDEX, namespace).filter(isPodActive);
    const pods = await claimObjects(candidates, {
      owner: rs,
      ownerRef,
      selector,
      resource: this.ctx.client.resource(PODS, namespace),
      recheckOwner: () => this.fresh(rs),
    });
    let manageError: ManageError | undefined;
    let failure: unknown;
    if (needsSync && !rs.metadata.deletionTimestamp) {
      try {
        await this.manageReplicas(key, rs, pods);
      } catch (err) {
        failure = err;
        manageError = err instanceof ManageReplicasError ? err.manage : { reason: 'FailedCreate', message: messageOf(err) };
      }
    }
    const status = calculateStatus(rs, pods, manageError);
    await this.updateStatus(rs, status);
    if (failure) throw failure;
    const minReady = rsSpec(rs).minReadySeconds ?? 0;
    const desired = rsSpec(rs).replicas ?? 1;
    if (minReady > 0 && status.readyReplicas === desired && status.availableReplicas !== desired) {
      return { requeueAfterMs: minReady * 1000 };
    }
    return undefined;
  }

  private async fresh(rs: Replicated): Promise<Replicated | undefined> {
    try {
      return await this.ctx.client.resource(this.kind.resource, rs.metadata.namespace).get(rs.metadata.name!);
    } catch (err) {
      if (isApiError(err, 'NotFound')) return undefined;
      throw err;
    }
  }

  private async manageReplicas(key: string, rs: Replicated, pods: Pod[]): Promise<void> {
    const spec = rsSpec(rs);
    const burst = this.opts.burstReplicas ?? BURST_REPLICAS;
    const diff = pods.length - (spec.replicas ?? 1);
    const ref = objectReference(rs, this.kind.apiVersion, this.kind.kind);
    if (diff < 0) {
      if (await this.cacheBehind(rs, pods.length)) return;
      const want = Math.min(-diff, burst);
      this.expectations.expect(key, want);
      const template = spec.template ?? {};
      const { successes, error } = await slowStartBatch(want, 1, () =>
        this.podControl.createExpected(
          podFromTemplate(
            template,
            rs.metadata.namespace ?? '',
            rs.metadata.name!,
            newControllerRef(rs, this.kind.apiVersion, this.kind.kind),
          ),
          ref,
          this.expectations,
          key,
        ),
      );
      // Creations never attempted will never be observed.
      const failed = error ? 1 : 0;
      for (let i = successes + failed; i < want; i++) this.expectations.creationObserved(key);
      if (error) throw new ManageReplicasError({ reason: 'FailedCreate', message: messageOf(error) });
      return;
    }
    if (diff > 0) {
      const n = Math.min(diff, burst);
      const related = this.relatedPods(rs);
      const victims = n < pods.length ? sortPodsForDeletion(pods, related, this.ctx.domain.labelPrefix).slice(0, n) : pods;
      this.expectations.expect(key, 0, victims.map(objectKey));
      const results = await Promise.allSettled(victims.map((pod) => this.podControl.deleteExpected(pod, ref, this.expectations, key)));
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw new ManageReplicasError({ reason: 'FailedDelete', message: messageOf(failed.reason) });
    }
  }

  /**
   * Whether the store holds more active Pods of rs than the Pod cache shows: its informers are
   * separate watches, so a ReplicaSet can arrive before Pods written with it in one storage batch
   * (a namespace restore). Asked once before creating, so the controller never creates Pods for
   * ones it has not seen yet; their add events bring the ReplicaSet back to the queue.
   */
  private async cacheBehind(rs: Replicated, cached: number): Promise<boolean> {
    const selector = this.kind.selector(rs).toString();
    const live = await this.ctx.client.resource(PODS, rs.metadata.namespace).listAll({ labelSelector: selector });
    const owned = (live.items as Pod[]).filter((p) => isPodActive(p) && controllerRefOf(p)?.uid === rs.metadata.uid).length;
    return owned > cached;
  }

  /** The Pods of every ReplicaSet that shares this one's controller (a Deployment's), for ranking. */
  private relatedPods(rs: Replicated): Pod[] {
    const owner = controllerRefOf(rs);
    const siblings = owner
      ? this.replicaSets.indexer.byIndex(NAMESPACE_INDEX, rs.metadata.namespace ?? '').filter((o) => controllerRefOf(o)?.uid === owner.uid)
      : [rs];
    return siblings.flatMap((s) => this.pods.indexer.byIndex(CONTROLLER_UID_INDEX, s.metadata.uid ?? ''));
  }

  private async updateStatus(rs: Replicated, status: ReturnType<typeof calculateStatus>): Promise<void> {
    const current = rsStatus(rs);
    const same =
      current.replicas === status.replicas &&
      current.fullyLabeledReplicas === status.fullyLabeledReplicas &&
      current.readyReplicas === status.readyReplicas &&
      current.availableReplicas === status.availableReplicas &&
      current.observedGeneration === status.observedGeneration &&
      jsonEqual(current.conditions ?? [], status.conditions ?? []);
    if (same) return;
    await updateStatusFromCache(this.ctx.client.resource(this.kind.resource, rs.metadata.namespace), rs, () => status);
  }
}
