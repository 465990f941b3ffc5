/**
 * Owners known not to exist (Kubernetes' absentOwnerCache, an LRU of 500 references), so that many
 * dependents of one deleted owner do not each ask the API server about it. Kubernetes never reuses a
 * uid; orch's Restore (history.orch.io) brings an object back with its own, so an owner seen again
 * is forgotten here (forgetUid) — else its restored dependents would be collected as orphans.
 */
import { identityKey, type ObjectIdentity } from './graph.js';

export class AbsentOwnerCache {
  /** Map insertion order doubles as recency order. */
  private readonly entries = new Map<string, string>();
  /** The keys of each uid (a reference may name its owner by other coordinates). */
  private readonly byUid = new Map<string, Set<string>>();

  constructor(private readonly max = 500) {}

  add(id: ObjectIdentity): void {
    const key = identityKey(id);
    this.entries.delete(key);
    this.entries.set(key, id.uid);
    let keys = this.byUid.get(id.uid);
    if (!keys) this.byUid.set(id.uid, (keys = new Set()));
    keys.add(key);
    if (this.entries.size > this.max) {
      const [oldest, uid] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      this.dropKey(uid, oldest);
    }
  }

  /** An object with this uid exists (again): no reference to it is absent. */
  forgetUid(uid: string): void {
    const keys = this.byUid.get(uid);
    if (!keys) return;
    for (const k of keys) this.entries.delete(k);
    this.byUid.delete(uid);
  }

  private dropKey(uid: string, key: string): void {
    const keys = this.byUid.get(uid);
    keys?.delete(key);
    if (keys?.size === 0) this.byUid.delete(uid);
  }

  has(id: ObjectIdentity): boolean {
    const key = identityKey(id);
    const uid = this.entries.get(key);
    if (uid === undefined) return false;
    this.entries.delete(key);
    this.entries.set(key, uid);
    return true;
  }
}
