/**
 * Builds the dependency graph from informers on every deletable resource (Kubernetes' GraphBuilder) and
 * feeds the collector's two queues:
 *
 * - attemptToDelete gets objects whose owners may be gone (an owner was deleted, a virtual owner was
 *   just named, a reference looks wrong), owners waiting in foreground deletion whose dependents
 *   changed, and the dependents of such owners;
 * - attemptToOrphan gets objects whose deletion started with the `orphan` finalizer.
 *
 * Events are applied as the informers deliver them (one thread: no locking). "Virtual" delete events
 * come from the collector when the API server says a (virtual) node's object does not exist.
 */
import type { ApiObject } from '../../apiserver/api/object.js';
import type { OwnerReference } from '../../apiserver/api/object-meta.js';
import { jsonEqual } from '../../apiserver/api/object.js';
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER } from '../../apiserver/api/deletion.js';
import type { Logger } from '../../apiserver/component-base/logs/logger.js';
import type { ApiResourceInfo } from '../client/discovery.js';
import { gvrKey } from '../client/discovery.js';
import type { InformerFactory } from '../informers/informer-factory.js';
import type { Informer } from '../informers/informer.js';
import type { WorkQueue } from '../workqueue/work-queue.js';
import type { AbsentOwnerCache } from './absent-owner-cache.js';
import {
  alternateOwnerIdentity,
  describeIdentity,
  GraphNode,
  partitionDependents,
  referenceIdentity,
  referenceMatches,
  sameIdentity,
  type ObjectIdentity,
} from './graph.js';

/** One change to apply to the graph. */
export interface GraphEvent {
  type: 'add' | 'update' | 'delete';
  obj: ApiObject;
  oldObj?: ApiObject;
  apiVersion: string;
  kind: string;
  /** Made up by the collector, not seen by an informer. */
  virtual?: boolean;
}

export interface GraphBuilderConfig {
  informers: InformerFactory;
  attemptToDelete: WorkQueue<GraphNode>;
  attemptToOrphan: WorkQueue<GraphNode>;
  absentOwners: AbsentOwnerCache;
  logger: Logger;
}

function hasFinalizer(obj: ApiObject, f: string): boolean {
  return (obj.metadata.finalizers ?? []).includes(f);
}

function beingDeleted(obj: ApiObject): boolean {
  return !!obj.metadata.deletionTimestamp;
}

/** True when `obj` is being deleted with `finalizer` and `old` was not (or there is no `old`). */
function deletionStartsWith(old: ApiObject | undefined, obj: ApiObject, finalizer: string): boolean {
  if (!beingDeleted(obj) || !hasFinalizer(obj, finalizer)) return false;
  return !old || !beingDeleted(old) || !hasFinalizer(old, finalizer);
}

/** Owner references added, removed and changed (same uid, other fields) between two lists. */
function referencesDiff(old: OwnerReference[], cur: OwnerReference[]) {
  const byUid = new Map(old.map((r) => [r.uid, r]));
  const added: OwnerReference[] = [];
  const changed: { oldRef: OwnerReference; newRef: OwnerReference }[] = [];
  for (const ref of cur) {
    const before = byUid.get(ref.uid);
    if (!before) added.push(ref);
    else {
      if (!jsonEqual(before, ref)) changed.push({ oldRef: before, newRef: ref });
      byUid.delete(ref.uid);
    }
  }
  return { added, removed: [...byUid.values()], changed };
}

export class GraphBuilder {
  readonly uidToNode = new Map<string, GraphNode>();
  private readonly monitors = new Map<string, { resource: ApiResourceInfo; informer: Informer }>();

  constructor(private readonly config: GraphBuilderConfig) {}

  /** Watches exactly `resources`: informers for new ones start, those for resources gone are stopped. */
  async syncMonitors(resources: readonly ApiResourceInfo[]): Promise<void> {
    const wanted = new Map(resources.map((r) => [gvrKey(r), r]));
    for (const [key, monitor] of this.monitors) {
      if (wanted.has(key)) continue;
      this.monitors.delete(key);
      await this.config.informers.remove(monitor.resource);
    }
    for (const [key, resource] of wanted) {
      if (this.monitors.has(key)) continue;
      const informer = this.config.informers.forResource(resource);
      const apiVersion = resource.group ? `${resource.group}/${resource.version}` : resource.version;
      const kind = resource.kind;
      informer.addEventHandler({
        onAdd: (obj) => this.processEvent({ type: 'add', obj, apiVersion, kind }),
        onUpdate: (oldObj, obj) => this.processEvent({ type: 'update', obj, oldObj, apiVersion, kind }),
        onDelete: (obj) => this.processEvent({ type: 'delete', obj, apiVersion, kind }),
      });
      this.monitors.set(key, { resource, informer });
    }
  }

