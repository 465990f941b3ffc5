/**
 * The ResourceQuota controller: keeps every quota's `status.hard` (its spec) and `status.used` (for
 * each resource it limits) in step with the namespace's objects — recomputed when a quota changes,
 * when an object it counts changes, and every 5 minutes. Admission relies on `used` being current.
 *
 * `used` is what the namespace's objects use plus the quota's reservations (api/quota-reservations.ts)
 * of writes admission charged that are not among those objects (yet): a charge comes before its
 * object is stored, so the objects alone undercount a namespace while creates are in flight, and a
 * quota whose `used` was lowered that way admits more than its hard limit. The informers only tell
 * whether there is something to write; what is written is counted from consistent reads — the quota
 * first, then the objects, listed after it, so every object stored before the quota's last settled
 * reservation is among them — and written by compare-and-swap on that quota's resourceVersion, so no
 * charge, refund or settle can come in between.
 *
 * `count/<resource>[.<group>]` counts any resource's objects (Kubernetes' generic object-count
 * evaluator): a resource outside the fixed informers is found by discovery and gets a shared informer
 * of its own, listed in the same consistent read. A name that no served resource answers to (an
 * unknown group or resource, discovery failing) keeps the used value the quota has — charges
 * admission made stay counted — rather than a 0 that would let the quota admit past its hard limit.
 */
import type { ResourceQuota } from '../../apiserver/api/generated/types.js';
import { type ApiObject, asApiObject, deepCopy, jsonEqual } from '../../apiserver/api/object.js';
import { isApiError } from '../../apiserver/api/status.js';
import {
  type QuotaReservations,
  RESERVATION_TTL_MS,
  reservationsAnnotation,
  reservationsOf,
  setReservations,
} from '../../apiserver/api/quota-reservations.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import type { GroupVersionResource } from '../client/api-client.js';
import type { EventHandler, Informer } from '../informers/informer.js';
import { NAMESPACE_INDEX, objectKey } from '../informers/indexer.js';
import type { SyncResult } from '../workqueue/run-workers.js';
import { runQueueWorkers } from '../controllerutil/run-controller.js';
import type { WorkQueue } from '../workqueue/work-queue.js';
import { PODS, RESOURCEQUOTAS } from '../controllerutil/resources.js';
import { addQuantities, claimUsage, podUsage, type ResourceList, serviceUsage, toJson } from './quota-usage.js';
import { quantityFrom, ZERO_QUANTITY } from '../../apiserver/api/quantity.js';
import { countedResource } from '../../apiserver/api/quota-usage.js';
import type { DiscoveryResult } from '../client/discovery.js';

/** Untyped: usage is counted over the informers of many kinds alike. */
const UNTYPED_PODS: GroupVersionResource = PODS;

/** An informer of any kind, as far as the controller keeps sets of them. */
type AnyInformer = Pick<Informer, 'hasSynced' | 'waitForSync'>;

const RESYNC_MS = 5 * 60_000;
/** How long a discovery is used, and how soon a name it did not know asks again. */
const DISCOVERY_TTL_MS = 30_000;
const DISCOVERY_RETRY_MS = 2_000;

/** The objects a quota's resources count: the informers to list, and which one each count name counts. */
export interface QuotaSources {
  informers: Set<Informer>;
  /** count name → the informer of the resource it counts (those outside pods, services and claims). */
  counts: Map<string, Informer>;
  /** Count names no served resource answers to: their used value is kept. */
  unresolved: string[];
}

/** The namespace's objects of one informer's resource. */
type ObjectsOf = (informer: Informer) => ApiObject[];

