/**
 * What the CSR approving and signing controllers share (kube-controller-manager's
 * certificates.CertificateController): a queue fed by every request added or changed, workers over
 * it, and a sync that hands each cached request not issued yet to the controller's handler.
 */
import { asCsr, CSR_RESOURCE } from '../../apiserver/api/certificates/csr.js';
import type { CertificateSigningRequest } from '../../apiserver/api/generated/types.js';
import type { ApiObject } from '../../apiserver/api/object.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import type { GroupVersionResource } from '../client/api-client.js';
import { enqueueChanges, runQueueWorkers } from '../controllerutil/run-controller.js';
import type { Informer } from '../informers/informer.js';
import type { SyncResult } from '../workqueue/run-workers.js';
import type { WorkQueue } from '../workqueue/work-queue.js';

const WORKERS = 5;

/** certificatesigningrequests in certificates.<domain>/v1. */
export function csrGvr(ctx: Pick<ControllerContext, 'domain'>): GroupVersionResource {
  return { group: ctx.domain.group('certificates.k8s.io'), version: 'v1', resource: CSR_RESOURCE };
}

export interface CertificateHandler {
  /** The queue's name. */
  name: string;
  /** What failed, for the log line: "signing a certificate signing request". */
  failure: string;
  /** Acts on a request not issued yet: `obj` as cached (copy it to write), `csr` its typed view. */
  handle(obj: ApiObject, csr: CertificateSigningRequest): Promise<SyncResult | undefined>;
}

export class CertificateController implements Controller {
  private readonly csrs: Informer;
  readonly queue: WorkQueue<string>;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly handler: CertificateHandler,
  ) {
    this.queue = ctx.newQueue(handler.name);
    this.csrs = ctx.informers.forResource(csrGvr(ctx));
    enqueueChanges(this.csrs, this.queue, { deletes: false });
  }

  run(signal: AbortSignal): Promise<void> {
    return runQueueWorkers(signal, this, {
      informers: [this.csrs],
      workers: WORKERS,
      logger: this.ctx.logger,
      failure: this.handler.failure,
      itemField: 'csr',
    });
  }

  /** Hands the request to the handler unless it is gone or has its certificate. */
  async sync(name: string): Promise<SyncResult | undefined> {
    const obj = this.csrs.indexer.get(name);
    const cached = obj && asCsr(obj);
    if (!obj || !cached || cached.status?.certificate) return undefined;
    return this.handler.handle(obj, cached);
  }
}
