/**
 * Keys in the storage's order. The backends order keys as UTF-8 bytes (etcd's order); JavaScript
 * compares UTF-16 code units, which agrees except that surrogates (characters above U+FFFF) sort
 * below U+E000–U+FFFF instead of above them. compareKeys corrects that one case, so the cache pages
 * exactly as the store does.
 */

/** Compares two keys as their UTF-8 bytes would compare. */
export function compareKeys(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return utf8Rank(x) - utf8Rank(y);
  }
  return a.length - b.length;
}

/** A code unit's rank in UTF-8 byte order: surrogates (4-byte sequences) after every BMP character. */
function utf8Rank(unit: number): number {
  return unit >= 0xd800 && unit <= 0xdfff ? unit + 0x10000 : unit;
}

/** The index of the first key ≥ key in sorted keys (keys.length when none). */
export function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(keys[mid], key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The index one past the last key starting with prefix in sorted keys, searching from index `from`. */
export function prefixEnd(keys: readonly string[], prefix: string, from: number): number {
  let lo = from;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const k = keys[mid];
    if (k.startsWith(prefix) || compareKeys(k, prefix) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Keys in storage order, read by position: a cache's current keys or a snapshot's. */
export interface KeyOrder {
  readonly size: number;
  /** The key at position i (0 ≤ i < size). */
  at(i: number): string;
  /** The position of the first key ≥ key (size when none). */
  lowerBound(key: string): number;
  /** The position one past the last key starting with prefix, searching from position `from`. */
  prefixEnd(prefix: string, from: number): number;
}

/** A sorted array as a KeyOrder (a snapshot's keys). */
export class FrozenKeys implements KeyOrder {
  constructor(private readonly keys: readonly string[]) {}

  get size(): number {
    return this.keys.length;
  }

  at(i: number): string {
    return this.keys[i];
  }

  lowerBound(key: string): number {
    return lowerBound(this.keys, key);
  }

  prefixEnd(prefix: string, from: number): number {
    return prefixEnd(this.keys, prefix, from);
  }
}

/** A chunk splits in two past this many keys. */
const MAX_CHUNK = 1024;

/**
 * A set of keys kept sorted in storage order, for paging through a range. The keys sit in chunks of
 * at most MAX_CHUNK, so adding or deleting one moves at most a chunk's keys and the chunks' start
 * positions, not every key after it: with 150,000 keys one flat array moved ~75,000 on each add of
 * a name that sorts in the middle (a ReplicaSet's Pod), ~50 µs of every create.
 */
export class SortedKeys implements KeyOrder {
  private readonly chunks: string[][] = [];
  /** starts[c]: the position of chunks[c][0]. */
  private starts: number[] = [];
  private count = 0;
  /** The chunk `at` read last. */
  private lastRead = 0;

  get size(): number {
    return this.count;
  }

  at(i: number): string {
    // A page reads positions in order: the chunk of the last read usually holds the next.
    let c = this.lastRead;
    if (c >= this.chunks.length || i < this.starts[c] || i >= this.starts[c] + this.chunks[c].length) c = this.lastRead = this.chunkAt(i);
    return this.chunks[c][i - this.starts[c]];
  }

  lowerBound(key: string): number {
    const c = this.chunkFor(key);
    if (c === this.chunks.length) return this.count;
    return this.starts[c] + lowerBound(this.chunks[c], key);
  }

  prefixEnd(prefix: string, from: number): number {
    if (from >= this.count) return this.count;
    // The first chunk, from `from`'s on, whose last key is past the prefix's range holds the end.
    const inRange = (k: string) => k.startsWith(prefix) || compareKeys(k, prefix) < 0;
    let lo = this.chunkAt(from);
    let hi = this.chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const chunk = this.chunks[mid];
      if (inRange(chunk[chunk.length - 1])) lo = mid + 1;
      else hi = mid;
    }
    if (lo === this.chunks.length) return this.count;
    const start = this.starts[lo];
    return start + prefixEnd(this.chunks[lo], prefix, Math.max(from - start, 0));
  }

  /** Every key in order, as a new array (a snapshot's). */
  toArray(): string[] {
    return this.chunks.flat();
  }

  /** Adds key (no-op when present). */
  add(key: string): void {
    if (this.chunks.length === 0) {
      this.chunks.push([key]);
      this.starts = [0];
      this.count = 1;
      return;
    }
    const c = Math.min(this.chunkFor(key), this.chunks.length - 1);
    const chunk = this.chunks[c];
    const i = lowerBound(chunk, key);
    if (chunk[i] === key) return;
    chunk.splice(i, 0, key);
    this.count++;
    if (chunk.length > MAX_CHUNK) this.chunks.splice(c + 1, 0, chunk.splice(chunk.length >> 1));
    this.restart(c);
  }

  /** Removes key (no-op when absent). */
  delete(key: string): void {
    const c = this.chunkFor(key);
    if (c === this.chunks.length) return;
    const chunk = this.chunks[c];
    const i = lowerBound(chunk, key);
    if (chunk[i] !== key) return;
    chunk.splice(i, 1);
    this.count--;
    if (chunk.length === 0) this.chunks.splice(c, 1);
    this.restart(c);
  }

  /** The chunk whose keys could hold key: the first whose last key is ≥ key (chunks.length when none). */
  private chunkFor(key: string): number {
    let lo = 0;
    let hi = this.chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const chunk = this.chunks[mid];
      if (compareKeys(chunk[chunk.length - 1], key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The chunk holding position i (0 ≤ i < size). */
  private chunkAt(i: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.starts[mid] <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Recomputes the start positions from chunk c on. */
  private restart(c: number): void {
    this.starts.length = this.chunks.length;
    let pos = c > 0 ? this.starts[c - 1] + this.chunks[c - 1].length : 0;
    for (let k = c; k < this.chunks.length; k++) {
      this.starts[k] = pos;
      pos += this.chunks[k].length;
    }
  }
}