/** The kinds whose objects `count/<resource>[.<group>]` can count, by that name. */
function countedKinds(ctx: ControllerContext): Record<string, GroupVersionResource> {
  return {
    configmaps: { group: '', version: 'v1', resource: 'configmaps' },
    secrets: { group: '', version: 'v1', resource: 'secrets' },
    replicationcontrollers: { group: '', version: 'v1', resource: 'replicationcontrollers' },
    resourcequotas: RESOURCEQUOTAS,
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
  readonly quotas: Informer<ResourceQuota>;
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
    this.quotas = ctx.informers.forResource(RESOURCEQUOTAS);
    this.pods = ctx.informers.forResource(UNTYPED_PODS);
    this.services = ctx.informers.forResource({ group: '', version: 'v1', resource: 'services' });
    this.claims = ctx.informers.forResource({ group: '', version: 'v1', resource: 'persistentvolumeclaims' });
    this.counted = new Map(Object.entries(countedKinds(ctx)).map(([name, gvr]) => [name, ctx.informers.forResource(gvr)]));
    this.quotas.addEventHandler({
      onAdd: (q) => this.queue.add(objectKey(q)),
      onUpdate: (old, q) => {
        // A settled reservation changes only the annotation: an update's growth was counted twice
        // (the stored claim and its reservation) by a recount in between.
        const reservations = (o: ResourceQuota) => o.metadata.annotations?.[reservationsAnnotation(ctx.domain)];
        if (!jsonEqual(old.spec, q.spec) || !jsonEqual(old.status, q.status) || reservations(old) !== reservations(q))
          this.queue.add(objectKey(q));
      },
    });
    const touched = (obj: ApiObject) => {
      for (const q of this.quotas.indexer.byIndex(NAMESPACE_INDEX, obj.metadata.namespace ?? '')) this.queue.add(objectKey(q));
    };
    this.watch = { onAdd: touched, onUpdate: (_o, n) => touched(n), onDelete: touched };
    const counting = [this.pods, this.services, this.claims, ...this.counted.values()];
    // The quotas' own informer (also the one `count/resourcequotas` counts) requeues through its handler above.
    this.watching.add(this.quotas);
    this.fixed = new Set<AnyInformer>([this.quotas, ...counting]);
    for (const i of counting) this.watched(i);
  }

  private readonly watch: EventHandler;
  /** The informers that recount on a change, and the quotas' own, which must not. */
  private readonly watching = new WeakSet<AnyInformer>();
  /** The informers made at start, which the workers wait for. */
  private readonly fixed: Set<AnyInformer>;
  private discovery?: { at: number; result?: DiscoveryResult; error?: unknown };

  /** Recounts a namespace's quotas when an object of the informer changes (once per informer). */
  private watched(i: Informer): Informer {
    if (!this.watching.has(i)) {
      this.watching.add(i);
      i.addEventHandler(this.watch);
    }
    return i;
  }

  /** Discovery, read again when older than its TTL or (for a name it did not know) than the retry interval. */
  private async discovered(stale: number): Promise<DiscoveryResult | undefined> {
    const now = Date.now();
    if (!this.discovery || now - this.discovery.at > stale) {
      try {
        this.discovery = { at: now, result: await this.ctx.discover() };
      } catch (error) {
        this.discovery = { at: now, error };
      }
    }
    return this.discovery.result;
  }

  /** The informer of the namespaced, listable resource a count name counts; undefined when none is served. */
  private async resolve(name: string): Promise<Informer | undefined> {
    const fixed = this.counted.get(name.startsWith('count/') ? name.slice('count/'.length) : name);
    if (fixed) return fixed;
    const wanted = countedResource(name);
    if (!wanted) return undefined;
    const find = (d: DiscoveryResult | undefined) =>
      d?.resources.find(
        (r) =>
          r.preferred &&
          r.namespaced &&
          r.group === wanted.group &&
          r.resource === wanted.resource &&
          r.verbs.includes('list') &&
          r.verbs.includes('watch'),
      );
    const found = find(await this.discovered(DISCOVERY_TTL_MS)) ?? find(await this.discovered(DISCOVERY_RETRY_MS));
    if (!found) {
      this.ctx.logger.verbose('resourcequota: no served resource counts this quota name; its used value is kept', {
        name,
        ...(this.discovery?.error ? { error: String(this.discovery.error) } : {}),
      });
      return undefined;
    }
    return this.watched(this.ctx.informers.forResource({ group: found.group, version: found.version, resource: found.resource }));
  }

  run(signal: AbortSignal): Promise<void> {
    return runQueueWorkers(signal, this, {
      informers: new Set([this.quotas, this.pods, this.services, this.claims, ...this.counted.values()]),
      workers: this.opts.workers ?? 5,
      logger: this.ctx.logger,
      failure: 'syncing a ResourceQuota',
      itemField: 'quota',
    });
  }

  /** What the namespace's objects use, for the resources of one quota. */
  usage(
    quota: ResourceQuota,
    objectsOf: ObjectsOf = this.cached(quota.metadata.namespace ?? ''),
    counts: Map<string, Informer> = this.fixedCounts(),
  ): ResourceList {
    const spec = quota.spec ?? {};
    const used: ResourceList = new Map([
      ...podUsage(objectsOf(this.pods), spec),
      ...serviceUsage(objectsOf(this.services)),
      ...claimUsage(objectsOf(this.claims), this.ctx.domain.group('storage.k8s.io')),
    ]);
    for (const [name, informer] of counts) used.set(name, { unscaled: BigInt(objectsOf(informer).length), scale: 0, format: 'DecimalSI' });
    return used;
  }

  /** The count names of the fixed informers (`count/configmaps`, `configmaps`, `count/jobs.batch`…). */
  private fixedCounts(): Map<string, Informer> {
    const out = new Map<string, Informer>();
    for (const [name, informer] of this.counted) {
      out.set(`count/${name}`, informer);
      if (!name.includes('.')) out.set(name, informer);
    }
    return out;
  }

  private cached(ns: string): ObjectsOf {
    return (i) => i.indexer.byIndex(NAMESPACE_INDEX, ns);
  }

  /** The objects a quota's resources count (a name it does not know otherwise: the pods'). */
  async sources(hard: Record<string, string>): Promise<QuotaSources> {
    const out: QuotaSources = { informers: new Set(), counts: new Map(), unresolved: [] };
    for (const key of Object.keys(hard)) {
      const name = key.startsWith('count/') ? key.slice('count/'.length) : key;
      if (name === 'pods') out.informers.add(this.pods);
      else if (name === 'services' || key.startsWith('services.')) out.informers.add(this.services);
      else if (name === 'persistentvolumeclaims' || key === 'requests.storage' || key.includes('.storageclass.'))
        out.informers.add(this.claims);
      else if (countedResource(key)) {
        const informer = await this.resolve(key);
        if (informer) {
          out.informers.add(informer);
          out.counts.set(key, informer);
        } else out.unresolved.push(key);
      } else out.informers.add(this.pods);
    }
    return out;
  }

  /**
   * The status and reservations a quota should have, given the namespace's objects: the objects'
   * usage plus every live reservation of an object not among them; reservations of objects found
   * (and expired ones) are dropped. `write`: whether that differs from what the quota has.
   */
  desired(quota: ResourceQuota, objectsOf: ObjectsOf, sources: QuotaSources, now = Date.now()) {
    const key = reservationsAnnotation(this.ctx.domain);
    const hard = quota.spec?.hard ?? {};
    const used = this.usage(quota, objectsOf, sources.counts);
    const found = new Set<string>();
    for (const i of sources.informers) for (const o of objectsOf(i)) if (o.metadata.uid) found.add(o.metadata.uid);
    const held = reservationsOf(asApiObject(quota), key);
    const kept: QuotaReservations = {};
    let expired = false;
    for (const [id, r] of Object.entries(held)) {
      if (now - r.at > RESERVATION_TTL_MS) expired = true;
      else if (r.update || !found.has(r.uid)) {
        kept[id] = r;
        for (const [k, v] of Object.entries(r.used)) {
          let q = ZERO_QUANTITY;
          try {
            q = quantityFrom(v);
          } catch {
            // Admission wrote it; anything else counts as nothing.
          }
          used.set(k, addQuantities(used.get(k) ?? ZERO_QUANTITY, q));
        }
      }
    }
    const status = { hard: { ...hard }, used: toJson(used, Object.keys(hard)) };
    // Nothing counted them: what admission charged stays (reservations included).
    const had = quota.status?.used ?? {};
    for (const k of sources.unresolved) status.used[k] = had[k] ?? '0';
    const next = deepCopy(quota);
    next.status = status;
    setReservations(asApiObject(next), key, kept);
    return { next, write: expired || !jsonEqual(status, quota.status ?? {}) };
  }

  async sync(key: string): Promise<SyncResult | undefined> {
    const cached = this.quotas.indexer.get(key);
    if (!cached) return undefined;
    const hard = cached.spec?.hard ?? {};
    const sources = await this.sources(hard);
    const ns = cached.metadata.namespace ?? '';
    // The caches only say whether to look: they may lag the quota (a charge whose object they have
    // not seen yet) or the objects; an informer just made for a resource has not listed it yet.
    const fresh = [...sources.informers].some((i) => !this.fixed.has(i) && !i.hasSynced());
    if (!fresh && !this.desired(cached, this.cached(ns), sources).write) return { requeueAfterMs: RESYNC_MS };
    try {
      // A list, not a get: the controller's role lists and watches, as Kubernetes' does.
      const name = cached.metadata.name!;
      const quotas = await this.ctx.client.resource(RESOURCEQUOTAS, ns).list({ fieldSelector: `metadata.name=${name}` });
      const quota = quotas.items.find((q) => q.metadata.name === name);
      if (!quota) return undefined;
      const listed = new Map<Informer, ApiObject[]>();
      for (const i of sources.informers) listed.set(i, (await this.ctx.client.resource(i.resource.gvr, ns).listAll()).items);
      const { next, write } = this.desired(quota, (i) => listed.get(i) ?? [], sources);
      if (write) await this.ctx.client.resource(RESOURCEQUOTAS, ns).update(next, 'status');
    } catch (err) {
      if (isApiError(err, 'NotFound')) return undefined;
      // A charge, refund or settle came in between: count again.
      if (isApiError(err, 'Conflict')) return { requeueRateLimited: true };
      throw err;
    }
    return { requeueAfterMs: RESYNC_MS };
  }
}
