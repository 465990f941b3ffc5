/**
 * etcd does not report its compacted revision, but it refuses reads below it: a read pinned to
 * revision r fails with "required revision has been compacted" exactly when r < the compacted
 * revision. So the compacted revision is the oldest revision a read still succeeds at, which this
 * finds by probing.
 *
 * readable(r) must be false below some revision c and true from c up to `upper` (the current
 * revision, always readable); `lower` must not exceed c (a revision known to have been compacted to,
 * or 1). The first probe is at `lower`, so when nothing was compacted since it was learned the
 * answer costs one probe; otherwise a binary search over (lower, upper] costs about
 * log2(upper - lower) more.
 */
export async function findOldestReadable(lower: number, upper: number, readable: (revision: number) => Promise<boolean>): Promise<number> {
  if (await readable(lower)) return lower;
  let lo = lower + 1;
  let hi = upper;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (await readable(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
