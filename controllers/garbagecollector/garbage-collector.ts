/**
 * The garbage collector (Kubernetes' GarbageCollector): deletes objects all of whose owners are gone,
 * and carries out the deletion policies the API server recorded as finalizers.
 *
 * - attemptToDelete: an object with at least one live owner keeps living (references to owners that
 *   are gone, or that wait in foreground deletion, are removed from it); one without is deleted —
 *   in the foreground when an owner is waiting for it and it has dependents itself, else with the
 *   policy its own finalizers ask for (orphan, foreground) or in the background. An owner waiting in
 *   foreground deletion loses its `foregroundDeletion` finalizer once no dependent blocks it.
 * - attemptToOrphan: an owner deleted with the `orphan` finalizer has its reference removed from all
 *   its dependents, then loses the finalizer.
 *
 * Owners are looked up live (an owner known absent is remembered), across namespaces only for
 * cluster-scoped owners. Discovery is read again every sync period, so new resources are watched.
 */
import type { ApiObject } from '../../apiserver/api/object.js';
import type { OwnerReference } from '../../apiserver/api/object-meta.js';
import { jsonEqual } from '../../apiserver/api/object.js';
import { isApiError } from '../../apiserver/api/status.js';
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER, type PropagationPolicy } from '../../apiserver/api/deletion.js';
import type { ResourceClient } from '../client/api-client.js';
import { gvrKey, preferredResourcesWith, RestMapper, type ApiResourceInfo } from '../client/discovery.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import { sleep } from '../informers/backoff.js';
import { runWorkers, type SyncResult } from '../workqueue/run-workers.js';
import type { WorkQueue } from '../workqueue/work-queue.js';
import { AbsentOwnerCache } from './absent-owner-cache.js';
import { GraphBuilder } from './graph-builder.js';
import { describeIdentity, type GraphNode, referenceIdentity, type ObjectIdentity } from './graph.js';
import { messageOf } from '../../apiserver/api/thrown.js';

export interface GarbageCollectorOptions {
  /** Workers per queue (--concurrent-gc-syncs, 20). */
  workers?: number;
  /** How often discovery is read again for new or removed resources (30s). */
  syncPeriodMs?: number;
}

/** The item is gone; the graph was told, nothing to retry. */
class VirtualDeleteEnqueued extends Error {}
/** A cluster-scoped object names a namespaced owner: retrying will not help. */
class NamespacedOwnerOfClusterScopedObject extends Error {}
/** apiVersion/kind that discovery does not know (yet): retried. */
class RestMappingError extends Error {}

/** How many times a finalizer or reference update is tried again after a 409. */
const CONFLICT_RETRIES = 5;

export class GarbageCollector implements Controller {
  readonly graph: GraphBuilder;
  private readonly attemptToDelete: WorkQueue<GraphNode>;
  private readonly attemptToOrphan: WorkQueue<GraphNode>;
  private readonly absentOwners = new AbsentOwnerCache();
  private mapper = new RestMapper([]);
  private readonly ignored: Set<string>;
  private readonly workers: number;
  private readonly syncPeriodMs: number;

  constructor(
    private readonly ctx: ControllerContext,
    opts: GarbageCollectorOptions = {},
  ) {
    this.workers = opts.workers ?? 20;
    this.syncPeriodMs = opts.syncPeriodMs ?? 30_000;
    this.attemptToDelete = ctx.newQueue('garbage_collector_attempt_to_delete');
    this.attemptToOrphan = ctx.newQueue('garbage_collector_attempt_to_orphan');
    this.graph = new GraphBuilder({
      informers: ctx.informers,
      attemptToDelete: this.attemptToDelete,
      attemptToOrphan: this.attemptToOrphan,
      absentOwners: this.absentOwners,
      logger: ctx.logger,
    });
    // Events are not garbage collected (Kubernetes' default ignored resources).
    this.ignored = new Set([`events.v1.`, `events.v1.${ctx.domain.group('events.k8s.io')}`]);
  }

