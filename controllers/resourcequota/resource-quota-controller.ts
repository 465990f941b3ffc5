/**
 * The ResourceQuota controller: keeps every quota's `status.hard` (its spec) and `status.used` (for
 * each resource it limits) in step with the namespace's objects — recomputed when a quota changes,
 * when an object it counts changes, and every 5 minutes. Admission relies on `used` being current.
 */
import type { ApiObject } from '../../apiserver/api/object.js';
import { deepCopy, jsonEqual } from '../../apiserver/api/object.js';
import { isApiError } from '../../apiserver/api/status.js';
import type { Controller, ControllerContext } from '../app/controller-context.js';
import type { GroupVersionResource } from '../client/api-client.js';
import type { Informer } from '../informers/informer.js';
import { NAMESPACE_INDEX, objectKey } from '../informers/indexer.js';
import type { SyncResult } from '../workqueue/run-workers.js';
import { runQueueWorkers } from '../controllerutil/run-controller.js';
import type { WorkQueue } from '../workqueue/work-queue.js';
import { PODS } from '../controllerutil/pod-control.js';
import { claimUsage, podUsage, type QuotaScopes, type ResourceList, serviceUsage, toJson } from './quota-usage.js';

const QUOTAS = { group: '', version: 'v1', resource: 'resourcequotas' };
const RESYNC_MS = 5 * 60_000;

/** The kinds whose objects `count/<resource>[.<group>]` can count, by that name. */
function countedKinds(ctx: ControllerContext): Record<string, GroupVersionResource> {
  return {
    configmaps: { group: '', version: 'v1', resource: 'configmaps' },
    secrets: { group: '', version: 'v1', resource: 'secrets' },
    resourcequotas: QUOTAS,
    'deployments.apps': { group: 'apps', version: 'v1', resource: 'deployments' },
    'replicasets.apps': { group: 'apps', version: 'v1', resource: 'replicasets' },
    'statefulsets.apps': { group: 'apps', version: 'v1', resource: 'statefulsets' },
    'daemonsets.apps': { group: 'apps', version: 'v1', resource: 'daemonsets' },
    'jobs.batch': { group: 'batch', version: 'v1', resource: 'jobs' },
    'cronjobs.batch': { group: 'batch', version: 'v1', resource: 'cronjobs' },
    [`ingresses.networking.${ctx.domain.domain}`]: { group: ctx.domain.group('networking.k8s.io'), version: 'v1', resource: 'ingresses' },
  };
}

export class ResourceQuotaController implements Controller {
  readonly quotas: Informer;
  readonly pods: Informer;
  readonly services: Informer;
  readonly claims: Informer;
  readonly counted: Map<string, Informer>;
  readonly queue: WorkQueue<string>;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly opts: { workers?: number } = {},
  ) {
    this.queue = ctx.newQueue('resourcequota_primary');
    this.quotas = ctx.informers.forResource(QUOTAS);
    this.pods = ctx.informers.forResource(PODS);
    this.services = ctx.informers.forResource({ group: '', version: 'v1', resource: 'services' });
    this.claims = ctx.informers.forResource({ group: '', version: 'v1', resource: 'persistentvolumeclaims' });
    this.counted = new Map(Object.entries(countedKinds(ctx)).map(([name, gvr]) => [name, ctx.informers.forResource(gvr)]));
    this.quotas.addEventHandler({
      onAdd: (q) => this.queue.add(objectKey(q)),
      onUpdate: (old, q) => {
        if (!jsonEqual(old.spec, q.spec) || !jsonEqual(old.status, q.status)) this.queue.add(objectKey(q));
      },
    });
    const touched = (obj: ApiObject) => {
      for (const q of this.quotas.indexer.byIndex(NAMESPACE_INDEX, obj.metadata.namespace ?? '')) this.queue.add(objectKey(q));
    };
    const watch = { onAdd: touched, onUpdate: (_o: ApiObject, n: ApiObject) => touched(n), onDelete: touched };
    for (const i of new Set([this.pods, this.services, this.claims, ...this.counted.values()]))
      if (i !== this.quotas) i.addEventHandler(watch);
  }

  run(signal: AbortSignal): Promise<void> {
    return runQueueWorkers(signal, {
      queue: this.queue,
      informers: new Set([this.quotas, this.pods, this.services, this.claims, ...this.counted.values()]),
      workers: this.opts.workers ?? 5,
      sync: (key) => this.sync(key),
      logger: this.ctx.logger,
      failure: 'syncing a ResourceQuota',
      itemField: 'quota',
    });
  }

  /** What the namespace uses, for the resources of one quota. */
  usage(quota: ApiObject): ResourceList {
    const ns = quota.metadata.namespace ?? '';
    const spec = (quota.spec ?? {}) as QuotaScopes & { hard?: Record<string, unknown> };
    const inNs = (i: Informer) => i.indexer.byIndex(NAMESPACE_INDEX, ns);
    const used: ResourceList = new Map([
      ...podUsage(inNs(this.pods), spec),
      ...serviceUsage(inNs(this.services)),
      ...claimUsage(inNs(this.claims), this.ctx.domain.group('storage.k8s.io')),
    ]);
    for (const [name, informer] of this.counted) {
      const n = BigInt(inNs(informer).length);
      used.set(`count/${name}`, { unscaled: n, scale: 0, format: 'DecimalSI' });
      if (!name.includes('.')) used.set(name, { unscaled: n, scale: 0, format: 'DecimalSI' });
    }
    return used;
  }

  async sync(key: string): Promise<SyncResult | undefined> {
    const quota = this.quotas.indexer.get(key);
    if (!quota) return undefined;
    const hard = ((quota.spec as { hard?: Record<string, string> } | undefined)?.hard ?? {}) as Record<string, string>;
    const used = toJson(this.usage(quota), Object.keys(hard));
    const status = { hard: { ...hard }, used };
    if (!jsonEqual(status, quota.status ?? {})) {
      const next = deepCopy(quota);
      next.status = status;
      try {
        await this.ctx.client.resource(QUOTAS, quota.metadata.namespace).update(next, 'status');
      } catch (err) {
        if (!isApiError(err, 'NotFound')) throw err;
      }
    }
    return { requeueAfterMs: RESYNC_MS };
  }
}
