/**
 * etcd leases for keys that expire (Events): one lease per TTL is granted and reused by the writes
 * of a short window, as kube-apiserver's lease manager does, so a busy key space does not grant a
 * lease per write. A lease is granted for the TTL plus the window (min(60 s, 5% of the TTL)): a key
 * written at the end of the window still lives at least its TTL.
 */
import type { Etcd3 } from 'etcd3';

const MAX_REUSE_MS = 60_000;
const REUSE_FRACTION = 0.05;

export class LeaseManager {
  private readonly leases = new Map<number, { id: string; grantedAt: number }>();

  constructor(
    private readonly client: Etcd3,
    private readonly now: () => number = Date.now,
  ) {}

  /** The id of a lease that keeps a key written now for at least ttlSeconds. */
  async leaseFor(ttlSeconds: number): Promise<string> {
    const reuseMs = Math.min(MAX_REUSE_MS, ttlSeconds * 1000 * REUSE_FRACTION);
    const held = this.leases.get(ttlSeconds);
    if (held && this.now() - held.grantedAt < reuseMs) return held.id;
    const grantedAt = this.now();
    const res = await this.client.leaseClient.leaseGrant({ TTL: ttlSeconds + Math.ceil(reuseMs / 1000), ID: 0 });
    const id = String(res.ID);
    this.leases.set(ttlSeconds, { id, grantedAt });
    return id;
  }
}
