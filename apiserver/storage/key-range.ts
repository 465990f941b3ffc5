/**
 * Key ranges shared by the storage backends. Keys compare as UTF-8 bytes (etcd's order), so both
 * backends list in the same order and page the same way.
 */

/** A byte range [start, end) of keys. */
export interface KeyRange {
  start: Buffer;
  end: Buffer;
}

/**
 * The range a list of `prefix` reads: every key starting with prefix, from startKey on when given.
 * Throws when prefix is empty or startKey does not lie under prefix (a caller bug, not a store error).
 */
export function listRange(prefix: string, startKey?: string): KeyRange {
  if (prefix === '') throw new Error('storage: an empty prefix is not allowed');
  if (startKey !== undefined && !startKey.startsWith(prefix)) {
    throw new Error(`storage: startKey ${JSON.stringify(startKey)} is not under prefix ${JSON.stringify(prefix)}`);
  }
  return { start: Buffer.from(startKey ?? prefix), end: prefixEnd(Buffer.from(prefix)) };
}

/**
 * The range a watch of `prefix` covers: a prefix ending in '/' covers every key under it, anything
 * else exactly one key (end is then null).
 */
export function watchRange(prefix: string): { start: Buffer; end: Buffer | null } {
  if (prefix === '') throw new Error('storage: an empty prefix is not allowed');
  const start = Buffer.from(prefix);
  return { start, end: prefix.endsWith('/') ? prefixEnd(start) : null };
}

/** Whether a watch of `prefix` (see watchRange) sees `key`. */
export function watchCovers(prefix: string, key: string): boolean {
  return prefix.endsWith('/') ? key.startsWith(prefix) : key === prefix;
}

/** The smallest key greater than every key starting with prefix (etcd's prefix range end). */
function prefixEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i] < 0xff) {
      end[i] += 1;
      return end.subarray(0, i + 1);
    }
  }
  // Only reachable for all-0xff prefixes, which no UTF-8 string produces.
  throw new Error('storage: prefix has no upper bound');
}