  async run(signal: AbortSignal): Promise<void> {
    signal.addEventListener(
      'abort',
      () => {
        this.attemptToDelete.shutDown();
        this.attemptToOrphan.shutDown();
      },
      { once: true },
    );
    while (!signal.aborted && !(await this.resync())) await sleep(1000, signal);
    while (!signal.aborted && !this.graph.isSynced()) await sleep(50, signal);
    if (signal.aborted) return;
    this.ctx.logger.info('garbage collector: all resource monitors have synced', { resources: this.graph.monitoredResources().length });
    const log = (what: string) => (node: GraphNode, err: unknown) =>
      this.ctx.logger.warn(`garbage collector: ${what} failed`, { item: describeIdentity(node.identity), error: messageOf(err) });
    const periodic = (async () => {
      while (!signal.aborted) {
        await sleep(this.syncPeriodMs, signal);
        if (!signal.aborted) await this.resync();
      }
    })();
    await Promise.all([
      runWorkers(this.attemptToDelete, this.workers, (n) => this.attemptToDeleteWorker(n), log('attemptToDelete')),
      runWorkers(this.attemptToOrphan, this.workers, (n) => this.attemptToOrphanWorker(n), log('attemptToOrphan')),
      periodic,
    ]);
  }

  /** Reads discovery and watches what can be deleted, listed and watched; false if discovery failed. */
  private async resync(): Promise<boolean> {
    let found;
    try {
      found = await this.ctx.discover();
    } catch (err) {
      this.ctx.logger.warn('garbage collector: discovery failed', { error: messageOf(err) });
      return false;
    }
    if (found.failed.size) this.ctx.logger.warn('garbage collector: failed to discover some groups', { groups: [...found.failed.keys()] });
    this.mapper = new RestMapper(found.resources);
    const deletable = preferredResourcesWith(found, ['delete', 'list', 'watch']).filter((r) => !this.ignored.has(gvrKey(r)));
    await this.graph.syncMonitors(deletable);
    return true;
  }

  private resourceOf(apiVersion: string, kind: string): ApiResourceInfo {
    const r = this.mapper.resourceFor(apiVersion, kind);
    if (!r) throw new RestMappingError(`unable to map ${apiVersion}, Kind=${kind} to a resource`);
    return r;
  }

  /** The client for an object of this identity (its namespace only when the resource is namespaced). */
  private clientFor(id: ObjectIdentity): ResourceClient {
    const r = this.resourceOf(id.apiVersion, id.kind);
    return this.ctx.client.resource(r, r.namespaced ? id.namespace : '');
  }

  /** The live object, or null when it does not exist with this uid. */
  private async getLive(id: ObjectIdentity): Promise<ApiObject | null> {
    try {
      const obj = await this.clientFor(id).get(id.name);
      return obj.metadata.uid === id.uid ? obj : null;
    } catch (err) {
      if (isApiError(err, 'NotFound')) return null;
      throw err;
    }
  }

  private async attemptToDeleteWorker(n: GraphNode): Promise<SyncResult | undefined> {
    if (!n.isObserved()) {
      const inGraph = this.graph.uidToNode.get(n.identity.uid);
      if (!inGraph || inGraph.isObserved()) return;
    }
    try {
      await this.attemptToDeleteItem(n);
    } catch (err) {
      if (err instanceof VirtualDeleteEnqueued || err instanceof NamespacedOwnerOfClusterScopedObject) return;
      throw err;
    }
    // A virtual node stays queued until an informer shows its object (or it is found absent).
    if (!n.isObserved()) return { requeueRateLimited: true };
  }

  /** The item is gone: tell the graph, and stop. */
  private virtualDelete(id: ObjectIdentity): never {
    this.graph.enqueueVirtualDeleteEvent(id);
    throw new VirtualDeleteEnqueued();
  }

