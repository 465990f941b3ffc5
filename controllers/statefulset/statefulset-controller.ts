/**
 * The StatefulSet controller: Pods with stable names `<set>-<ordinal>` (hostname = name, subdomain =
 * serviceName), each with its PersistentVolumeClaims `<template>-<set>-<ordinal>` made from
 * volumeClaimTemplates before the Pod. OrderedReady creates ordinals one at a time, each only once
 * the ones below are Running and Ready, and removes the highest first; Parallel does all at once.
 * Failed Pods are replaced. RollingUpdate replaces Pods whose revision is not the current template's,
 * from the highest ordinal down to `partition`, one at a time while the others are healthy; OnDelete
 * waits for the user. Each template is a ControllerRevision (controllerutil/controller-history.ts)
 * whose name each of its Pods carries in `controller-revision-hash`; `rollout undo` patches an older
 * revision's template back, which bumps that revision instead of creating one. Status counts replicas,
 * ready, available, current and updated ones and names both revisions; at most revisionHistoryLimit
 * revisions no Pod uses are kept. persistentVolumeClaimRetentionPolicy puts the owner references on
 * the claims that let the garbage collector delete them with the set or the scaled-away Pod
 * (claim-retention.ts).
 */
import type { PersistentVolumeClaim, Pod, StatefulSet, StatefulSetSpec, StatefulSetStatus } from '../../apiserver/api/generated/types.js';
import { deepCopy, jsonEqual } from '../../apiserver/api/object.js';
import { isApiError } from '../../apiserver/api/status.js';
import { labelSelectorFromObject, type LabelSelector } from '../../apiserver/runtime/selectors/label-selector.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import { hasStatusCause, NAMESPACE_TERMINATING_CAUSE } from '../client/api-errors.js';
import type { EventRecorder } from '../events/event-recorder.js';
import { objectReference } from '../events/event-recorder.js';
import type { Informer } from '../informers/informer.js';
import { NAMESPACE_INDEX } from '../informers/indexer.js';
import type { SyncResult } from '../workqueue/run-workers.js';
import { enqueueChanges, runQueueWorkers } from '../controllerutil/run-controller.js';
import type { WorkQueue } from '../workqueue/work-queue.js';
import {
  claimObjects,
  controllerRefOf,
  ensureControllerIndex,
  newControllerRef,
  readFromServer,
} from '../controllerutil/controller-ref.js';
import { CONTROLLERREVISIONS, PODS, PVCS, STATEFULSETS } from '../controllerutil/resources.js';
import { ControllerHistory, DEFAULT_REVISION_HISTORY_LIMIT, REVISION_LABEL } from '../controllerutil/controller-history.js';
import { isPodAvailable, isPodReady, podStatus } from '../controllerutil/pod-status.js';
import { podFromTemplate } from '../controllerutil/pod-template.js';
import { computeHash } from '../controllerutil/template-hash.js';
import { claimIsStale, claimOwnerRefs } from './claim-retention.js';
import { messageOf } from '../../apiserver/api/thrown.js';

/** The spec as this controller reads it: `selector`, `serviceName` and `template` are required, but a missing one is still checked for. */
const setSpec = (s: StatefulSet): Partial<StatefulSetSpec> => s.spec ?? {};

