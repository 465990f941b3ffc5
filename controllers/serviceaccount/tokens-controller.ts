/**
 * The service-account token controller (kube-controller-manager's serviceaccount-token): every
 * Secret of type `<prefix>/service-account-token` naming an existing account (annotations
 * `<prefix>/service-account.name` and `.uid`) gets `token` (a legacy JWT signed with
 * --service-account-private-key-file), `ca.crt` (the root CA) and `namespace`, and the account's uid
 * annotation; a token Secret whose account is gone (or was re-created with another uid) is deleted,
 * and so are an account's token Secrets when the account is deleted. A deleted token Secret is taken
 * out of its account's `secrets` list.
 */
import type { Secret, ServiceAccount } from '../../apiserver/api/generated/types.js';
import { deepCopy } from '../../apiserver/api/object.js';
import { isApiError } from '../../apiserver/api/status.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import { SECRETS, SERVICEACCOUNTS } from '../controllerutil/resources.js';
import type { Informer } from '../informers/informer.js';
import type { SyncResult } from '../workqueue/run-workers.js';
import { runQueueWorkers } from '../controllerutil/run-controller.js';
import type { WorkQueue } from '../workqueue/work-queue.js';
import type { SigningKey } from '../../apiserver/api/serviceaccount/signing-key.js';
import { signLegacyToken } from './legacy-token.js';

const WORKERS = 5;

/** What the queues carry: a Secret to fill or delete, an account whose tokens may need deleting, a reference to drop. */
type Work =
  | { kind: 'secret'; namespace: string; name: string }
  | { kind: 'account-deleted'; namespace: string; name: string; uid: string }
  | { kind: 'secret-deleted'; namespace: string; name: string; account: string; uid: string };

export interface TokensControllerOptions {
  signingKey: SigningKey;
  rootCaPem: string;
}

