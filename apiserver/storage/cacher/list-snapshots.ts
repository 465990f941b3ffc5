/**
 * Frozen copies of a resource cache's objects, kept so the later pages of a paged list read the
 * resource as its first page did while writes go on.
 *
 * Copy on write: a page that hands out a continue token pins the cache's current generation (its
 * objects, unchanged since the generation's first revision). The next change copies the generation
 * (its sorted keys and the frozen objects they point at, not the objects themselves) into a snapshot
 * before applying, so a generation is copied at most once and only when a token may still read it,
 * and copies are spaced in time (resource-cache.ts). Snapshots are bounded in count and age, and a revision the cache's window no longer holds is
 * answered by the store (or its 410) instead.
 */
import type { ApiObject } from '../../api/object.js';
import { FrozenKeys, type KeyOrder } from './sorted-keys.js';

/** Objects in key order: the cache's current ones or a snapshot's. */
export interface ListView {
  readonly keys: KeyOrder;
  object(i: number): ApiObject;
}

/** One page of a list from the cache. */
export interface CachedPage {
  items: ApiObject[];
  /** The revision the page shows the resource at. */
  revision: number;
  /** When the limit cut the list short: the last key returned. */
  lastKey?: string;
  /** With lastKey: how many keys under the prefix follow it (an unfiltered list's remaining count). */
  remaining?: number;
}

export interface PageOptions {
  /** At most this many matching items; 0 = all. */
  limit: number;
  matches(obj: ApiObject): boolean;
  /** The first key to read (inclusive; under the prefix); default the prefix itself. */
  startKey?: string;
}

/** The view's objects under prefix from the start key on, filtered, cut at the limit, as a page at `revision`. */
export function readPage(view: ListView, revision: number, prefix: string, options: PageOptions): CachedPage {
  const { keys } = view;
  const items: ApiObject[] = [];
  let i = keys.lowerBound(options.startKey ?? prefix);
  const end = keys.prefixEnd(prefix, i);
  for (; i < end; i++) {
    const obj = view.object(i);
    if (!options.matches(obj)) continue;
    items.push(obj);
    if (items.length === options.limit) {
      i++;
      break;
    }
  }
  if (options.limit && items.length === options.limit && i < end) {
    return { items, revision, lastKey: keys.at(i - 1), remaining: end - i };
  }
  return { items, revision };
}

/** The resource as it was at every revision from `from` to `to`. */
export class ListSnapshot implements ListView {
  readonly takenAt = Date.now();
  readonly keys: KeyOrder;

  constructor(
    readonly from: number,
    readonly to: number,
    keys: readonly string[],
    private readonly objects: readonly ApiObject[],
  ) {
    this.keys = new FrozenKeys(keys);
  }

  object(i: number): ApiObject {
    return this.objects[i];
  }
}

export interface SnapshotBounds {
  /** The most snapshots kept; the oldest go first. */
  maxCount: number;
  /** Snapshots older than this (ms) are dropped. */
  maxAgeMs: number;
}

/** A resource's snapshots, oldest first, bounded in count and age. */
export class ListSnapshots {
  private snapshots: ListSnapshot[] = [];

  constructor(private readonly bounds: SnapshotBounds) {}

  get size(): number {
    return this.snapshots.length;
  }

  /** When the newest snapshot was taken (0 without one). */
  get lastTakenAt(): number {
    return this.snapshots.at(-1)?.takenAt ?? 0;
  }

  add(snapshot: ListSnapshot): void {
    this.snapshots.push(snapshot);
    if (this.snapshots.length > this.bounds.maxCount) this.snapshots.shift();
  }

  /** The snapshot showing `revision`, if one is kept. */
  find(revision: number): ListSnapshot | undefined {
    this.expire();
    return this.snapshots.find((s) => s.from <= revision && revision <= s.to);
  }

  /** Drops the snapshots older than the bound or than `oldestRevision` (every revision they show is below it). */
  expire(oldestRevision = 0): void {
    const oldest = Date.now() - this.bounds.maxAgeMs;
    if (this.snapshots.some((s) => s.takenAt < oldest || s.to < oldestRevision)) {
      this.snapshots = this.snapshots.filter((s) => s.takenAt >= oldest && s.to >= oldestRevision);
    }
  }
}
