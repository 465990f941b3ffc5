/**
 * Owners known not to exist (Kubernetes' absentOwnerCache, an LRU of 500 references), so that many
 * dependents of one deleted owner do not each ask the API server about it.
 */
import { identityKey, type ObjectIdentity } from './graph.js';

export class AbsentOwnerCache {
  /** Map insertion order doubles as recency order. */
  private readonly entries = new Map<string, true>();

  constructor(private readonly max = 500) {}

  add(id: ObjectIdentity): void {
    const key = identityKey(id);
    this.entries.delete(key);
    this.entries.set(key, true);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  has(id: ObjectIdentity): boolean {
    const key = identityKey(id);
    if (!this.entries.has(key)) return false;
    this.entries.delete(key);
    this.entries.set(key, true);
    return true;
  }
}