export class TokensController implements Controller {
  private readonly secrets: Informer<Secret>;
  private readonly accounts: Informer<ServiceAccount>;
  private readonly queue: WorkQueue<string>;
  private readonly tokenType: string;
  private readonly nameKey: string;
  private readonly uidKey: string;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly opts: TokensControllerOptions,
  ) {
    const p = ctx.domain.labelPrefix;
    this.tokenType = `${p}/service-account-token`;
    this.nameKey = `${p}/service-account.name`;
    this.uidKey = `${p}/service-account.uid`;
    this.queue = ctx.newQueue('serviceaccount_tokens');
    this.secrets = ctx.informers.forResource(SECRETS);
    this.accounts = ctx.informers.forResource(SERVICEACCOUNTS);
    const add = (w: Work) => this.queue.add(JSON.stringify(w));
    const onSecret = (s: Secret) => {
      if (s.type === this.tokenType) add({ kind: 'secret', namespace: s.metadata.namespace!, name: s.metadata.name! });
    };
    this.secrets.addEventHandler({
      onAdd: onSecret,
      onUpdate: (_old, s) => onSecret(s),
      onDelete: (s) => {
        if (s.type !== this.tokenType) return;
        const account = s.metadata.annotations?.[this.nameKey] ?? '';
        add({
          kind: 'secret-deleted',
          namespace: s.metadata.namespace!,
          name: s.metadata.name!,
          account,
          uid: s.metadata.annotations?.[this.uidKey] ?? '',
        });
      },
    });
    this.accounts.addEventHandler({
      onDelete: (sa) =>
        add({ kind: 'account-deleted', namespace: sa.metadata.namespace!, name: sa.metadata.name!, uid: sa.metadata.uid ?? '' }),
    });
  }

  run(signal: AbortSignal): Promise<void> {
    // The queue's keys are Works this controller queued as JSON.
    return runQueueWorkers(
      signal,
      { queue: this.queue, sync: (key) => this.sync(JSON.parse(key) as Work) },
      {
        informers: [this.secrets, this.accounts],
        workers: WORKERS,
        logger: this.ctx.logger,
        failure: 'syncing service account tokens',
        itemField: 'item',
      },
    );
  }

  sync(work: Work): Promise<SyncResult | undefined> {
    if (work.kind === 'secret') return this.syncSecret(work.namespace, work.name);
    if (work.kind === 'account-deleted') return this.deleteTokensOf(work.namespace, work.name, work.uid).then(() => undefined);
    return this.dropReference(work.namespace, work.account, work.uid, work.name).then(() => undefined);
  }

  /** The account a token Secret names, from the cache or — on a miss — the server; undefined when gone or re-created. */
  private async accountOf(namespace: string, name: string, uid: string): Promise<ServiceAccount | undefined> {
    if (!name) return undefined;
    let sa = this.accounts.indexer.get(`${namespace}/${name}`);
    if (!sa) {
      try {
        sa = await this.ctx.client.resource(SERVICEACCOUNTS, namespace).get(name);
      } catch (err) {
        if (isApiError(err, 'NotFound')) return undefined;
        throw err;
      }
    }
    return !uid || sa.metadata.uid === uid ? sa : undefined;
  }

  private async syncSecret(namespace: string, name: string): Promise<SyncResult | undefined> {
    const cached = this.secrets.indexer.get(`${namespace}/${name}`);
    if (!cached || cached.type !== this.tokenType || cached.metadata.deletionTimestamp) return;
    const annotations = cached.metadata.annotations ?? {};
    const sa = await this.accountOf(namespace, annotations[this.nameKey] ?? '', annotations[this.uidKey] ?? '');
    const secrets = this.ctx.client.resource(SECRETS, namespace);
    if (!sa) {
      await this.deleteSecret(namespace, name, cached.metadata.uid);
      return;
    }
    const data = cached.data ?? {};
    const ca = Buffer.from(this.opts.rootCaPem).toString('base64');
    const needsCa = this.opts.rootCaPem !== '' && data['ca.crt'] !== ca;
    const needsNamespace = !data.namespace;
    const needsToken = !data.token;
    if (!needsCa && !needsNamespace && !needsToken && annotations[this.uidKey] === sa.metadata.uid) return;
    const secret = deepCopy(cached);
    const next = secret.data ?? {};
    if (needsCa) next['ca.crt'] = ca;
    if (needsNamespace) next.namespace = Buffer.from(namespace).toString('base64');
    if (needsToken) {
      const token = signLegacyToken(this.opts.signingKey, {
        namespace,
        serviceAccountName: sa.metadata.name!,
        serviceAccountUid: sa.metadata.uid!,
        secretName: name,
      });
      next.token = Buffer.from(token).toString('base64');
    }
    secret.data = next;
    secret.metadata.annotations = { ...annotations, [this.nameKey]: sa.metadata.name!, [this.uidKey]: sa.metadata.uid! };
    try {
      await secrets.update(secret);
    } catch (err) {
      // A newer version is on its way through the informer; it is synced then.
      if (isApiError(err, 'Conflict') || isApiError(err, 'NotFound')) return;
      throw err;
    }
  }

  private async deleteSecret(namespace: string, name: string, uid: string | undefined): Promise<void> {
    try {
      await this.ctx.client.resource(SECRETS, namespace).delete(name, uid ? { preconditions: { uid } } : {});
    } catch (err) {
      if (isApiError(err, 'NotFound') || isApiError(err, 'Conflict')) return;
      throw err;
    }
  }

  /** Deletes the token Secrets of an account that is gone (not when it was re-created with the same name and uid). */
  private async deleteTokensOf(namespace: string, name: string, uid: string): Promise<void> {
    if (await this.accountOf(namespace, name, uid)) return;
    for (const s of this.secrets.indexer.list()) {
      if (s.metadata.namespace !== namespace || s.type !== this.tokenType) continue;
      const a = s.metadata.annotations ?? {};
      if (a[this.nameKey] !== name || (a[this.uidKey] && a[this.uidKey] !== uid)) continue;
      await this.deleteSecret(namespace, s.metadata.name!, s.metadata.uid);
    }
  }

  /** Takes a deleted token Secret out of its account's `secrets` list. */
  private async dropReference(namespace: string, account: string, uid: string, secretName: string): Promise<void> {
    const sa = this.accounts.indexer.get(`${namespace}/${account}`);
    const refs = sa?.secrets ?? [];
    if (!sa || (uid && sa.metadata.uid !== uid) || !refs.some((r) => r.name === secretName)) return;
    const next = deepCopy(sa);
    next.secrets = refs.filter((r) => r.name !== secretName);
    try {
      await this.ctx.client.resource(SERVICEACCOUNTS, namespace).update(next);
    } catch (err) {
      if (!isApiError(err, 'NotFound')) throw err; // a conflict is retried with the newer account
    }
  }
}
