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

/** A set of keys kept sorted in storage order, for paging through a range. */
export class SortedKeys {
  private readonly keys: string[] = [];

  get size(): number {
    return this.keys.length;
  }

  /** The keys in order; read-only, and changed by add and delete. */
  get all(): readonly string[] {
    return this.keys;
  }

  /** Adds key (no-op when present). */
  add(key: string): void {
    const i = lowerBound(this.keys, key);
    if (this.keys[i] !== key) this.keys.splice(i, 0, key);
  }

  /** Removes key (no-op when absent). */
  delete(key: string): void {
    const i = lowerBound(this.keys, key);
    if (this.keys[i] === key) this.keys.splice(i, 1);
  }
}