  private async attemptToDeleteItem(item: GraphNode): Promise<void> {
    if (item.beingDeleted && !item.deletingDependents) return;
    const latest = await this.getLive(item.identity);
    if (!latest) this.virtualDelete(item.identity);
    if (item.deletingDependents) return this.processDeletingDependents(item);
    const refs = latest.metadata.ownerReferences ?? [];
    if (refs.length === 0) return;
    const { solid, dangling, waiting } = await this.classifyReferences(item, refs);
    if (solid.length > 0) {
      if (dangling.length === 0 && waiting.length === 0) return;
      const gone = new Set([...dangling, ...waiting].map((r) => r.uid));
      await this.updateOwnerReferences(item, (owners) => owners.filter((o) => !gone.has(o.uid)));
      return;
    }
    let policy: PropagationPolicy;
    if (waiting.length > 0 && item.dependents.size > 0) {
      if ([...item.dependents].some((d) => d.deletingDependents)) {
        // A cycle is possible: stop blocking the owners, then delete in the foreground.
        await this.updateOwnerReferences(item, (owners) =>
          owners.map((o) => (o.blockOwnerDeletion === undefined ? o : { ...o, blockOwnerDeletion: false })),
        );
      }
      policy = 'Foreground';
    } else if ((latest.metadata.finalizers ?? []).includes(ORPHAN_FINALIZER)) policy = 'Orphan';
    else if ((latest.metadata.finalizers ?? []).includes(FOREGROUND_FINALIZER)) policy = 'Foreground';
    else policy = 'Background';
    this.ctx.logger.verbose('garbage collector: deleting item', { item: describeIdentity(item.identity), propagationPolicy: policy });
    if (!(await this.deleteObject(item.identity, latest, policy))) this.virtualDelete(item.identity);
  }

  /** A foreground-deleting owner: drop the finalizer when nothing blocks it, else push its blockers. */
  private async processDeletingDependents(item: GraphNode): Promise<void> {
    const blocking = item.blockingDependents();
    if (blocking.length === 0) return this.removeFinalizer(item, FOREGROUND_FINALIZER);
    for (const dep of blocking) if (!dep.deletingDependents) this.attemptToDelete.add(dep);
  }

  /** Owners that exist (solid), are gone (dangling), or exist but wait for their dependents (waiting). */
  private async classifyReferences(item: GraphNode, refs: OwnerReference[]) {
    const solid: OwnerReference[] = [];
    const dangling: OwnerReference[] = [];
    const waiting: OwnerReference[] = [];
    for (const ref of refs) {
      const owner = await this.liveOwner(ref, item);
      if (!owner) dangling.push(ref);
      else if (owner.metadata.deletionTimestamp && (owner.metadata.finalizers ?? []).includes(FOREGROUND_FINALIZER)) waiting.push(ref);
      else solid.push(ref);
    }
    return { solid, dangling, waiting };
  }

  /** The owner a reference names, or null when it is absent (by name, or by uid). */
  private async liveOwner(ref: OwnerReference, item: GraphNode): Promise<ApiObject | null> {
    const clusterKey = referenceIdentity(ref, '');
    const namespacedKey = referenceIdentity(ref, item.identity.namespace);
    if (this.absentOwners.has(clusterKey) || this.absentOwners.has(namespacedKey)) return null;
    const r = this.resourceOf(ref.apiVersion, ref.kind);
    if (item.identity.namespace === '' && r.namespaced) {
      this.ctx.logger.verbose('garbage collector: item is cluster-scoped, but refers to a namespaced owner', {
        item: describeIdentity(item.identity),
        owner: ref.name,
      });
      throw new NamespacedOwnerOfClusterScopedObject('cluster-scoped objects cannot refer to namespaced owners');
    }
    const key = r.namespaced ? namespacedKey : clusterKey;
    let owner: ApiObject;
    try {
      owner = await this.ctx.client.resource(r, r.namespaced ? item.identity.namespace : '').get(ref.name);
    } catch (err) {
      if (!isApiError(err, 'NotFound')) throw err;
      this.absentOwners.add(key);
      return null;
    }
    if (owner.metadata.uid !== ref.uid) {
      this.absentOwners.add(key);
      return null;
    }
    return owner;
  }

