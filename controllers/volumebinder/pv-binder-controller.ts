/**
 * The persistent volume binder (static binding): an unbound PersistentVolumeClaim is bound to the
 * smallest Available PersistentVolume that satisfies it — same storage class and volume mode, every
 * requested access mode, enough capacity, labels matching the claim's selector — or to the volume a
 * user pre-bound (claimRef on the volume, volumeName on the claim). Binding writes both sides as
 * Kubernetes does: the volume's claimRef and `pv.<prefix>/bound-by-controller`, the claim's
 * volumeName and `pv.<prefix>/bind-completed`, then phases Bound and the claim's capacity and access
 * modes. A claim with no match stays Pending (FailedBinding event); a bound claim whose volume is
 * gone is Lost. A volume whose claim is gone is Released, and deleted when its reclaim policy is
 * Delete.
 *
 * Dynamic provisioning (provisioning.ts): a claim no volume satisfies whose StorageClass names an
 * external provisioner is annotated with it (`volume.<prefix>/storage-provisioner` and the beta
 * name) for that provisioner to create the volume, which then binds as a pre-bound one. A class with
 * `volumeBindingMode: WaitForFirstConsumer` delays all this until a Pod is scheduled (the
 * `volume.<prefix>/selected-node` annotation); until then the claim waits with an event.
 */
import type {
  ObjectReference,
  PersistentVolume,
  PersistentVolumeClaim,
  PersistentVolumeClaimStatus,
  Pod,
  StorageClass,
} from '../../apiserver/api/generated/types.js';
import { deepCopy, jsonEqual } from '../../apiserver/api/object.js';
import { compareQuantities, quantityFrom, ZERO_QUANTITY } from '../../apiserver/api/quantity.js';
import { isApiError } from '../../apiserver/api/status.js';
import { labelSelectorFromObject } from '../../apiserver/runtime/selectors/label-selector.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import type { EventRecorder } from '../events/event-recorder.js';
import { objectReference } from '../events/event-recorder.js';
import type { Informer } from '../informers/informer.js';
import { objectKey } from '../informers/indexer.js';
import { runQueueWorkers } from '../controllerutil/run-controller.js';
import type { WorkQueue } from '../workqueue/work-queue.js';
import { PODS, PVCS, PVS } from '../controllerutil/resources.js';
import { NAMESPACE_INDEX } from '../informers/indexer.js';
import { ClaimProvisioning, storageClassesResource } from './provisioning.js';

const pvSpec = (pv: PersistentVolume) => pv.spec ?? {};
const pvcSpec = (pvc: PersistentVolumeClaim) => pvc.spec ?? {};
const phaseOf = (o: PersistentVolume | PersistentVolumeClaim) => o.status?.phase;

function storage(map: Record<string, string> | undefined) {
  try {
    return map?.storage !== undefined ? quantityFrom(map.storage) : ZERO_QUANTITY;
  } catch {
    return ZERO_QUANTITY;
  }
}

/** Whether the volume can serve the claim (class, mode, access modes, capacity, selector). */
export function volumeSatisfies(pv: PersistentVolume, pvc: PersistentVolumeClaim): boolean {
  const v = pvSpec(pv);
  const c = pvcSpec(pvc);
  if ((v.storageClassName ?? '') !== (c.storageClassName ?? '')) return false;
  if ((v.volumeMode ?? 'Filesystem') !== (c.volumeMode ?? 'Filesystem')) return false;
  if (!(c.accessModes ?? []).every((m) => (v.accessModes ?? []).includes(m))) return false;
  if (compareQuantities(storage(v.capacity), storage(c.resources?.requests)) < 0) return false;
  if (c.selector) {
    try {
      if (!labelSelectorFromObject(c.selector).matches(pv.metadata.labels ?? {})) return false;
    } catch {
      return false;
    }
  }
  return true;
}

export class PvBinderController implements Controller {
  readonly volumes: Informer<PersistentVolume>;
  readonly claims: Informer<PersistentVolumeClaim>;
  readonly classes: Informer<StorageClass>;
  readonly pods: Informer<Pod>;
  readonly queue: WorkQueue<string>;
  private readonly provisioning: ClaimProvisioning;
  private readonly recorder: EventRecorder;
  private readonly boundBy: string;
  private readonly bindCompleted: string;