  /** The resources watched now. */
  monitoredResources(): ApiResourceInfo[] {
    return [...this.monitors.values()].map((m) => m.resource);
  }

  isSynced(): boolean {
    return [...this.monitors.values()].every((m) => m.informer.hasSynced());
  }

  /** Says the API server does not have this (virtual) node's object. */
  enqueueVirtualDeleteEvent(id: ObjectIdentity): void {
    const obj: ApiObject = {
      apiVersion: id.apiVersion,
      kind: id.kind,
      metadata: { name: id.name, uid: id.uid, namespace: id.namespace || undefined },
    };
    this.processEvent({ type: 'delete', obj, apiVersion: id.apiVersion, kind: id.kind, virtual: true });
  }

  private identityOf(ev: GraphEvent): ObjectIdentity {
    const m = ev.obj.metadata;
    return { apiVersion: ev.apiVersion, kind: ev.kind, name: m.name ?? '', uid: m.uid ?? '', namespace: m.namespace ?? '' };
  }

  private reportInvalidNamespaceOwnerRef(dep: GraphNode, ownerUid: string): void {
    const ref = dep.owners.find((o) => o.uid === ownerUid);
    if (!ref) return;
    this.config.logger.warn('OwnerRefInvalidNamespace', {
      object: describeIdentity(dep.identity),
      message: `ownerRef ${describeIdentity(referenceIdentity(ref, dep.identity.namespace))} does not exist in namespace ${JSON.stringify(dep.identity.namespace)}`,
    });
  }

  /** Applies one informer (or virtual) event. */
  processEvent(ev: GraphEvent): void {
    const { attemptToDelete, absentOwners } = this.config;
    const uid = ev.obj.metadata.uid ?? '';
    // Seen existing: a restored object (history.orch.io Restore keeps its uid) is an owner again.
    if (ev.type !== 'delete' && !ev.virtual && uid) absentOwners.forgetUid(uid);
    const existing = this.uidToNode.get(uid);
    if (existing && !ev.virtual && !existing.isObserved()) {
      const observed = this.identityOf(ev);
      if (!sameIdentity(observed, existing.identity)) {
        // Dependents that named this owner by other coordinates may have to go.
        for (const dep of partitionDependents(existing.dependents, observed).nonmatching) {
          if (observed.namespace && dep.identity.namespace !== observed.namespace) this.reportInvalidNamespaceOwnerRef(dep, uid);
          attemptToDelete.add(dep);
        }
        existing.identity = observed;
      }
      existing.virtual = false;
    }

    if (ev.type !== 'delete') {
      const owners = ev.obj.metadata.ownerReferences ?? [];
      if (!existing) {
        const node = new GraphNode(this.identityOf(ev), {
          owners,
          deletingDependents: beingDeleted(ev.obj) && hasFinalizer(ev.obj, FOREGROUND_FINALIZER),
          beingDeleted: beingDeleted(ev.obj),
        });
        this.uidToNode.set(uid, node);
        this.addDependentToOwners(node, owners);
        this.processTransitions(ev.oldObj, ev.obj, node);
        return;
      }
      if (!ev.virtual && (existing.identity.apiVersion !== ev.apiVersion || existing.identity.kind !== ev.kind)) {
        existing.identity = { ...existing.identity, apiVersion: ev.apiVersion, kind: ev.kind };
      }
      const { added, removed, changed } = referencesDiff(existing.owners, owners);
      if (added.length || removed.length || changed.length) {
        this.addUnblockedOwnersToDeleteQueue(removed, changed);
        existing.owners = owners;
        this.addDependentToOwners(existing, added);
        for (const ref of removed) this.uidToNode.get(ref.uid)?.dependents.delete(existing);
      }
      if (beingDeleted(ev.obj)) existing.beingDeleted = true;
      this.processTransitions(ev.oldObj, ev.obj, existing);
      return;
    }

    if (!existing) return;
    let removeExisting = true;
    if (ev.virtual) {
      const deleted = this.identityOf(ev);
      if (existing.virtual) {
        const { matching, nonmatching } = partitionDependents(existing.dependents, deleted);
        if (nonmatching.length > 0) {
          // Some dependents name this uid by other coordinates: keep the node for them.
          removeExisting = false;
          if (matching.length > 0) {
            absentOwners.add(deleted);
            for (const dep of matching) attemptToDelete.add(dep);
          }
          if (sameIdentity(existing.identity, deleted)) {
            const replacement = alternateOwnerIdentity(nonmatching, deleted);
            if (replacement) {
              existing.identity = replacement;
              attemptToDelete.addRateLimited(existing);
            }
          }
        }
      } else if (!sameIdentity(existing.identity, deleted)) {
        // The object exists under other coordinates; only dependents naming these ones lost their owner.
        removeExisting = false;
        const { matching } = partitionDependents(existing.dependents, deleted);
        if (matching.length > 0) {
          absentOwners.add(deleted);
          for (const dep of matching) attemptToDelete.add(dep);
        }
      }
    }
    if (!removeExisting) return;
    this.uidToNode.delete(uid);
    for (const ref of existing.owners) this.uidToNode.get(ref.uid)?.dependents.delete(existing);
    if (existing.dependents.size > 0) absentOwners.add(this.identityOf(ev));
    for (const dep of existing.dependents) attemptToDelete.add(dep);
    for (const ref of existing.owners) {
      const owner = this.uidToNode.get(ref.uid);
      if (owner?.deletingDependents) attemptToDelete.add(owner);
    }
  }