  /**
   * DELETE with uid and resourceVersion preconditions; if only the resourceVersion moved on and the
   * owner references did not change, once more without it. False when the object is gone.
   */
  private async deleteObject(id: ObjectIdentity, latest: ApiObject, policy: PropagationPolicy): Promise<boolean> {
    const client = this.clientFor(id);
    const rv = latest.metadata.resourceVersion;
    try {
      await client.delete(id.name, { propagationPolicy: policy, preconditions: { uid: id.uid, resourceVersion: rv } });
      return true;
    } catch (err) {
      if (isApiError(err, 'NotFound')) return false;
      if (!isApiError(err, 'Conflict') || !rv) throw err;
    }
    const live = await this.getLive(id);
    if (!live) return true;
    if (live.metadata.resourceVersion === rv || !jsonEqual(live.metadata.ownerReferences ?? [], latest.metadata.ownerReferences ?? [])) {
      throw new Error(`owner references of ${describeIdentity(id)} changed; it will be looked at again`);
    }
    try {
      await client.delete(id.name, { propagationPolicy: policy, preconditions: { uid: id.uid } });
    } catch (err) {
      if (!isApiError(err, 'NotFound')) throw err;
    }
    return true;
  }

  /**
   * Rewrites the item's owner references with a merge patch on the resourceVersion read (re-read and
   * retried after a 409); nothing happens when the item is gone.
   */
  private async updateOwnerReferences(item: GraphNode, change: (owners: OwnerReference[]) => OwnerReference[]): Promise<void> {
    await this.patchMetadata(item, (obj) => {
      const before = obj.metadata.ownerReferences ?? [];
      const after = change(before);
      return jsonEqual(before, after) ? undefined : { ownerReferences: after.length ? after : null };
    });
  }

  /** Removes one finalizer from the live object (merge patch, retried after a 409). */
  private async removeFinalizer(item: GraphNode, finalizer: string): Promise<void> {
    await this.patchMetadata(item, (obj) => {
      const before = obj.metadata.finalizers ?? [];
      if (!before.includes(finalizer)) return undefined;
      const after = before.filter((f) => f !== finalizer);
      return { finalizers: after.length ? after : null };
    });
  }

  /** GET, compute a metadata patch (undefined = nothing to do), PATCH with the resourceVersion read. */
  private async patchMetadata(item: GraphNode, compute: (obj: ApiObject) => Record<string, unknown> | undefined): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const obj = await this.getLive(item.identity);
      if (!obj) return;
      const patch = compute(obj);
      if (!patch) return;
      try {
        await this.clientFor(item.identity).patch(item.identity.name, {
          metadata: { resourceVersion: obj.metadata.resourceVersion, ...patch },
        });
        return;
      } catch (err) {
        if (isApiError(err, 'NotFound')) return;
        if (!isApiError(err, 'Conflict') || attempt >= CONFLICT_RETRIES) throw err;
      }
    }
  }

  /** Removes the owner's reference from every dependent, then its `orphan` finalizer. */
  private async attemptToOrphanWorker(owner: GraphNode): Promise<void> {
    const failures: string[] = [];
    await Promise.all(
      [...owner.dependents].map(async (dep) => {
        try {
          await this.updateOwnerReferences(dep, (owners) => owners.filter((o) => o.uid !== owner.identity.uid));
        } catch (err) {
          failures.push(`orphaning ${describeIdentity(dep.identity)} failed, ${messageOf(err)}`);
        }
      }),
    );
    if (failures.length)
      throw new Error(`failed to orphan dependents of owner ${describeIdentity(owner.identity)}, got errors: ${failures.join(', ')}`);
    await this.removeFinalizer(owner, ORPHAN_FINALIZER);
  }
}
