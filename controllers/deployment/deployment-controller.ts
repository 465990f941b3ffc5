/**
 * The Deployment controller: a Deployment owns one ReplicaSet per Pod template (named and labelled
 * by the template's pod-template-hash) and moves Pods from the old ones to the new one — RollingUpdate
 * within maxSurge / maxUnavailable, or Recreate (old Pods gone first). Each ReplicaSet carries its
 * revision (`deployment.<prefix>/revision`, also on the Deployment), so `kubectl rollout history|undo`
 * work; a scaled Deployment scales its ReplicaSets proportionally; paused Deployments only scale;
 * old ReplicaSets beyond revisionHistoryLimit are deleted once empty; status and the Available,
 * Progressing (with the progress deadline) and ReplicaFailure conditions are kept up to date.
 */
import type { Deployment, Pod, ReplicaSet } from '../../apiserver/api/generated/types.js';
import type { KindObject } from '../../apiserver/api/object.js';
import { deepCopy, jsonEqual } from '../../apiserver/api/object.js';
import { isApiError } from '../../apiserver/api/status.js';
import { labelSelectorFromObject, type LabelSelector } from '../../apiserver/runtime/selectors/label-selector.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import type { EventRecorder } from '../events/event-recorder.js';
import { objectReference } from '../events/event-recorder.js';
import type { Informer } from '../informers/informer.js';
import { NAMESPACE_INDEX, objectKey } from '../informers/indexer.js';
import type { SyncResult } from '../workqueue/run-workers.js';
import { enqueueChanges, runQueueWorkers } from '../controllerutil/run-controller.js';
import type { WorkQueue } from '../workqueue/work-queue.js';
import {
  claimObjects,
  CONTROLLER_UID_INDEX,
  controllerRefOf,
  ensureControllerIndex,
  newControllerRef,
} from '../controllerutil/controller-ref.js';
import { DEPLOYMENTS, PODS, REPLICASETS } from '../controllerutil/resources.js';
import { computeHash } from '../controllerutil/template-hash.js';
import { type DeploymentStatus, dReplicas, dSpec, dStatus, rsReplicas, rsSpecOf, rsStatusOf } from './deployment-types.js';
import {
  byCreation,
  type DeploymentAnnotations,
  deploymentAnnotations,
  deploymentComplete,
  findNewReplicaSet,
  getCondition,
  hasProgressDeadline,
  isRollingUpdate,
  maxRevision,
  maxSurge,
  maxUnavailable,
  newCondition,
  newRSNewReplicas,
  POD_TEMPLATE_HASH,
  proportion,
  revisionOf,
  setCondition,
  setNewReplicaSetAnnotations,
  setReplicasAnnotations,
  specReplicas,
  statusSum,
} from './deployment-util.js';
import { calculateStatus, rolloutStatus } from './deployment-status.js';
import { podStatus } from '../controllerutil/pod-status.js';
import { messageOf } from '../../apiserver/api/thrown.js';

export interface DeploymentControllerOptions {
  workers?: number;
}

