/**
 * The PVC protection controller: every PersistentVolumeClaim carries the `<prefix>/pvc-protection`
 * finalizer, so one that is deleted while a Pod uses it stays until no Pod does; the finalizer is then
 * removed (after a live list of the namespace's Pods confirms it). A Pod uses a claim through a
 * `persistentVolumeClaim` volume or a generic ephemeral volume (`<pod>-<volume>`), unless it finished.
 */
import type { PersistentVolumeClaim, Pod } from '../../apiserver/api/generated/types.js';
import { deepCopy } from '../../apiserver/api/object.js';
import { isApiError } from '../../apiserver/api/status.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import type { Informer } from '../informers/informer.js';
import { NAMESPACE_INDEX } from '../informers/indexer.js';
import { enqueueChanges, runQueueWorkers } from '../controllerutil/run-controller.js';
import type { WorkQueue } from '../workqueue/work-queue.js';
import { PODS, PVCS } from '../controllerutil/resources.js';
import { podStatus } from '../controllerutil/pod-status.js';

/** The claims a Pod uses (names, in its namespace). */
export function claimsOf(pod: Pod): string[] {
  const volumes = pod.spec?.volumes ?? [];
  return volumes.flatMap((v) =>
    v.persistentVolumeClaim?.claimName ? [v.persistentVolumeClaim.claimName] : v.ephemeral ? [`${pod.metadata.name}-${v.name}`] : [],
  );
}

const finished = (pod: Pod) => ['Succeeded', 'Failed'].includes(podStatus(pod).phase ?? '');

export class PvcProtectionController implements Controller {
  readonly claims: Informer<PersistentVolumeClaim>;
  readonly pods: Informer<Pod>;
  readonly queue: WorkQueue<string>;
  readonly finalizer: string;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly opts: { workers?: number } = {},
  ) {
    this.finalizer = `${ctx.domain.labelPrefix}/pvc-protection`;
    this.queue = ctx.newQueue('pvcprotection');
    this.claims = ctx.informers.forResource(PVCS);
    this.pods = ctx.informers.forResource(PODS);
    enqueueChanges(this.claims, this.queue, { deletes: false });
    const podChanged = (pod: Pod) => {
      for (const name of claimsOf(pod)) this.queue.add(`${pod.metadata.namespace}/${name}`);
    };
    this.pods.addEventHandler({
      onUpdate: (old, pod) => {
        if (finished(pod) && !finished(old)) podChanged(pod);
      },
      onDelete: podChanged,
    });
  }

  run(signal: AbortSignal): Promise<void> {
    return runQueueWorkers(signal, this, {
      informers: [this.claims, this.pods],
      workers: this.opts.workers ?? 1,
      logger: this.ctx.logger,
      failure: 'PVC protection',
      itemField: 'pvc',
    });
  }

  private inUse(pods: Pod[], name: string): boolean {
    return pods.some((p) => !finished(p) && claimsOf(p).includes(name));
  }

  async sync(key: string): Promise<void> {
    const pvc = this.claims.indexer.get(key);
    if (!pvc) return;
    const ns = pvc.metadata.namespace ?? '';
    const has = pvc.metadata.finalizers?.includes(this.finalizer) ?? false;
    if (!pvc.metadata.deletionTimestamp) {
      if (!has) await this.setFinalizers(pvc, [...(pvc.metadata.finalizers ?? []), this.finalizer]);
      return;
    }
    if (!has) return;
    if (this.inUse(this.pods.indexer.byIndex(NAMESPACE_INDEX, ns), pvc.metadata.name!)) return;
    // The cache may be behind a Pod that was just created: ask the API server.
    const live = await this.ctx.client.resource(PODS, ns).listAll();
    if (this.inUse(live.items, pvc.metadata.name!)) return;
    await this.setFinalizers(
      pvc,
      (pvc.metadata.finalizers ?? []).filter((f) => f !== this.finalizer),
    );
  }

  private async setFinalizers(pvc: PersistentVolumeClaim, finalizers: string[]): Promise<void> {
    const next = deepCopy(pvc);
    next.metadata.finalizers = finalizers;
    try {
      await this.ctx.client.resource(PVCS, pvc.metadata.namespace).update(next);
    } catch (err) {
      if (!isApiError(err, 'NotFound')) throw err;
    }
  }
}
