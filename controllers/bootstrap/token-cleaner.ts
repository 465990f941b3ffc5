/**
 * The token cleaner (kube-controller-manager's tokencleaner): bootstrap token Secrets whose
 * `expiration` has passed (or cannot be read) are deleted, with their uid as precondition; one that
 * expires later is looked at again when it does.
 */
import type { Secret } from '../../apiserver/api/generated/types.js';
import { isApiError } from '../../apiserver/api/status.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import type { Informer } from '../informers/informer.js';
import type { SyncResult } from '../workqueue/run-workers.js';
import { runQueueWorkers } from '../controllerutil/run-controller.js';
import { SECRETS } from '../controllerutil/resources.js';
import type { WorkQueue } from '../workqueue/work-queue.js';
import { isBootstrapTokenSecret, tokenExpiration } from './bootstrap-tokens.js';

export interface TokenCleanerOptions {
  now?: () => Date;
}

export class TokenCleaner implements Controller {
  private readonly secrets: Informer<Secret>;
  readonly queue: WorkQueue<string>;
  private readonly now: () => Date;

  constructor(
    private readonly ctx: ControllerContext,
    opts: TokenCleanerOptions = {},
  ) {
    this.now = opts.now ?? (() => new Date());
    this.queue = ctx.newQueue('token_cleaner');
    this.secrets = ctx.informers.forResource(SECRETS);
    const enqueue = (secret: Secret) => {
      if (isBootstrapTokenSecret(secret, ctx.domain)) this.queue.add(secret.metadata.name!);
    };
    this.secrets.addEventHandler({ onAdd: enqueue, onUpdate: (_old, secret) => enqueue(secret) });
  }

  run(signal: AbortSignal): Promise<void> {
    return runQueueWorkers(signal, this, {
      informers: [this.secrets],
      workers: 1,
      logger: this.ctx.logger,
      failure: 'cleaning a bootstrap token',
      itemField: 'secret',
    });
  }

  async sync(name: string): Promise<SyncResult | undefined> {
    const namespace = this.ctx.domain.systemNamespace;
    const secret = this.secrets.indexer.get(`${namespace}/${name}`);
    if (!secret || !isBootstrapTokenSecret(secret, this.ctx.domain)) return;
    const { expired, remainingMs } = tokenExpiration(secret, this.now());
    if (!expired) return remainingMs > 0 ? { requeueAfterMs: remainingMs } : undefined;
    try {
      await this.ctx.client
        .resource({ group: '', version: 'v1', resource: 'secrets' }, namespace)
        .delete(name, { preconditions: { uid: secret.metadata.uid } });
      this.ctx.logger.info('deleted expired bootstrap token', { secret: name });
    } catch (err) {
      // Already gone, or replaced by a new Secret of the same name (the uid precondition failed).
      if (isApiError(err, 'NotFound') || isApiError(err, 'Conflict')) return;
      throw err;
    }
  }
}
