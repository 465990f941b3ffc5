/**
 * How a namespace restore writes what was deleted with the namespace: in storage batches
 * (generic/create-batch.ts), each holding whole owner closures — an owner with every dependent
 * (a Deployment with its ReplicaSets and their Pods), found through ownerReferences among the
 * objects restored — so no controller and no garbage collector sees an owner without its dependents
 * or a dependent without its owner. Restoring owners first one by one let the Deployment controller
 * create a ReplicaSet of the old one's name (a new uid) before the restore wrote the old one; restoring
 * dependents first let the garbage collector delete them while their owner was absent.
 *
 * Batches follow RESTORE_RANK (what admission looks up first: a Pod's ServiceAccount), one rank a
 * batch; inside a closure owners come first. A closure larger than a batch (MAX_BATCH_CREATES,
 * MAX_BATCH_BYTES) is split into consecutive batches, owners first: only then may a controller see
 * an owner before all its dependents are back.
 */
import { MAX_BATCH_BYTES, MAX_BATCH_CREATES } from '../../storage/interfaces.js';
import type { LastDeletion } from './last-deletion.js';

/** Earlier in a restore: what others need to exist first (admission looks the ServiceAccount of a Pod up). */
const RESTORE_RANK: Record<string, number> = {
  namespaces: 0,
  customresourcedefinitions: 0,
  serviceaccounts: 1,
  secrets: 2,
  configmaps: 2,
  roles: 2,
  rolebindings: 3,
  pods: 5,
};
const DEFAULT_RANK = 4;

function rankOf(d: LastDeletion): number {
  return RESTORE_RANK[d.store.def.plural] ?? DEFAULT_RANK;
}

/**
 * Owners before their dependents (by ownerReference uid, among the objects restored), then by
 * RESTORE_RANK; stable otherwise.
 */
export function restoreOrder(items: LastDeletion[]): LastDeletion[] {
  const byUid = new Map(items.map((d) => [d.object.metadata.uid ?? '', d]));
  const depth = new Map<LastDeletion, number>();
  const depthOf = (d: LastDeletion, seen: Set<LastDeletion>): number => {
    const known = depth.get(d);
    if (known !== undefined) return known;
    // A cycle of owners (invalid, but stored objects are not re-validated): cut it.
    if (seen.has(d)) return 0;
    seen.add(d);
    let deepest = -1;
    for (const ref of d.object.metadata.ownerReferences ?? []) {
      const owner = byUid.get(ref.uid);
      if (owner && owner !== d) deepest = Math.max(deepest, depthOf(owner, seen));
    }
    depth.set(d, deepest + 1);
    return deepest + 1;
  };
  const keyed = items.map((d, i) => ({ d, i, depth: depthOf(d, new Set()), rank: rankOf(d) }));
  keyed.sort((a, b) => a.depth - b.depth || a.rank - b.rank || a.i - b.i);
  return keyed.map((k) => k.d);
}

/** The owner closures of items: the sets connected by ownerReferences among them, each in restoreOrder. */
export function ownerClosures(items: LastDeletion[]): LastDeletion[][] {
  const parent = items.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  };
  const byUid = new Map(items.map((d, i) => [d.object.metadata.uid ?? '', i]));
  for (const [i, d] of items.entries()) {
    for (const ref of d.object.metadata.ownerReferences ?? []) {
      const owner = byUid.get(ref.uid);
      if (owner !== undefined) parent[root(i)] = root(owner);
    }
  }
  const groups = new Map<number, LastDeletion[]>();
  for (const [i, d] of items.entries()) {
    const r = root(i);
    const g = groups.get(r);
    if (g) g.push(d);
    else groups.set(r, [d]);
  }
  return [...groups.values()].map(restoreOrder);
}

/** A rough measure of what an object costs a batch: its JSON and its key. */
function sizeOf(d: LastDeletion): number {
  return JSON.stringify(d.object).length + 128;
}

/** The batches to write items in (see above). */
export function restoreBatches(items: LastDeletion[]): LastDeletion[][] {
  const closures = ownerClosures(items).map((c, i) => ({ c, i, rank: Math.min(...c.map(rankOf)) }));
  closures.sort((a, b) => a.rank - b.rank || a.i - b.i);
  const batches: LastDeletion[][] = [];
  let batch: LastDeletion[] = [];
  let bytes = 0;
  let rank = -1;
  const flush = () => {
    if (batch.length) batches.push(batch);
    batch = [];
    bytes = 0;
  };
  for (const { c, rank: r } of closures) {
    const size = c.reduce((n, d) => n + sizeOf(d), 0);
    const storage = batch[0]?.store.storage;
    if (
      r !== rank ||
      batch.length + c.length > MAX_BATCH_CREATES ||
      bytes + size > MAX_BATCH_BYTES ||
      c.some((d) => storage && d.store.storage !== storage)
    ) {
      flush();
    }
    rank = r;
    if (c.length <= MAX_BATCH_CREATES && size <= MAX_BATCH_BYTES && c.every((d) => d.store.storage === c[0].store.storage)) {
      batch.push(...c);
      bytes += size;
      continue;
    }
    // Larger than a batch: in its order, as few batches as it takes.
    for (const d of c) {
      const s = sizeOf(d);
      if (batch.length + 1 > MAX_BATCH_CREATES || bytes + s > MAX_BATCH_BYTES || (batch[0] && batch[0].store.storage !== d.store.storage))
        flush();
      batch.push(d);
      bytes += s;
    }
    flush();
  }
  flush();
  return batches;
}
