/**
 * The service accounts controller: every Active namespace has a `default` ServiceAccount. A namespace
 * is looked at when it is added or changes, and when its `default` ServiceAccount is deleted; a
 * missing account is created (one that appeared meanwhile, or a namespace that started terminating,
 * is not an error).
 */
import type { Namespace, ServiceAccount } from '../../apiserver/api/generated/types.js';
import { isApiError } from '../../apiserver/api/status.js';
import { NAMESPACES, SERVICEACCOUNTS } from '../controllerutil/resources.js';
import { hasStatusCause, NAMESPACE_TERMINATING_CAUSE } from '../client/api-errors.js';
import type { Informer } from '../informers/informer.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import { enqueueChanges, runQueueWorkers } from '../controllerutil/run-controller.js';
import type { WorkQueue } from '../workqueue/work-queue.js';

/** The accounts every namespace gets. */
export const SERVICE_ACCOUNTS_TO_ENSURE = ['default'];

export class ServiceAccountsController implements Controller {
  private readonly namespaces: Informer<Namespace>;
  private readonly serviceAccounts: Informer<ServiceAccount>;
  readonly queue: WorkQueue<string>;

  constructor(private readonly ctx: ControllerContext) {
    this.queue = ctx.newQueue('serviceaccount');
    this.namespaces = ctx.informers.forResource(NAMESPACES);
    this.serviceAccounts = ctx.informers.forResource(SERVICEACCOUNTS);
    enqueueChanges(this.namespaces, this.queue, { deletes: false });
    this.serviceAccounts.addEventHandler({
      onDelete: (sa) => {
        if (SERVICE_ACCOUNTS_TO_ENSURE.includes(sa.metadata.name!)) this.queue.add(sa.metadata.namespace!);
      },
    });
  }

  run(signal: AbortSignal): Promise<void> {
    return runQueueWorkers(signal, this, {
      informers: [this.namespaces, this.serviceAccounts],
      workers: 1,
      logger: this.ctx.logger,
      failure: 'ensuring service accounts',
      itemField: 'namespace',
    });
  }

  async sync(namespace: string): Promise<void> {
    const ns = this.namespaces.indexer.get(namespace);
    if (ns?.status?.phase !== 'Active') return;
    for (const name of SERVICE_ACCOUNTS_TO_ENSURE) {
      if (this.serviceAccounts.indexer.get(`${namespace}/${name}`)) continue;
      try {
        await this.ctx.client.resource(SERVICEACCOUNTS, namespace).create({ metadata: { name } });
      } catch (err) {
        if (isApiError(err, 'AlreadyExists')) continue;
        if (hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) continue;
        throw err;
      }
    }
  }
}
