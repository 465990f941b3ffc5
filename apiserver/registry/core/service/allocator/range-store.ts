/**
 * One allocation range kept in the shared store: a RangeAllocation object (`{range, data}`, data the
 * base64 bitmap of bitmap.ts) under one key such as `<prefix>/ranges/serviceips`. Every change is a
 * compare-and-swap through guaranteedUpdate, so API servers sharing one etcd never hand out the
 * same offset twice: the loser of a race re-reads the winner's bitmap and picks again.
 *
 * Offsets are 0-based positions in the range; the typed allocators (cluster-ip-allocator.ts,
 * node-port-allocator.ts) map IPs and ports onto them.
 */
import { randomInt } from 'node:crypto';
import type { KeyValue, Storage } from '../../../../storage/interfaces.js';
import { guaranteedUpdate } from '../../../../storage/guaranteed-update.js';
import { Bitmap } from './bitmap.js';
import { AllocatorError, RANGE_FULL, RANGE_MISMATCH } from './allocator-error.js';

/** What one allocation asks for: exact offsets, and a number of free ones to pick. */
export interface OffsetRequest {
  specific: readonly number[];
  next: number;
}

export interface RangeStoreConfig {
  storage: Storage;
  key: string;
  /** The range as configured ("10.0.0.0/24", "30000-32767"); a stored state of another range is refused. */
  rangeSpec: string;
  size: number;
  /**
   * Offsets below this are left for manually chosen values: picks scan [offset, size) first, from a
   * random start, and the low band only when the high one is full (Kubernetes' static subrange).
   */
  dynamicOffset: number;
  /** How refused offsets are reported: the value at an offset and Kubernetes' texts for the range. */
  describe: { valueAt(offset: number): string | number; notInRange: string; allocated: string };
}

interface StoredRange {
  kind: 'RangeAllocation';
  apiVersion: 'v1';
  range: string;
  data: string;
}

export interface RangeStore {
  /**
   * Takes the specific offsets and `next` free ones in one compare-and-swap; returns the picked ones.
   * Throws AllocatorError NotInRange / Allocated (the first refused specific offset, in order),
   * Full, or RangeMismatch (the stored state belongs to another range). With `dryRun`
   * the same checks and picks are made against the stored state, and nothing is written.
   */
  allocate(request: OffsetRequest, dryRun: boolean): Promise<number[]>;
  /** Frees offsets (freeing a free one is a no-op). */
  release(offsets: readonly number[]): Promise<void>;
  /**
   * Takes over a missing state, or one left by another range (the flags changed): the state is
   * rebuilt from the offsets `inUse` reports, as Kubernetes' repair controller does at start. A state
   * of this range is left alone (and `inUse` not called).
   */
  adopt(inUse: () => Promise<number[]>): Promise<void>;
}

export function newRangeStore(config: RangeStoreConfig): RangeStore {
  const { storage, key, rangeSpec, size, dynamicOffset, describe } = config;

  const ours = (kv: KeyValue | null): kv is KeyValue =>
    kv !== null && (JSON.parse(kv.value.toString('utf8')) as StoredRange).range === rangeSpec;
  const read = (kv: KeyValue | null): Bitmap => {
    if (!kv) return Bitmap.empty(size);
    if (!ours(kv)) throw new AllocatorError('RangeMismatch', RANGE_MISMATCH);
    return Bitmap.decode(size, (JSON.parse(kv.value.toString('utf8')) as StoredRange).data);
  };
  const write = (bitmap: Bitmap): Buffer =>
    Buffer.from(
      JSON.stringify({ kind: 'RangeAllocation', apiVersion: 'v1', range: rangeSpec, data: bitmap.encode() } satisfies StoredRange),
    );

  const pick = (bitmap: Bitmap): number => {
    const band = Math.min(dynamicOffset, size);
    const found =
      (band < size ? bitmap.freeIn(band, size, band + randomInt(size - band)) : undefined) ??
      (band > 0 ? bitmap.freeIn(0, band, randomInt(band)) : undefined);
    if (found === undefined) throw new AllocatorError('Full', RANGE_FULL);
    return found;
  };

  const apply = (bitmap: Bitmap, request: OffsetRequest): number[] => {
    for (const offset of request.specific) {
      if (!Number.isInteger(offset) || offset < 0 || offset >= size)
        throw new AllocatorError('NotInRange', describe.notInRange, describe.valueAt(offset));
      if (bitmap.has(offset)) throw new AllocatorError('Allocated', describe.allocated, describe.valueAt(offset));
      bitmap.set(offset);
    }
    const picked: number[] = [];
    for (let i = 0; i < request.next; i++) {
      const offset = pick(bitmap);
      bitmap.set(offset);
      picked.push(offset);
    }
    return picked;
  };

  return {
    async allocate(request, dryRun) {
      if (request.specific.length === 0 && request.next === 0) return [];
      if (dryRun) return apply(read(await storage.get(key)), request);
      let picked: number[] = [];
      await guaranteedUpdate(storage, key, (current) => {
        const bitmap = read(current);
        picked = apply(bitmap, request);
        return write(bitmap);
      });
      return picked;
    },

    async release(offsets) {
      if (offsets.length === 0) return;
      await guaranteedUpdate(storage, key, (current) => {
        const bitmap = read(current);
        for (const offset of offsets) bitmap.clear(offset);
        return write(bitmap);
      });
    },

    async adopt(inUse) {
      const current = await storage.get(key);
      if (ours(current)) return;
      const bitmap = Bitmap.empty(size);
      for (const offset of await inUse()) if (Number.isInteger(offset) && offset >= 0 && offset < size) bitmap.set(offset);
      // Another replica may adopt (and then allocate) first: its state is kept.
      await guaranteedUpdate(storage, key, (kv) => (ours(kv) ? kv.value : write(bitmap)), current);
    },
  };
}