export class StatefulSetController implements Controller {
  readonly sets: Informer<StatefulSet>;
  readonly pods: Informer<Pod>;
  readonly claims: Informer<PersistentVolumeClaim>;
  readonly history: ControllerHistory;
  readonly queue: WorkQueue<string>;
  private readonly recorder: EventRecorder;
  private readonly podNameLabel: string;
  private readonly podIndexLabel: string;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly opts: { workers?: number } = {},
  ) {
    this.podNameLabel = `statefulset.${ctx.domain.labelPrefix}/pod-name`;
    this.podIndexLabel = `apps.${ctx.domain.labelPrefix}/pod-index`;
    this.queue = ctx.newQueue('statefulset');
    this.recorder = ctx.recorder('statefulset-controller');
    this.sets = ctx.informers.forResource(STATEFULSETS);
    this.pods = ctx.informers.forResource(PODS);
    this.claims = ctx.informers.forResource(PVCS);
    ensureControllerIndex(this.pods.indexer);
    this.history = new ControllerHistory(ctx.client, ctx.informers.forResource(CONTROLLERREVISIONS), {
      resource: STATEFULSETS,
      kind: 'StatefulSet',
      hashLabel: `controller.${ctx.domain.labelPrefix}/hash`,
      hash: (_set, data, collisionCount) => computeHash(data, collisionCount ?? 0),
    });
    enqueueChanges(this.sets, this.queue);
    const podChanged = (pod: Pod) => {
      const ref = controllerRefOf(pod);
      if (ref?.kind === 'StatefulSet') this.queue.add(`${pod.metadata.namespace}/${ref.name}`);
    };
    this.pods.addEventHandler({
      onAdd: podChanged,
      onUpdate: (old, pod) => {
        if (old.metadata.resourceVersion !== pod.metadata.resourceVersion) podChanged(pod);
      },
      onDelete: podChanged,
    });
  }

  run(signal: AbortSignal): Promise<void> {
    return runQueueWorkers(signal, this, {
      informers: [this.sets, this.pods, this.claims, this.history.informer],
      workers: this.opts.workers ?? 5,
      logger: this.ctx.logger,
      failure: 'syncing a StatefulSet',
      itemField: 'statefulset',
    });
  }

  /** The revision name of the set's current template. */
  updateRevision(set: StatefulSet): string {
    return this.history.newRevision(set, 0).metadata.name!;
  }

  private ordinalOf(set: StatefulSet, pod: Pod): number | undefined {
    const m = /^(.*)-(\d+)$/.exec(pod.metadata.name ?? '');
    return m && m[1] === set.metadata.name ? Number(m[2]) : undefined;
  }

  private claimName(template: PersistentVolumeClaim, set: StatefulSet, ordinal: number): string {
    return `${template.metadata.name}-${set.metadata.name}-${ordinal}`;
  }

  private healthy(set: StatefulSet, pod: Pod): boolean {
    return (
      podStatus(pod).phase === 'Running' &&
      isPodReady(pod) &&
      !pod.metadata.deletionTimestamp &&
      isPodAvailable(pod, setSpec(set).minReadySeconds ?? 0, Date.now())
    );
  }

  async sync(key: string): Promise<SyncResult | undefined> {
    const set = this.sets.indexer.get(key);
    if (!set) return undefined;
    let selector: LabelSelector;
    try {
      selector = labelSelectorFromObject(setSpec(set).selector);
    } catch (err) {
      this.ctx.logger.warn('StatefulSet has an invalid selector', { statefulset: key, error: messageOf(err) });
      return undefined;
    }
    const ns = set.metadata.namespace ?? '';
    const recheckOwner = readFromServer(this.ctx.client.resource(STATEFULSETS, ns), set.metadata.name!);
    const pods = await claimObjects(this.pods.indexer.byIndex(NAMESPACE_INDEX, ns), {
      owner: set,
      ownerRef: newControllerRef(set, 'apps/v1', 'StatefulSet'),
      selector,
      resource: this.ctx.client.resource(PODS, ns),
      recheckOwner,
    });
    const owned = await this.history.owned(set, selector, recheckOwner);
    const revisions = await this.history.sync(set, owned);
    const updateRevision = revisions.update.metadata.name!;
    if (!set.metadata.deletionTimestamp) await this.step(set, pods, updateRevision);
    const status = await this.updateStatus(set, pods, updateRevision);
    const live = new Set([status.currentRevision!, updateRevision]);
    for (const pod of pods) live.add(pod.metadata.labels?.[REVISION_LABEL] ?? '');
    await this.history.truncate(revisions.revisions, live, setSpec(set).revisionHistoryLimit ?? DEFAULT_REVISION_HISTORY_LIMIT);
    return undefined;
  }

  /** One step of the set's Pods towards the spec (Kubernetes' updateStatefulSet, one action when ordered). */
  private async step(set: StatefulSet, pods: Pod[], updateRevision: string): Promise<void> {
    const spec = setSpec(set);
    const replicas = spec.replicas ?? 1;
    const start = spec.ordinals?.start ?? 0;
    const ordered = (spec.podManagementPolicy ?? 'OrderedReady') === 'OrderedReady';
    const byOrdinal = new Map<number, Pod>();
    const condemned: Pod[] = [];
    for (const pod of pods) {
      const o = this.ordinalOf(set, pod);
      if (o === undefined) continue;
      if (o >= start && o < start + replicas) byOrdinal.set(o, pod);
      else condemned.push(pod);
    }
    condemned.sort((a, b) => this.ordinalOf(set, b)! - this.ordinalOf(set, a)!);
    for (const pod of byOrdinal.values()) await this.retainClaims(set, pod, false);
    for (const pod of condemned) await this.retainClaims(set, pod, true);

    for (let o = start; o < start + replicas; o++) {
      const pod = byOrdinal.get(o);
      if (pod && ['Failed', 'Succeeded'].includes(podStatus(pod).phase ?? '') && !pod.metadata.deletionTimestamp) {
        await this.deletePod(set, pod);
        if (ordered) return;
        continue;
      }
      if (!pod) {
        // A claim an earlier Pod of this name still owns goes first (whenScaled: Delete).
        if (this.staleClaim(set, o)) return;
        await this.createPod(set, o, updateRevision);
        if (ordered) return;
        continue;
      }
      if (ordered && !this.healthy(set, pod)) return;
    }
    for (const pod of condemned) {
      if (pod.metadata.deletionTimestamp) {
        if (ordered) return;
        continue;
      }
      // OrderedReady removes the highest ordinal only while every remaining Pod is healthy.
      if (ordered && [...byOrdinal.values()].some((p) => !this.healthy(set, p))) return;
      await this.deletePod(set, pod);
      if (ordered) return;
    }
    if ((spec.updateStrategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') return;
    const partition = spec.updateStrategy?.rollingUpdate?.partition ?? 0;
    for (let o = start + replicas - 1; o >= start + partition; o--) {
      const pod = byOrdinal.get(o);
      if (!pod || pod.metadata.labels?.[REVISION_LABEL] === updateRevision) continue;
      if ([...byOrdinal.values()].some((p) => p !== pod && !this.healthy(set, p))) return;
      if (pod.metadata.deletionTimestamp) return;
      await this.deletePod(set, pod);
      return;
    }
  }

  /** Sets the owner references of the Pod's claims the retention policy asks for. */
  private async retainClaims(set: StatefulSet, pod: Pod, scaledDown: boolean): Promise<void> {
    if (pod.metadata.deletionTimestamp) return;
    const ordinal = this.ordinalOf(set, pod)!;
    const policy = setSpec(set).persistentVolumeClaimRetentionPolicy;
    for (const template of setSpec(set).volumeClaimTemplates ?? []) {
      const claim = this.claims.indexer.get(`${set.metadata.namespace}/${this.claimName(template, set, ordinal)}`);
      if (!claim || claim.metadata.deletionTimestamp) continue;
      const refs = claimOwnerRefs(claim, set, pod, policy, scaledDown);
      if (jsonEqual(refs, claim.metadata.ownerReferences ?? [])) continue;
      const next = deepCopy(claim);
      next.metadata.ownerReferences = refs;
      try {
        await this.ctx.client.resource(PVCS, claim.metadata.namespace).update(next);
      } catch (err) {
        if (!isApiError(err, 'NotFound')) throw err;
      }
    }
  }

  private staleClaim(set: StatefulSet, ordinal: number): boolean {
    const policy = setSpec(set).persistentVolumeClaimRetentionPolicy;
    return (setSpec(set).volumeClaimTemplates ?? []).some((template) => {
      const claim = this.claims.indexer.get(`${set.metadata.namespace}/${this.claimName(template, set, ordinal)}`);
      return !!claim && claimIsStale(claim, `${set.metadata.name}-${ordinal}`, undefined, policy);
    });
  }

  private async createPod(set: StatefulSet, ordinal: number, revision: string): Promise<void> {
    const spec = setSpec(set);
    const ns = set.metadata.namespace ?? '';
    const name = `${set.metadata.name}-${ordinal}`;
    const ref = objectReference(set, 'apps/v1', 'StatefulSet');
    for (const template of spec.volumeClaimTemplates ?? []) await this.ensureClaim(set, template, ordinal, name);
    const pod = podFromTemplate(spec.template ?? {}, ns, set.metadata.name!, newControllerRef(set, 'apps/v1', 'StatefulSet'));
    delete pod.metadata.generateName;
    pod.metadata.name = name;
    pod.metadata.labels = {
      ...pod.metadata.labels,
      [this.podNameLabel]: name,
      [this.podIndexLabel]: String(ordinal),
      [REVISION_LABEL]: revision,
    };
    const podSpec = pod.spec;
    podSpec.hostname = name;
    if (spec.serviceName) podSpec.subdomain = spec.serviceName;
    const claimVolumes = (spec.volumeClaimTemplates ?? []).map((t) => ({
      name: t.metadata.name!,
      persistentVolumeClaim: { claimName: this.claimName(t, set, ordinal) },
    }));
    if (claimVolumes.length) {
      const names = new Set(claimVolumes.map((v) => v.name));
      podSpec.volumes = [...(podSpec.volumes ?? []).filter((v) => !names.has(v.name)), ...claimVolumes];
    }
    try {
      await this.ctx.client.resource(PODS, ns).create(pod);
      this.recorder.event(ref, 'Normal', 'SuccessfulCreate', 'Create', `create Pod ${name} in StatefulSet ${set.metadata.name} successful`);
    } catch (err) {
      if (isApiError(err, 'AlreadyExists') || hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) return;
      this.recorder.event(
        ref,
        'Warning',
        'FailedCreate',
        'Create',
        `create Pod ${name} in StatefulSet ${set.metadata.name} failed error: ${messageOf(err)}`,
      );
      throw err;
    }
  }

  private async ensureClaim(set: StatefulSet, template: PersistentVolumeClaim, ordinal: number, podName: string): Promise<void> {
    const ns = set.metadata.namespace ?? '';
    const name = this.claimName(template, set, ordinal);
    if (this.claims.indexer.get(`${ns}/${name}`)) return;
    const claim: PersistentVolumeClaim = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        name,
        namespace: ns,
        labels: { ...template.metadata.labels, ...setSpec(set).selector?.matchLabels },
        ...(template.metadata.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
      },
      spec: deepCopy(template.spec ?? {}),
    };
    // whenDeleted: Delete — the set owns the claims of the Pods in its range from the start.
    const refs = claimOwnerRefs(claim, set, { metadata: { name: podName } }, setSpec(set).persistentVolumeClaimRetentionPolicy, false);
    if (refs.length) claim.metadata.ownerReferences = refs;
    const ref = objectReference(set, 'apps/v1', 'StatefulSet');
    try {
      await this.ctx.client.resource(PVCS, ns).create(claim);
      this.recorder.event(
        ref,
        'Normal',
        'SuccessfulCreate',
        'Create',
        `create Claim ${name} Pod ${podName} in StatefulSet ${set.metadata.name} success`,
      );
    } catch (err) {
      if (isApiError(err, 'AlreadyExists')) return;
      this.recorder.event(
        ref,
        'Warning',
        'FailedCreate',
        'Create',
        `create Claim ${name} for Pod ${podName} in StatefulSet ${set.metadata.name} failed error: ${messageOf(err)}`,
      );
      throw err;
    }
  }

  private async deletePod(set: StatefulSet, pod: Pod): Promise<void> {
    const ref = objectReference(set, 'apps/v1', 'StatefulSet');
    try {
      await this.ctx.client.resource(PODS, pod.metadata.namespace).delete(pod.metadata.name!, { preconditions: { uid: pod.metadata.uid } });
      this.recorder.event(
        ref,
        'Normal',
        'SuccessfulDelete',
        'Delete',
        `delete Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} successful`,
      );
    } catch (err) {
      if (isApiError(err, 'NotFound') || isApiError(err, 'Conflict')) return;
      throw err;
    }
  }

  private async updateStatus(set: StatefulSet, pods: Pod[], updateRevision: string): Promise<StatefulSetStatus> {
    const spec = setSpec(set);
    const old: Partial<StatefulSetStatus> = set.status ?? {};
    const live = pods.filter((p) => this.ordinalOf(set, p) !== undefined && !p.metadata.deletionTimestamp);
    const currentRevision = old.currentRevision ?? updateRevision;
    const status: StatefulSetStatus = {
      observedGeneration: set.metadata.generation,
      replicas: live.length,
      readyReplicas: live.filter((p) => podStatus(p).phase === 'Running' && isPodReady(p)).length,
      availableReplicas: live.filter((p) => isPodAvailable(p, spec.minReadySeconds ?? 0, Date.now())).length,
      currentReplicas: live.filter((p) => p.metadata.labels?.[REVISION_LABEL] === currentRevision).length,
      updatedReplicas: live.filter((p) => p.metadata.labels?.[REVISION_LABEL] === updateRevision).length,
      currentRevision,
      updateRevision,
      collisionCount: old.collisionCount ?? 0,
    };
    // The rollout is complete: the update revision becomes the current one.
    if (status.updatedReplicas === (spec.replicas ?? 1) && status.replicas === status.updatedReplicas) {
      status.currentRevision = updateRevision;
      status.currentReplicas = status.updatedReplicas;
    }
    const previous = Object.fromEntries(Object.entries(old).filter(([k]) => k in status));
    if (jsonEqual(previous, status)) return status;
    const next = deepCopy(set);
    next.status = { ...old, ...status };
    try {
      await this.ctx.client.resource(STATEFULSETS, set.metadata.namespace).update(next, 'status');
    } catch (err) {
      if (!isApiError(err, 'NotFound')) throw err;
    }
    return status;
  }
}
