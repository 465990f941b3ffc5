/**
 * The resource lock of leader election: a coordination/v1 Lease whose spec is the election record
 * (client-go's LeaseLock). Updates carry the resourceVersion read, so two candidates can never both
 * win the same round.
 */
import type { Lease, LeaseSpec } from '../../apiserver/api/generated/types.js';
import type { ApiDomain } from '../../apiserver/api/domain.js';
import { isApiError } from '../../apiserver/api/status.js';
import { type ApiClient, type ResourceClient, resourceOf } from '../client/api-client.js';

/** client-go's LeaderElectionRecord; times are epoch milliseconds. */
export interface LeaderElectionRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime: number;
  renewTime: number;
  leaderTransitions: number;
}

/** metav1.MicroTime: RFC 3339 with microseconds. */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

function recordFromLease(lease: Lease): LeaderElectionRecord {
  const spec = lease.spec ?? {};
  const time = (v: string | undefined) => (typeof v === 'string' ? Date.parse(v) || 0 : 0);
  return {
    holderIdentity: typeof spec.holderIdentity === 'string' ? spec.holderIdentity : '',
    leaseDurationSeconds: typeof spec.leaseDurationSeconds === 'number' ? spec.leaseDurationSeconds : 0,
    acquireTime: time(spec.acquireTime),
    renewTime: time(spec.renewTime),
    leaderTransitions: typeof spec.leaseTransitions === 'number' ? spec.leaseTransitions : 0,
  };
}

function leaseSpec(r: LeaderElectionRecord): LeaseSpec {
  return {
    holderIdentity: r.holderIdentity,
    leaseDurationSeconds: r.leaseDurationSeconds,
    acquireTime: microTime(r.acquireTime),
    renewTime: microTime(r.renewTime),
    leaseTransitions: r.leaderTransitions,
  };
}

/** What leader election needs of its lock (client-go's resourcelock.Interface). */
export interface ResourceLock {
  /** This candidate's identity. */
  readonly identity: string;
  /** The current record, or null when the lock object does not exist. */
  get(): Promise<LeaderElectionRecord | null>;
  create(record: LeaderElectionRecord): Promise<void>;
  /** Writes over the object last read; fails when someone wrote it since. */
  update(record: LeaderElectionRecord): Promise<void>;
  describe(): string;
}

export class LeaseLock implements ResourceLock {
  private readonly leases: ResourceClient<Lease>;
  private readonly apiVersion: string;
  private lease?: Lease;

  constructor(
    client: ApiClient,
    domain: ApiDomain,
    readonly namespace: string,
    readonly name: string,
    /** This candidate's identity. */
    readonly identity: string,
  ) {
    const group = domain.group('coordination.k8s.io');
    this.apiVersion = `${group}/v1`;
    this.leases = client.resource(resourceOf<Lease>(group, 'v1', 'leases'), namespace);
  }

  /** The current record, or null when the Lease does not exist (other errors are thrown). */
  async get(): Promise<LeaderElectionRecord | null> {
    try {
      this.lease = await this.leases.get(this.name);
    } catch (err) {
      if (isApiError(err, 'NotFound')) return null;
      throw err;
    }
    return recordFromLease(this.lease);
  }

  async create(record: LeaderElectionRecord): Promise<void> {
    this.lease = await this.leases.create({
      apiVersion: this.apiVersion,
      kind: 'Lease',
      metadata: { name: this.name, namespace: this.namespace },
      spec: leaseSpec(record),
    });
  }

  /** Writes the record over the Lease last read (409 if someone wrote it since). */
  async update(record: LeaderElectionRecord): Promise<void> {
    if (!this.lease) throw new Error('leader election: update of a lease that was never read');
    this.lease = await this.leases.update({ ...this.lease, spec: leaseSpec(record) });
  }

  describe(): string {
    return `${this.namespace}/${this.name}`;
  }
}
