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

/** A set of keys kept sorted in storage order, for paging through a range. */
export class SortedKeys {
  private readonly keys: string[] = [];

  get size(): number {
    return this.keys.length;
  }

  /** The key at index i (0 ≤ i < size). */
  at(i: number): string {
    return this.keys[i];
  }

  /** The index of the first key ≥ key (size when none). */
  lowerBound(key: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareKeys(this.keys[mid], key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Adds key (no-op when present). */
  add(key: string): void {
    const i = this.lowerBound(key);
    if (this.keys[i] !== key) this.keys.splice(i, 0, key);
  }

  /** Removes key (no-op when absent). */
  delete(key: string): void {
    const i = this.lowerBound(key);
    if (this.keys[i] === key) this.keys.splice(i, 1);
  }

  /** The index one past the last key starting with prefix, searching from index `from`. */
  prefixEnd(prefix: string, from: number): number {
    let lo = from;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const k = this.keys[mid];
      if (k.startsWith(prefix) || compareKeys(k, prefix) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
