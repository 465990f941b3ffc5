/**
 * Node ports, Kubernetes' portallocator over a range-store bitmap: automatic picks prefer the ports
 * above the static band (the lowest min(max(16, size/32), 128) ports are left for manual choices).
 * One request takes all of a Service's ports in a single compare-and-swap.
 */
import type { Storage } from '../../../../storage/interfaces.js';
import type { PortRange } from './port-range.js';
import { formatPortRange } from './port-range.js';
import { newRangeStore } from './range-store.js';

export interface NodePortAllocator {
  readonly range: PortRange;
  /**
   * Reserves the given ports (distinct) and picks `next` more, in one step; returns the picked ones.
   * AllocatorError NotInRange / Allocated (the first refused port, in order) or Full. With dryRun,
   * checks and picks without reserving.
   */
  allocate(request: { specific: readonly number[]; next: number }, dryRun: boolean): Promise<number[]>;
  release(ports: readonly number[]): Promise<void>;
  /** RangeStore.adopt with the ports in use (those outside the range are ignored). */
  adopt(inUse: () => Promise<number[]>): Promise<void>;
}

/** Kubernetes' calculateRangeOffset for ports: min(max(16, size/32), 128), 0 for ranges of 16 or fewer. */
function staticBand(size: number): number {
  if (size <= 16) return 0;
  return Math.min(Math.max(16, Math.trunc(size / 32)), 128);
}

export function newNodePortAllocator(range: PortRange, storage: Storage, key: string): NodePortAllocator {
  const store = newRangeStore({
    storage,
    key,
    rangeSpec: formatPortRange(range),
    size: range.size,
    dynamicOffset: staticBand(range.size),
    describe: {
      valueAt: (offset) => range.base + offset,
      notInRange: `provided port is not in the valid range. The range of valid ports is ${formatPortRange(range)}`,
      allocated: 'provided port is already allocated',
    },
  });
  const inRange = (port: number) => port >= range.base && port < range.base + range.size;

  return {
    range,
    async allocate(request, dryRun) {
      const picked = await store.allocate({ specific: request.specific.map((p) => p - range.base), next: request.next }, dryRun);
      return picked.map((o) => range.base + o);
    },
    async release(ports) {
      await store.release(ports.filter(inRange).map((p) => p - range.base));
    },
    async adopt(inUse) {
      await store.adopt(async () => (await inUse()).filter(inRange).map((p) => p - range.base));
    },
  };
}
