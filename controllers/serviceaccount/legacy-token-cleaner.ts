/**
 * The legacy service-account token cleaner of Kubernetes 1.28 (legacy-serviceaccount-token-cleaner,
 * off by default as its feature gate is): once the API server has tracked legacy token use for the
 * clean-up period (the `since` date in the system namespace's
 * `<short>-apiserver-legacy-service-account-token-tracking` ConfigMap), every day each auto-generated
 * token Secret — listed in its account's `secrets` — created before the period and not used within
 * it (its `<prefix>/legacy-token-last-used` label, a date) is deleted, unless a Pod references it.
 */
import type { ConfigMap, Pod, Secret, ServiceAccount } from '../../apiserver/api/generated/types.js';
import { CONFIGMAPS, PODS, SECRETS, SERVICEACCOUNTS } from '../controllerutil/resources.js';
import { isApiError } from '../../apiserver/api/status.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import { runPeriodically } from '../controllerutil/run-controller.js';
import type { Informer } from '../informers/informer.js';
import { podSecretNames } from './pod-secret-names.js';

const DAY_MS = 24 * 3_600_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface LegacyTokenCleanerOptions {
  /** --legacy-service-account-token-clean-up-period. */
  cleanUpPeriodMs: number;
  /** How often tokens are evaluated (1 day). */
  syncIntervalMs?: number;
  now?: () => Date;
}

/** The tracking ConfigMap's name: kube-apiserver-… for k8s.io, orch-apiserver-… for orch.io. */
export const trackingConfigMapName = (ctx: Pick<ControllerContext, 'domain'>) =>
  `${ctx.domain.systemNamespace.replace(/-system$/, '')}-apiserver-legacy-service-account-token-tracking`;

const day = (t: Date) => t.toISOString().slice(0, 10);

export class LegacyTokenCleaner implements Controller {
  private readonly secrets: Informer<Secret>;
  private readonly accounts: Informer<ServiceAccount>;
  private readonly pods: Informer<Pod>;
  private readonly now: () => Date;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly opts: LegacyTokenCleanerOptions,
  ) {
    this.now = opts.now ?? (() => new Date());
    this.secrets = ctx.informers.forResource(SECRETS);
    this.accounts = ctx.informers.forResource(SERVICEACCOUNTS);
    this.pods = ctx.informers.forResource(PODS);
  }

  run(signal: AbortSignal): Promise<void> {
    return runPeriodically(signal, {
      informers: [this.secrets, this.accounts, this.pods],
      periodMs: this.opts.syncIntervalMs ?? DAY_MS,
      pass: () => this.evaluate(),
      logger: this.ctx.logger,
      failure: 'evaluating legacy service account tokens',
    });
  }

  /** The first day on which use was surely tracked (the day after `since`), or undefined when tracking is off. */
  private async trackedSince(): Promise<Date | undefined> {
    let cm: ConfigMap;
    try {
      cm = await this.ctx.client.resource(CONFIGMAPS, this.ctx.domain.systemNamespace).get(trackingConfigMapName(this.ctx));
    } catch (err) {
      if (isApiError(err, 'NotFound')) return undefined;
      throw err;
    }
    const since = cm.data?.since ?? '';
    return DATE.test(since) ? new Date(Date.parse(`${since}T00:00:00Z`) + DAY_MS) : undefined;
  }

  /** One pass: deletes the tokens that qualify. */
  async evaluate(): Promise<void> {
    const now = this.now();
    const since = await this.trackedSince();
    if (!since || now.getTime() < since.getTime() + this.opts.cleanUpPeriodMs) return;
    const preserveCreatedOnOrAfter = now.getTime() - this.opts.cleanUpPeriodMs;
    const preserveUsedOnOrAfter = day(new Date(preserveCreatedOnOrAfter));
    const p = this.ctx.domain.labelPrefix;
    const mounted = new Map<string, Set<string>>();
    for (const secret of this.secrets.indexer.list()) {
      const { namespace, name, annotations, labels, creationTimestamp, deletionTimestamp, resourceVersion } = secret.metadata;
      if (secret.type !== `${p}/service-account-token` || deletionTimestamp) continue;
      if (!(Date.parse(creationTimestamp ?? '') < preserveCreatedOnOrAfter)) continue;
      const lastUsed = labels?.[`${p}/legacy-token-last-used`];
      if (lastUsed !== undefined && (!DATE.test(lastUsed) || lastUsed >= preserveUsedOnOrAfter)) continue;
      const sa = this.accounts.indexer.get(`${namespace}/${annotations?.[`${p}/service-account.name`] ?? ''}`);
      const uid = annotations?.[`${p}/service-account.uid`];
      if (!sa || (uid && sa.metadata.uid !== uid)) continue;
      if (!(sa.secrets ?? []).some((r) => r.name === name)) continue; // not auto-generated
      if (!mounted.has(namespace!)) {
        const used = new Set<string>();
        for (const pod of this.pods.indexer.list())
          if (pod.metadata.namespace === namespace) for (const n of podSecretNames(pod)) used.add(n);
        mounted.set(namespace!, used);
      }
      if (mounted.get(namespace!)!.has(name!)) continue;
      try {
        await this.ctx.client
          .resource({ group: '', version: 'v1', resource: 'secrets' }, namespace)
          .delete(name!, { preconditions: { resourceVersion } });
        this.ctx.logger.info('deleted auto-generated service account token', { secret: `${namespace}/${name}`, lastUsed });
      } catch (err) {
        if (!isApiError(err, 'NotFound') && !isApiError(err, 'Conflict')) throw err;
      }
    }
  }
}