  constructor(
    private readonly ctx: ControllerContext,
    readonly _opts: { workers?: number } = {},
  ) {
    this.boundBy = `pv.${ctx.domain.labelPrefix}/bound-by-controller`;
    this.bindCompleted = `pv.${ctx.domain.labelPrefix}/bind-completed`;
    this.queue = ctx.newQueue('volumes');
    this.recorder = ctx.recorder('persistentvolume-controller');
    this.volumes = ctx.informers.forResource(PVS);
    this.claims = ctx.informers.forResource(PVCS);
    this.classes = ctx.informers.forResource(storageClassesResource(ctx.domain));
    this.pods = ctx.informers.forResource(PODS);
    this.provisioning = new ClaimProvisioning(ctx.client, this.recorder, ctx.domain);
    const volume = (pv: PersistentVolume) => {
      this.queue.add(`pv:${pv.metadata.name}`);
      const ref = pvSpec(pv).claimRef;
      if (ref?.name) this.queue.add(`pvc:${ref.namespace}/${ref.name}`);
      // A freed volume may serve a waiting claim.
      if (phaseOf(pv) === 'Available')
        for (const c of this.claims.indexer.list()) if (!pvcSpec(c).volumeName) this.queue.add(`pvc:${objectKey(c)}`);
    };
    const claim = (pvc: PersistentVolumeClaim) => {
      this.queue.add(`pvc:${objectKey(pvc)}`);
      const name = pvcSpec(pvc).volumeName;
      if (name) this.queue.add(`pv:${name}`);
    };
    this.volumes.addEventHandler({ onAdd: volume, onUpdate: (_o, v) => volume(v), onDelete: volume });
    this.claims.addEventHandler({ onAdd: claim, onUpdate: (_o, c) => claim(c), onDelete: claim });
    // A class that appears or changes may let its waiting claims go on.
    const storageClass = (sc: StorageClass) => {
      for (const c of this.claims.indexer.list())
        if (!pvcSpec(c).volumeName && pvcSpec(c).storageClassName === sc.metadata.name) this.queue.add(`pvc:${objectKey(c)}`);
    };
    this.classes.addEventHandler({ onAdd: storageClass, onUpdate: (_o, sc) => storageClass(sc) });
  }

  run(signal: AbortSignal): Promise<void> {
    return runQueueWorkers(
      signal,
      { queue: this.queue, sync: (key) => (key.startsWith('pv:') ? this.syncVolume(key.slice(3)) : this.syncClaim(key.slice(4))) },
      {
        informers: [this.volumes, this.claims, this.classes, this.pods],
        workers: 1,
        logger: this.ctx.logger,
        failure: 'binding volumes',
        itemField: 'key',
      },
    );
  }

  async syncClaim(key: string): Promise<void> {
    const pvc = this.claims.indexer.get(key);
    if (!pvc || pvc.metadata.deletionTimestamp) return;
    const spec = pvcSpec(pvc);
    if (spec.volumeName) {
      const pv = this.volumes.indexer.get(spec.volumeName);
      if (!pv) {
        if (phaseOf(pvc) === 'Bound') {
          await this.claimStatus(pvc, 'Lost');
          this.recorder.event(
            this.ref(pvc),
            'Warning',
            'ClaimLost',
            'Bind',
            'Bound claim has lost its PersistentVolume. Data on the volume is lost!',
          );
        }
        return;
      }
      const ref = pvSpec(pv).claimRef;
      if (!ref?.name) {
        await this.bind(pv, pvc);
        return;
      }
      if (ref.namespace === pvc.metadata.namespace && ref.name === pvc.metadata.name && (!ref.uid || ref.uid === pvc.metadata.uid)) {
        if (!ref.uid || pvc.metadata.annotations?.[this.bindCompleted] !== 'yes' || phaseOf(pvc) !== 'Bound') await this.bind(pv, pvc);
      }
      return;
    }
    const candidates = this.volumes.indexer.list().filter((pv) => !pv.metadata.deletionTimestamp);
    const preBound = candidates.find((pv) => {
      const ref = pvSpec(pv).claimRef;
      return ref?.namespace === pvc.metadata.namespace && ref?.name === pvc.metadata.name && (!ref?.uid || ref?.uid === pvc.metadata.uid);
    });
    const storageClass = spec.storageClassName ? this.classes.indexer.get(spec.storageClassName) : undefined;
    // Delayed binding leaves unbound volumes to the scheduler: only a pre-bound one binds here.
    const delayed = this.provisioning.delaysBinding(storageClass);
    const match =
      preBound ??
      (delayed
        ? undefined
        : candidates
            .filter((pv) => !pvSpec(pv).claimRef && volumeSatisfies(pv, pvc))
            .sort((a, b) => compareQuantities(storage(pvSpec(a).capacity), storage(pvSpec(b).capacity)))[0]);
    if (match) {
      await this.bind(match, pvc);
      return;
    }
    if (delayed && !this.provisioning.selectedNode(pvc)) {
      this.provisioning.waitForConsumer(pvc, this.unscheduledPods(pvc));
    } else if (spec.storageClassName) {
      await this.provisioning.provision(pvc, storageClass);
      return;
    } else {
      this.recorder.event(
        this.ref(pvc),
        'Normal',
        'FailedBinding',
        'Bind',
        'no persistent volumes available for this claim and no storage class is set',
      );
    }
    if (phaseOf(pvc) !== 'Pending') await this.claimStatus(pvc, 'Pending');
  }