export class DeploymentController implements Controller {
  readonly deployments: Informer<Deployment>;
  readonly replicaSets: Informer<ReplicaSet>;
  readonly pods: Informer<Pod>;
  readonly queue: WorkQueue<string>;
  private readonly recorder: EventRecorder;
  private readonly a: DeploymentAnnotations;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly opts: DeploymentControllerOptions = {},
  ) {
    this.a = deploymentAnnotations(ctx.domain);
    this.queue = ctx.newQueue('deployment');
    this.recorder = ctx.recorder('deployment-controller');
    this.deployments = ctx.informers.forResource(DEPLOYMENTS);
    this.replicaSets = ctx.informers.forResource(REPLICASETS);
    this.pods = ctx.informers.forResource(PODS);
    ensureControllerIndex(this.replicaSets.indexer);
    ensureControllerIndex(this.pods.indexer);
    enqueueChanges(this.deployments, this.queue);
    this.replicaSets.addEventHandler({
      onAdd: (rs) => this.rsChanged(undefined, rs),
      onUpdate: (old, rs) => this.rsChanged(old, rs),
      onDelete: (rs) => this.enqueueOwner(rs),
    });
    this.pods.addEventHandler({ onDelete: (pod) => this.podDeleted(pod) });
  }

  run(signal: AbortSignal): Promise<void> {
    return runQueueWorkers(signal, this, {
      informers: [this.deployments, this.replicaSets, this.pods],
      workers: this.opts.workers ?? 5,
      logger: this.ctx.logger,
      failure: 'syncing a Deployment',
      itemField: 'deployment',
    });
  }

  private ownerOf(obj: KindObject, ref = controllerRefOf(obj)): Deployment | undefined {
    if (ref?.kind !== 'Deployment') return undefined;
    const d = this.deployments.indexer.get(`${obj.metadata.namespace}/${ref.name}`);
    return d?.metadata.uid === ref.uid ? d : undefined;
  }

  private enqueueOwner(obj: KindObject): void {
    const d = this.ownerOf(obj);
    if (d) this.queue.add(objectKey(d));
  }

  private rsChanged(old: ReplicaSet | undefined, rs: ReplicaSet): void {
    if (old && old.metadata.resourceVersion === rs.metadata.resourceVersion) return;
    if (old && controllerRefOf(old)?.uid !== controllerRefOf(rs)?.uid) this.enqueueOwner(old);
    if (controllerRefOf(rs)) {
      this.enqueueOwner(rs);
      return;
    }
    if (rs.metadata.deletionTimestamp) return;
    for (const d of this.deployments.indexer.byIndex(NAMESPACE_INDEX, rs.metadata.namespace ?? '')) {
      try {
        if (labelSelectorFromObject(dSpec(d).selector).matches(rs.metadata.labels ?? {})) this.queue.add(objectKey(d));
      } catch {}
    }
  }

  /** A Recreate Deployment waits for its old Pods to go before it creates new ones. */
  private podDeleted(pod: Pod): void {
    const ref = controllerRefOf(pod);
    if (ref?.kind !== 'ReplicaSet') return;
    const rs = this.replicaSets.indexer.get(`${pod.metadata.namespace}/${ref.name}`);
    if (!rs || rs.metadata.uid !== ref.uid) return;
    const d = this.ownerOf(rs);
    if (d && !isRollingUpdate(d)) this.queue.add(objectKey(d));
  }

  /** Brings one Deployment (namespace/name) a step closer to its spec. */
  async sync(key: string): Promise<SyncResult | undefined> {
    const cached = this.deployments.indexer.get(key);
    if (!cached) return undefined;
    const d = deepCopy(cached);
    const spec = dSpec(d);
    let selector: LabelSelector;
    try {
      selector = labelSelectorFromObject(spec.selector);
    } catch (err) {
      this.ctx.logger.warn('Deployment has an invalid selector', { deployment: key, error: messageOf(err) });
      return undefined;
    }
    if (selector.isEverything()) {
      this.recorder.event(
        this.ref(d),
        'Warning',
        'SelectingAll',
        'Select',
        'This deployment is selecting all pods. A non-empty selector is required.',
      );
      if ((dStatus(d).observedGeneration ?? 0) < (d.metadata.generation ?? 0)) {
        await this.updateStatus(d, { ...dStatus(d), observedGeneration: d.metadata.generation });
      }
      return undefined;
    }
    const rsList = await this.claimReplicaSets(d, selector);
    if (d.metadata.deletionTimestamp) {
      await this.syncStatusOnly(d, rsList);
      return undefined;
    }
    await this.checkPausedConditions(d);
    if (spec.paused || this.isScalingEvent(d, rsList)) {
      await this.scaleSync(d, rsList);
      return undefined;
    }
    return isRollingUpdate(d) ? this.rolloutRolling(d, rsList) : this.rolloutRecreate(d, rsList);
  }

  private ref(d: Deployment) {
    return objectReference(d, 'apps/v1', 'Deployment');
  }

  private rsClient(namespace?: string) {
    return this.ctx.client.resource(REPLICASETS, namespace);
  }

  private async claimReplicaSets(d: Deployment, selector: LabelSelector): Promise<ReplicaSet[]> {
    const ns = d.metadata.namespace ?? '';
    return claimObjects(this.replicaSets.indexer.byIndex(NAMESPACE_INDEX, ns), {
      owner: d,
      ownerRef: newControllerRef(d, 'apps/v1', 'Deployment'),
      selector,
      resource: this.rsClient(ns),
      recheckOwner: async () => {
        try {
          return await this.ctx.client.resource(DEPLOYMENTS, ns).get(d.metadata.name!);
        } catch (err) {
          if (isApiError(err, 'NotFound')) return undefined;
          throw err;
        }
      },
    });
  }

  /** Paused Deployments say so in Progressing (Unknown / DeploymentPaused), resumed ones too. */
  private async checkPausedConditions(d: Deployment): Promise<void> {
    if (!hasProgressDeadline(d)) return;
    const status = deepCopy(dStatus(d));
    const c = getCondition(status.conditions, 'Progressing');
    if (c?.reason === 'ProgressDeadlineExceeded') return;
    const paused = dSpec(d).paused === true;
    if (paused && c?.reason !== 'DeploymentPaused') {
      setCondition(status, newCondition('Progressing', 'Unknown', 'DeploymentPaused', 'Deployment is paused'));
    } else if (!paused && c?.reason === 'DeploymentPaused') {
      setCondition(status, newCondition('Progressing', 'Unknown', 'DeploymentResumed', 'Deployment is resumed'));
    } else return;
    await this.updateStatus(d, status);
  }

  /** A scaling event: some active ReplicaSet was sized for another spec.replicas. */
  private isScalingEvent(d: Deployment, rsList: ReplicaSet[]): boolean {
    const newRS = findNewReplicaSet(d, rsList);
    const active = rsList.filter((rs) => rs === newRS || rsReplicas(rs) > 0);
    return active.some((rs) => {
      const desired = rs.metadata.annotations?.[this.a.desiredReplicas];
      return desired !== undefined && desired !== String(dReplicas(d));
    });
  }

  /**
   * getAllReplicaSetsAndSyncRevision: the new ReplicaSet (created when asked and missing) and the old
   * ones; the new one's and the Deployment's revision brought up to date.
   */
  private async newAndOld(d: Deployment, rsList: ReplicaSet[], create: boolean): Promise<{ newRS?: ReplicaSet; oldRSs: ReplicaSet[] }> {
    const existing = findNewReplicaSet(d, rsList);
    const oldRSs = rsList.filter((rs) => rs !== existing);
    const newRevision = maxRevision(oldRSs, this.a) + 1;
    let newRS: ReplicaSet | undefined;
    if (existing) {
      const copy = deepCopy(existing);
      let changed = setNewReplicaSetAnnotations(d, copy, newRevision, this.ctx.domain, this.a);
      const minReady = dSpec(d).minReadySeconds ?? 0;
      if ((rsSpecOf(copy).minReadySeconds ?? 0) !== minReady) {
        copy.spec!.minReadySeconds = minReady;
        changed = true;
      }
      newRS = changed ? await this.rsClient(copy.metadata.namespace).update(copy) : existing;
      const status = deepCopy(dStatus(d));
      if (!getCondition(status.conditions, 'Progressing') && hasProgressDeadline(d)) {
        setCondition(status, newCondition('Progressing', 'True', 'FoundNewReplicaSet', `Found new replica set "${newRS.metadata.name}"`));
        await this.updateStatus(d, status);
      }
    } else if (create) {
      newRS = await this.createNewReplicaSet(d, rsList, oldRSs, newRevision);
    }
    if (newRS) await this.setDeploymentRevision(d, String(revisionOf(newRS, this.a) || newRevision));
    return { newRS, oldRSs };
  }

  private async createNewReplicaSet(
    d: Deployment,
    rsList: ReplicaSet[],
    oldRSs: ReplicaSet[],
    newRevision: number,
  ): Promise<ReplicaSet | undefined> {
    const spec = dSpec(d);
    const collisionCount = dStatus(d).collisionCount;
    const template = deepCopy(spec.template ?? {});
    const hash = computeHash(template, collisionCount);
    template.metadata = { ...template.metadata, labels: { ...template.metadata?.labels, [POD_TEMPLATE_HASH]: hash } };
    const selector = deepCopy(spec.selector ?? {});
    selector.matchLabels = { ...selector.matchLabels, [POD_TEMPLATE_HASH]: hash };
    const replicas = newRSNewReplicas(d, oldRSs, undefined);
    const rs: ReplicaSet = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `${d.metadata.name}-${hash}`,
        namespace: d.metadata.namespace,
        labels: { ...template.metadata.labels },
        ownerReferences: [newControllerRef(d, 'apps/v1', 'Deployment')],
      },
      spec: { replicas, minReadySeconds: spec.minReadySeconds ?? 0, selector, template },
    };
    setNewReplicaSetAnnotations(d, rs, newRevision, this.ctx.domain, this.a);
    setReplicasAnnotations(rs, dReplicas(d), dReplicas(d) + maxSurge(d), this.a);
    let created: ReplicaSet;
    try {
      created = await this.rsClient(d.metadata.namespace).create(rs);
    } catch (err) {
      if (!isApiError(err, 'AlreadyExists')) {
        const status = deepCopy(dStatus(d));
        if (hasProgressDeadline(d)) {
          const msg = `Failed to create new replica set "${rs.metadata.name}": ${messageOf(err)}`;
          setCondition(status, newCondition('Progressing', 'False', 'ReplicaSetCreateError', msg));
          this.recorder.event(this.ref(d), 'Warning', 'ReplicaSetCreateError', 'Create', msg);
          await this.updateStatus(d, status);
        }
        throw err;
      }
      const other = await this.rsClient(d.metadata.namespace).get(rs.metadata.name!);
      if (controllerRefOf(other)?.uid === d.metadata.uid && findNewReplicaSet(d, [other])) return other;
      // A hash collision: another template got this name. Count it so the next hash differs.
      const status = deepCopy(dStatus(d));
      status.collisionCount = (status.collisionCount ?? 0) + 1;
      await this.updateStatus(d, status);
      throw new Error(`hash collision for ReplicaSet ${rs.metadata.name}; collisionCount is now ${status.collisionCount}`);
    }
    if (replicas > 0) {
      this.recorder.event(
        this.ref(d),
        'Normal',
        'ScalingReplicaSet',
        'Scaling',
        `Scaled up replica set ${created.metadata.name} to ${replicas}`,
      );
    }
    if (hasProgressDeadline(d)) {
      const status = deepCopy(dStatus(d));
      setCondition(
        status,
        newCondition('Progressing', 'True', 'NewReplicaSetCreated', `Created new replica set "${created.metadata.name}"`),
      );
      await this.updateStatus(d, status);
    }
    rsList.push(created);
    return created;
  }

  private async setDeploymentRevision(d: Deployment, revision: string): Promise<void> {
    if (d.metadata.annotations?.[this.a.revision] === revision) return;
    const next = deepCopy(d);
    next.metadata.annotations = { ...next.metadata.annotations, [this.a.revision]: revision };
    const updated = await this.ctx.client.resource(DEPLOYMENTS, d.metadata.namespace).update(next);
    d.metadata.annotations = updated.metadata.annotations;
    d.metadata.resourceVersion = updated.metadata.resourceVersion;
  }

  /** scaleReplicaSetAndRecordEvent: the new size and the replicas annotations; whether it scaled. */
  private async scaleReplicaSet(rs: ReplicaSet, size: number, d: Deployment): Promise<{ scaled: boolean; rs: ReplicaSet }> {
    const copy = deepCopy(rs);
    const sizeChanged = rsReplicas(rs) !== size;
    const annotationsChanged = setReplicasAnnotations(copy, dReplicas(d), dReplicas(d) + maxSurge(d), this.a);
    if (!sizeChanged && !annotationsChanged) return { scaled: false, rs };
    copy.spec!.replicas = size;
    const updated = await this.rsClient(rs.metadata.namespace).update(copy);
    if (sizeChanged) {
      const op = rsReplicas(rs) < size ? 'up' : 'down';
      this.recorder.event(
        this.ref(d),
        'Normal',
        'ScalingReplicaSet',
        'Scaling',
        `Scaled ${op} replica set ${rs.metadata.name} to ${size} from ${rsReplicas(rs)}`,
      );
    }
    return { scaled: sizeChanged, rs: updated };
  }

  /** rolloutRolling: scale the new ReplicaSet up, or the old ones down, one step per sync. */
  private async rolloutRolling(d: Deployment, rsList: ReplicaSet[]): Promise<SyncResult | undefined> {
    const { newRS, oldRSs } = await this.newAndOld(d, rsList, true);
    const allRSs = newRS ? [...oldRSs, newRS] : oldRSs;
    if (newRS) {
      const target = rsReplicas(newRS);
      const want = target > dReplicas(d) ? dReplicas(d) : newRSNewReplicas(d, allRSs, newRS);
      if (want !== target) {
        const { scaled } = await this.scaleReplicaSet(newRS, want, d);
        if (scaled) return this.syncRolloutStatus(allRSs, newRS, d);
      }
    }
    if (
      await this.reconcileOldReplicaSets(
        allRSs,
        oldRSs.filter((rs) => rsReplicas(rs) > 0),
        newRS,
        d,
      )
    ) {
      return this.syncRolloutStatus(allRSs, newRS, d);
    }
    if (deploymentComplete(d, dStatus(d))) await this.cleanup(oldRSs, d);
    return this.syncRolloutStatus(allRSs, newRS, d);
  }

  /** reconcileOldReplicaSets: first unhealthy old Pods, then healthy ones down to minAvailable. */
  private async reconcileOldReplicaSets(
    allRSs: ReplicaSet[],
    oldRSs: ReplicaSet[],
    newRS: ReplicaSet | undefined,
    d: Deployment,
  ): Promise<boolean> {
    if (specReplicas(oldRSs) === 0) return false;
    let allPods = specReplicas(allRSs);
    const minAvailable = dReplicas(d) - maxUnavailable(d);
    const newUnavailable = newRS ? rsReplicas(newRS) - (rsStatusOf(newRS).availableReplicas ?? 0) : 0;
    const maxScaledDown = allPods - minAvailable - newUnavailable;
    if (maxScaledDown <= 0) return false;
    // Clean up unhealthy replicas first: they do not count as available anyway.
    let cleaned = 0;
    const sorted = [...oldRSs].sort(byCreation);
    for (let i = 0; i < sorted.length && cleaned < maxScaledDown; i++) {
      const rs = sorted[i];
      const unhealthy = rsReplicas(rs) - (rsStatusOf(rs).availableReplicas ?? 0);
      if (rsReplicas(rs) === 0 || unhealthy <= 0) continue;
      const down = Math.min(maxScaledDown - cleaned, unhealthy);
      sorted[i] = (await this.scaleReplicaSet(rs, rsReplicas(rs) - down, d)).rs;
      cleaned += down;
    }
    allPods -= cleaned;
    // Then scale down healthy old replicas while availability stays at minAvailable.
    const all = allRSs.map((rs) => sorted.find((s) => s.metadata.uid === rs.metadata.uid) ?? rs);
    const available = statusSum(all, 'availableReplicas');
    let scaledDown = 0;
    if (available > minAvailable) {
      const total = available - minAvailable;
      for (const rs of sorted) {
        if (scaledDown >= total) break;
        if (rsReplicas(rs) === 0) continue;
        const down = Math.min(rsReplicas(rs), total - scaledDown);
        await this.scaleReplicaSet(rs, rsReplicas(rs) - down, d);
        scaledDown += down;
      }
    }
    return cleaned + scaledDown > 0;
  }

  /** rolloutRecreate: every old Pod gone before the new ReplicaSet is scaled up. */
  private async rolloutRecreate(d: Deployment, rsList: ReplicaSet[]): Promise<SyncResult | undefined> {
    let { newRS, oldRSs } = await this.newAndOld(d, rsList, false);
    let allRSs = newRS ? [...oldRSs, newRS] : oldRSs;
    let scaled = false;
    for (const rs of oldRSs.filter((r) => rsReplicas(r) > 0)) if ((await this.scaleReplicaSet(rs, 0, d)).scaled) scaled = true;
    if (scaled) return this.syncRolloutStatus(allRSs, newRS, d);
    const oldPodsRunning =
      statusSum(oldRSs, 'replicas') > 0 ||
      oldRSs.some((rs) =>
        this.pods.indexer
          .byIndex(CONTROLLER_UID_INDEX, rs.metadata.uid ?? '')
          .some((p) => !['Failed', 'Succeeded'].includes(podStatus(p).phase ?? '')),
      );
    if (oldPodsRunning) return this.syncRolloutStatus(allRSs, newRS, d);
    if (!newRS) {
      ({ newRS, oldRSs } = await this.newAndOld(d, rsList, true));
      allRSs = newRS ? [...oldRSs, newRS] : oldRSs;
    }
    if (newRS) await this.scaleReplicaSet(newRS, dReplicas(d), d);
    if (deploymentComplete(d, dStatus(d))) await this.cleanup(oldRSs, d);
    return this.syncRolloutStatus(allRSs, newRS, d);
  }

  /** sync for scaling events and paused Deployments: proportional scaling, cleanup, status. */
  private async scaleSync(d: Deployment, rsList: ReplicaSet[]): Promise<void> {
    const { newRS, oldRSs } = await this.newAndOld(d, rsList, false);
    await this.scale(d, newRS, oldRSs);
    if (dSpec(d).paused) await this.cleanup(oldRSs, d);
    const fresh = this.replicaSets.indexer;
    const allRSs = (newRS ? [...oldRSs, newRS] : oldRSs).map((rs) => fresh.get(objectKey(rs)) ?? rs);
    await this.syncStatus(allRSs, newRS, d);
  }

  private async scale(d: Deployment, newRS: ReplicaSet | undefined, oldRSs: ReplicaSet[]): Promise<void> {
    const active = [...oldRSs, ...(newRS ? [newRS] : [])].filter((rs) => rsReplicas(rs) > 0);
    // One active ReplicaSet (or none: the newest) takes the whole size.
    if (active.length <= 1) {
      const target = active[0] ?? newRS ?? [...oldRSs].sort(byCreation).at(-1);
      if (target && rsReplicas(target) !== dReplicas(d)) await this.scaleReplicaSet(target, dReplicas(d), d);
      return;
    }
    // Saturated: the new ReplicaSet has everything; the old ones go.
    if (
      newRS &&
      rsReplicas(newRS) === dReplicas(d) &&
      newRS.metadata.annotations?.[this.a.desiredReplicas] === String(dReplicas(d)) &&
      (rsStatusOf(newRS).availableReplicas ?? 0) === dReplicas(d)
    ) {
      for (const rs of oldRSs.filter((r) => rsReplicas(r) > 0)) await this.scaleReplicaSet(rs, 0, d);
      return;
    }
    if (!isRollingUpdate(d)) return;
    const allowed = dReplicas(d) > 0 ? dReplicas(d) + maxSurge(d) : 0;
    const toAdd = allowed - specReplicas(active);
    // Larger (then newer) ReplicaSets first when growing; smaller (then older) first when shrinking.
    const size = (rs: ReplicaSet) => rsReplicas(rs);
    const sorted =
      toAdd > 0
        ? [...active].sort((a, b) => size(b) - size(a) || -byCreation(a, b))
        : [...active].sort((a, b) => size(a) - size(b) || byCreation(a, b));
    let added = 0;
    const sizes = new Map<ReplicaSet, number>();
    if (toAdd !== 0) {
      for (const rs of sorted) {
        const p = proportion(rs, d, toAdd, added, this.a);
        sizes.set(rs, rsReplicas(rs) + p);
        added += p;
      }
    }
    if (toAdd !== 0 && added !== toAdd && sorted.length) {
      const first = sorted[0];
      sizes.set(first, Math.max(0, (sizes.get(first) ?? rsReplicas(first)) + toAdd - added));
    }
    for (const rs of sorted) await this.scaleReplicaSet(rs, sizes.get(rs) ?? rsReplicas(rs), d);
  }

  /** cleanupDeployment: old, empty ReplicaSets beyond revisionHistoryLimit are deleted, oldest revision first. */
  private async cleanup(oldRSs: ReplicaSet[], d: Deployment): Promise<void> {
    const limit = dSpec(d).revisionHistoryLimit;
    if (limit === undefined) return;
    const alive = oldRSs.filter((rs) => !rs.metadata.deletionTimestamp);
    const diff = alive.length - limit;
    if (diff <= 0) return;
    const sorted = [...alive].sort((a, b) => revisionOf(a, this.a) - revisionOf(b, this.a) || byCreation(a, b));
    for (const rs of sorted.slice(0, diff)) {
      const st = rsStatusOf(rs);
      if ((st.replicas ?? 0) !== 0 || rsReplicas(rs) !== 0 || (rs.metadata.generation ?? 0) > (st.observedGeneration ?? 0)) continue;
      try {
        await this.rsClient(rs.metadata.namespace).delete(rs.metadata.name!, { preconditions: { uid: rs.metadata.uid } });
      } catch (err) {
        if (!isApiError(err, 'NotFound') && !isApiError(err, 'Conflict')) throw err;
      }
    }
  }

  private async syncStatusOnly(d: Deployment, rsList: ReplicaSet[]): Promise<void> {
    const { newRS, oldRSs } = await this.newAndOld(d, rsList, false);
    await this.syncStatus(newRS ? [...oldRSs, newRS] : oldRSs, newRS, d);
  }

  private async syncStatus(allRSs: ReplicaSet[], newRS: ReplicaSet | undefined, d: Deployment): Promise<void> {
    const status = calculateStatus(allRSs, newRS, d);
    if (!jsonEqual(status, dStatus(d))) await this.updateStatus(d, status);
  }

  /** syncRolloutStatus; a Deployment still progressing is looked at again when its deadline passes. */
  private async syncRolloutStatus(allRSs: ReplicaSet[], newRS: ReplicaSet | undefined, d: Deployment): Promise<SyncResult | undefined> {
    const status = rolloutStatus(allRSs, newRS, d);
    if (!jsonEqual(status, dStatus(d))) {
      await this.updateStatus(d, status);
      return undefined;
    }
    const c = getCondition(status.conditions, 'Progressing');
    if (!hasProgressDeadline(d) || !c || c.reason === 'NewReplicaSetAvailable' || c.reason === 'ProgressDeadlineExceeded') return undefined;
    const after = Date.parse(c.lastUpdateTime ?? '') + (dSpec(d).progressDeadlineSeconds ?? 600) * 1000 - Date.now();
    return { requeueAfterMs: Math.max(after, 1000) };
  }

  /** Writes the status (PUT /status) and keeps `d` in step with what the server answered. */
  private async updateStatus(d: Deployment, status: DeploymentStatus): Promise<void> {
    const next = deepCopy(d);
    next.status = status;
    const updated = await this.ctx.client.resource(DEPLOYMENTS, d.metadata.namespace).update(next, 'status');
    d.status = updated.status;
    d.metadata.resourceVersion = updated.metadata.resourceVersion;
  }
}
