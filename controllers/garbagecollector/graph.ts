/**
 * The garbage collector's dependency graph: one node per object uid, with the object's owner
 * references and the nodes that name it as their owner. A node is "virtual" until an informer has
 * shown the object itself: owners named by some dependent enter the graph that way.
 */
import type { OwnerReference } from '../../apiserver/api/object-meta.js';

/** An object's coordinates (Kubernetes' objectReference: owner-reference fields plus namespace). */
export interface ObjectIdentity {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  /** '' for cluster-scoped objects (or a virtual owner whose scope is not known yet). */
  namespace: string;
}

export function identityKey(id: ObjectIdentity): string {
  return `${id.apiVersion}|${id.kind}|${id.namespace}|${id.name}|${id.uid}`;
}

export function sameIdentity(a: ObjectIdentity, b: ObjectIdentity): boolean {
  return identityKey(a) === identityKey(b);
}

export function describeIdentity(id: ObjectIdentity): string {
  return `[${id.apiVersion}/${id.kind}, namespace: ${id.namespace}, name: ${id.name}, uid: ${id.uid}]`;
}

/** An owner reference's coordinates as an identity in `namespace`. */
export function referenceIdentity(ref: OwnerReference, namespace: string): ObjectIdentity {
  return { apiVersion: ref.apiVersion, kind: ref.kind, name: ref.name, uid: ref.uid, namespace };
}

/** Whether a reference names exactly this identity (uid, name, kind and apiVersion). */
export function referenceMatches(ref: OwnerReference, id: ObjectIdentity): boolean {
  return ref.uid === id.uid && ref.name === id.name && ref.kind === id.kind && ref.apiVersion === id.apiVersion;
}

export class GraphNode {
  readonly dependents = new Set<GraphNode>();
  owners: OwnerReference[];
  /** Deleted with the foregroundDeletion finalizer: waiting for its blocking dependents to go. */
  deletingDependents: boolean;
  beingDeleted: boolean;
  virtual: boolean;

  constructor(
    public identity: ObjectIdentity,
    init: { owners?: OwnerReference[]; deletingDependents?: boolean; beingDeleted?: boolean; virtual?: boolean } = {},
  ) {
    this.owners = init.owners ?? [];
    this.deletingDependents = init.deletingDependents ?? false;
    this.beingDeleted = init.beingDeleted ?? false;
    this.virtual = init.virtual ?? false;
  }

  isObserved(): boolean {
    return !this.virtual;
  }

  /** Dependents whose reference to this node has blockOwnerDeletion=true. */
  blockingDependents(): GraphNode[] {
    return [...this.dependents].filter((d) => d.owners.some((o) => o.uid === this.identity.uid && o.blockOwnerDeletion === true));
  }
}

/** Dependents whose references to `owner`'s uid match its coordinates, and those whose do not. */
export function partitionDependents(
  dependents: Iterable<GraphNode>,
  owner: ObjectIdentity,
): { matching: GraphNode[]; nonmatching: GraphNode[] } {
  const matching: GraphNode[] = [];
  const nonmatching: GraphNode[] = [];
  const ownerNamespaced = owner.namespace !== '';
  for (const dep of dependents) {
    let match = false;
    let mismatch = false;
    if (ownerNamespaced && owner.namespace !== dep.identity.namespace) mismatch = true;
    else {
      for (const ref of dep.owners) {
        if (ref.uid !== owner.uid) continue;
        if (referenceMatches(ref, owner)) match = true;
        else mismatch = true;
      }
    }
    if (match) matching.push(dep);
    if (mismatch) nonmatching.push(dep);
  }
  return { matching, nonmatching };
}

/** Kubernetes' referenceLessThan: kind, apiVersion, namespace, name, uid. */
function identityLess(a: ObjectIdentity, b: ObjectIdentity): boolean {
  for (const k of ['kind', 'apiVersion', 'namespace', 'name', 'uid'] as const) if (a[k] !== b[k]) return a[k] < b[k];
  return false;
}

/**
 * Another identity the dependents give the owner uid of a verified-absent identity: the first after it
 * in identityLess order, else the first; undefined when there is none.
 */
export function alternateOwnerIdentity(deps: Iterable<GraphNode>, absent: ObjectIdentity): ObjectIdentity | undefined {
  const clusterScoped = absent.namespace === '';
  const seen = new Set([identityKey(absent)]);
  let first: ObjectIdentity | undefined;
  let firstFollowing: ObjectIdentity | undefined;
  for (const dep of deps) {
    for (const ref of dep.owners) {
      if (ref.uid !== absent.uid) continue;
      if (referenceMatches(ref, absent) && (clusterScoped || absent.namespace === dep.identity.namespace)) continue;
      const id = referenceIdentity(ref, dep.identity.namespace);
      if (clusterScoped && id.apiVersion === absent.apiVersion && id.kind === absent.kind) id.namespace = '';
      if (seen.has(identityKey(id))) continue;
      seen.add(identityKey(id));
      if (!first || identityLess(id, first)) first = id;
      if (identityLess(absent, id) && (!firstFollowing || identityLess(id, firstFollowing))) firstFollowing = id;
    }
  }
  return firstFollowing ?? first;
}
