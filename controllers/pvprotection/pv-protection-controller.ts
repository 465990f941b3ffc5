/**
 * The PV protection controller: every PersistentVolume carries the `<prefix>/pv-protection`
 * finalizer, so one deleted while Bound to a claim stays until it is no longer Bound.
 */
import type { PersistentVolume } from '../../apiserver/api/generated/types.js';
import { deepCopy } from '../../apiserver/api/object.js';
import { isApiError } from '../../apiserver/api/status.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import type { Informer } from '../informers/informer.js';
import { enqueueChanges, runQueueWorkers } from '../controllerutil/run-controller.js';
import type { WorkQueue } from '../workqueue/work-queue.js';
import { PVS } from '../controllerutil/resources.js';

export class PvProtectionController implements Controller {
  readonly volumes: Informer<PersistentVolume>;
  readonly queue: WorkQueue<string>;
  readonly finalizer: string;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly opts: { workers?: number } = {},
  ) {
    this.finalizer = `${ctx.domain.labelPrefix}/pv-protection`;
    this.queue = ctx.newQueue('pvprotection');
    this.volumes = ctx.informers.forResource(PVS);
    enqueueChanges(this.volumes, this.queue, { deletes: false });
  }

  run(signal: AbortSignal): Promise<void> {
    return runQueueWorkers(signal, this, {
      informers: [this.volumes],
      workers: this.opts.workers ?? 1,
      logger: this.ctx.logger,
      failure: 'PV protection',
      itemField: 'pv',
    });
  }

  async sync(key: string): Promise<void> {
    const pv = this.volumes.indexer.get(key);
    if (!pv) return;
    const has = pv.metadata.finalizers?.includes(this.finalizer) ?? false;
    if (!pv.metadata.deletionTimestamp) {
      if (!has) await this.setFinalizers(pv, [...(pv.metadata.finalizers ?? []), this.finalizer]);
      return;
    }
    if (!has || pv.status?.phase === 'Bound') return;
    await this.setFinalizers(
      pv,
      (pv.metadata.finalizers ?? []).filter((f) => f !== this.finalizer),
    );
  }

  private async setFinalizers(pv: PersistentVolume, finalizers: string[]): Promise<void> {
    const next = deepCopy(pv);
    next.metadata.finalizers = finalizers;
    try {
      await this.ctx.client.resource(PVS).update(next);
    } catch (err) {
      if (!isApiError(err, 'NotFound')) throw err;
    }
  }
}