  /** The names of the Pods not yet scheduled that use the claim (findNonScheduledPodsByPVC). */
  private unscheduledPods(pvc: PersistentVolumeClaim): string[] {
    return this.pods.indexer
      .byIndex(NAMESPACE_INDEX, pvc.metadata.namespace ?? '')
      .filter((pod) => {
        const spec = pod.spec;
        return !spec?.nodeName && (spec?.volumes ?? []).some((v) => v.persistentVolumeClaim?.claimName === pvc.metadata.name);
      })
      .map((pod) => pod.metadata.name!);
  }

  private ref(pvc: PersistentVolumeClaim) {
    return objectReference(pvc, 'v1', 'PersistentVolumeClaim');
  }

  /** Binds both sides, the volume first (as Kubernetes does), then the phases. */
  private async bind(pv: PersistentVolume, pvc: PersistentVolumeClaim): Promise<void> {
    const volume = deepCopy(pv);
    const ref: ObjectReference = {
      kind: 'PersistentVolumeClaim',
      namespace: pvc.metadata.namespace,
      name: pvc.metadata.name,
      uid: pvc.metadata.uid,
      apiVersion: 'v1',
      resourceVersion: pvc.metadata.resourceVersion,
    };
    const current = pvSpec(pv).claimRef;
    let boundVolume = pv;
    if (current?.uid !== pvc.metadata.uid || current?.name !== pvc.metadata.name) {
      volume.spec = { ...volume.spec, claimRef: ref };
      if (!current?.name) volume.metadata.annotations = { ...volume.metadata.annotations, [this.boundBy]: 'yes' };
      boundVolume = await this.ctx.client.resource(PVS).update(volume);
    }
    if (phaseOf(boundVolume) !== 'Bound') await this.volumeStatus(boundVolume, 'Bound');
    const claim = deepCopy(pvc);
    let claimChanged = false;
    if (claim.spec?.volumeName !== pv.metadata.name) {
      claim.spec = { ...claim.spec, volumeName: pv.metadata.name };
      claim.metadata.annotations = { ...claim.metadata.annotations, [this.boundBy]: 'yes' };
      claimChanged = true;
    }
    if (claim.metadata.annotations?.[this.bindCompleted] !== 'yes') {
      claim.metadata.annotations = { ...claim.metadata.annotations, [this.bindCompleted]: 'yes' };
      claimChanged = true;
    }
    const boundClaim = claimChanged ? await this.ctx.client.resource(PVCS, pvc.metadata.namespace).update(claim) : pvc;
    const status: PersistentVolumeClaimStatus = {
      ...boundClaim.status,
      phase: 'Bound',
      accessModes: pvSpec(pv).accessModes,
      capacity: pvSpec(pv).capacity,
    };
    if (!jsonEqual(status, boundClaim.status)) {
      const next = deepCopy(boundClaim);
      next.status = status;
      await this.ctx.client.resource(PVCS, pvc.metadata.namespace).update(next, 'status');
    }
  }

  async syncVolume(name: string): Promise<void> {
    const pv = this.volumes.indexer.get(name);
    if (!pv) return;
    const ref = pvSpec(pv).claimRef;
    if (!ref?.name) {
      if (phaseOf(pv) !== 'Available') await this.volumeStatus(pv, 'Available');
      return;
    }
    if (!ref.uid) return; // pre-bound by a user: the claim's sync binds it
    const pvc = this.claims.indexer.get(`${ref.namespace}/${ref.name}`);
    if (pvc && pvc.metadata.uid === ref.uid) {
      if (pvcSpec(pvc).volumeName === name && phaseOf(pv) !== 'Bound') await this.volumeStatus(pv, 'Bound');
      return;
    }
    // The claim is gone: make sure (the cache may lag), then release the volume.
    try {
      const live = await this.ctx.client.resource(PVCS, ref.namespace).get(ref.name);
      if (live.metadata.uid === ref.uid) return;
    } catch (err) {
      if (!isApiError(err, 'NotFound')) throw err;
    }
    if ((pvSpec(pv).persistentVolumeReclaimPolicy ?? 'Retain') === 'Delete') {
      try {
        await this.ctx.client.resource(PVS).delete(name, { preconditions: { uid: pv.metadata.uid } });
      } catch (err) {
        if (!isApiError(err, 'NotFound') && !isApiError(err, 'Conflict')) throw err;
      }
      return;
    }
    if (phaseOf(pv) !== 'Released') await this.volumeStatus(pv, 'Released');
  }

  private async volumeStatus(pv: PersistentVolume, phase: string): Promise<void> {
    const next = deepCopy(pv);
    next.status = { ...pv.status, phase };
    try {
      await this.ctx.client.resource(PVS).update(next, 'status');
    } catch (err) {
      if (!isApiError(err, 'NotFound')) throw err;
    }
  }

  private async claimStatus(pvc: PersistentVolumeClaim, phase: string): Promise<void> {
    const next = deepCopy(pvc);
    next.status = { ...pvc.status, phase };
    try {
      await this.ctx.client.resource(PVCS, pvc.metadata.namespace).update(next, 'status');
    } catch (err) {
      if (!isApiError(err, 'NotFound')) throw err;
    }
  }
}