  /**
   * Links `node` to each owner, creating virtual nodes (queued for verification) for owners not in the
   * graph; queues `node` itself when a reference does not fit the owner as observed.
   */
  private addDependentToOwners(node: GraphNode, owners: OwnerReference[]): void {
    let potentiallyInvalid = false;
    for (const ref of owners) {
      let owner = this.uidToNode.get(ref.uid);
      const known = !!owner;
      if (!owner) {
        owner = new GraphNode(referenceIdentity(ref, node.identity.namespace), { virtual: true });
        this.uidToNode.set(ref.uid, owner);
      }
      owner.dependents.add(node);
      if (!known) {
        this.config.attemptToDelete.add(owner);
        continue;
      }
      if (potentiallyInvalid) continue;
      const ownerNamespaced = owner.identity.namespace !== '';
      if (ownerNamespaced && owner.identity.namespace !== node.identity.namespace) {
        if (owner.isObserved()) this.reportInvalidNamespaceOwnerRef(node, ref.uid);
        potentiallyInvalid = true;
      } else if (!referenceMatches(ref, owner.identity)) {
        potentiallyInvalid = true;
      } else if (!ownerNamespaced && owner.identity.namespace !== node.identity.namespace && !owner.isObserved()) {
        potentiallyInvalid = true;
      }
    }
    if (potentiallyInvalid) this.config.attemptToDelete.add(node);
  }

  /** Owners that a dependent stopped blocking (reference removed or blockOwnerDeletion cleared). */
  private addUnblockedOwnersToDeleteQueue(removed: OwnerReference[], changed: { oldRef: OwnerReference; newRef: OwnerReference }[]): void {
    const unblocked = [
      ...removed.filter((r) => r.blockOwnerDeletion === true),
      ...changed.filter((c) => c.oldRef.blockOwnerDeletion === true && c.newRef.blockOwnerDeletion !== true).map((c) => c.newRef),
    ];
    for (const ref of unblocked) {
      const owner = this.uidToNode.get(ref.uid);
      if (owner) this.config.attemptToDelete.add(owner);
    }
  }

  /** Starts orphaning or foreground deletion when the object's deletion just began with that finalizer. */
  private processTransitions(old: ApiObject | undefined, obj: ApiObject, node: GraphNode): void {
    if (deletionStartsWith(old, obj, ORPHAN_FINALIZER)) {
      this.config.attemptToOrphan.add(node);
      return;
    }
    if (deletionStartsWith(old, obj, FOREGROUND_FINALIZER)) {
      node.deletingDependents = true;
      for (const dep of node.dependents) this.config.attemptToDelete.add(dep);
      this.config.attemptToDelete.add(node);
    }
  }
}
