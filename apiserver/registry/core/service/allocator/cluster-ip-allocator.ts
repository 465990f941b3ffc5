/**
 * The cluster IPs of one family, Kubernetes' ipallocator over a range-store bitmap: the network
 * address and (IPv4) the broadcast address are never handed out, IPv6 ranges use at most their first
 * 65536 addresses, and automatic picks prefer the addresses above the static band (the lowest
 * min(max(16, size/16), 256) offsets are left for manually chosen IPs).
 */
import type { Storage } from '../../../../storage/interfaces.js';
import type { CIDR, IPFamily } from '../../../shared/network/ip.js';
import { cidrContains, cidrSize, formatCIDR, formatIP, parseIP } from '../../../shared/network/ip.js';
import { AllocatorError } from './allocator-error.js';
import { newRangeStore } from './range-store.js';

const IPV6_MAX_ADDRESSES = 65536n;

export interface ClusterIPAllocator {
  readonly family: IPFamily;
  /** The range, e.g. "10.0.0.0/24". */
  readonly cidr: string;
  /** The first address handed out (10.0.0.1 for 10.0.0.0/24), the one the default Service takes. */
  readonly firstAddress: string;
  /** Reserves one address; AllocatorError NotInRange / Allocated. With dryRun, checks only. */
  allocate(ip: string, dryRun: boolean): Promise<void>;
  /** Picks a free address; AllocatorError Full. With dryRun, picks without reserving. */
  allocateNext(dryRun: boolean): Promise<string>;
  release(ips: readonly string[]): Promise<void>;
  /** RangeStore.adopt with the addresses in use (those outside the range are ignored). */
  adopt(inUse: () => Promise<string[]>): Promise<void>;
}

/** Kubernetes' calculateRangeOffset for IPs: min(max(16, size/16), 256), 0 for ranges of 16 or fewer. */
function staticBand(cidr: CIDR): number {
  const size = cidrSize(cidr);
  if (size <= 16n) return 0;
  const offset = size / 16n;
  return Number(offset < 16n ? 16n : offset > 256n ? 256n : offset);
}

/** Usable addresses: the range minus the network address (and the IPv4 broadcast address). */
function usableSize(cidr: CIDR): number {
  let max = cidrSize(cidr);
  if (cidr.family === 'IPv6' && max > IPV6_MAX_ADDRESSES) max = IPV6_MAX_ADDRESSES;
  if (cidr.family === 'IPv4') max -= 1n;
  max -= 1n;
  return Number(max < 0n ? 0n : max);
}

export function newClusterIPAllocator(cidr: CIDR, storage: Storage, key: string): ClusterIPAllocator {
  const spec = formatCIDR(cidr);
  const size = usableSize(cidr);
  const base = cidr.network + 1n;
  const notInRange = `provided IP is not in the valid range. The range of valid IPs is ${spec}`;
  const addressAt = (offset: number) => formatIP({ family: cidr.family, value: base + BigInt(offset) });
  const store = newRangeStore({
    storage,
    key,
    rangeSpec: spec,
    size,
    dynamicOffset: staticBand(cidr),
    describe: { valueAt: addressAt, notInRange, allocated: 'provided IP is already allocated' },
  });
  const offsetOf = (ip: string): number | undefined => {
    const parsed = parseIP(ip);
    if (!parsed || !cidrContains(cidr, parsed)) return undefined;
    const offset = parsed.value - base;
    return offset >= 0n && offset < BigInt(size) ? Number(offset) : undefined;
  };

  return {
    family: cidr.family,
    cidr: spec,
    firstAddress: addressAt(0),
    async allocate(ip, dryRun) {
      const offset = offsetOf(ip);
      if (offset === undefined) throw new AllocatorError('NotInRange', notInRange, ip);
      await store.allocate({ specific: [offset], next: 0 }, dryRun);
    },
    async allocateNext(dryRun) {
      const [offset] = await store.allocate({ specific: [], next: 1 }, dryRun);
      return addressAt(offset);
    },
    async release(ips) {
      await store.release(ips.map(offsetOf).filter((o): o is number => o !== undefined));
    },
    async adopt(inUse) {
      await store.adopt(async () => (await inUse()).map(offsetOf).filter((o): o is number => o !== undefined));
    },
  };
}
