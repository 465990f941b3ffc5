/**
 * slowStartBatch: run `count` calls in batches of 1, 2, 4, … (starting at `initial`), stopping after
 * the first batch in which any call failed, so a quota or admission error costs a handful of requests
 * instead of hundreds. Resolves with the successes and the first error.
 */
export async function slowStartBatch(
  count: number,
  initial: number,
  call: () => Promise<void>,
): Promise<{ successes: number; error?: unknown }> {
  let remaining = count;
  let successes = 0;
  for (let batch = Math.min(remaining, initial); batch > 0; batch = Math.min(2 * batch, remaining)) {
    const results = await Promise.allSettled(Array.from({ length: batch }, () => call()));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    successes += results.length - results.filter((r) => r.status === 'rejected').length;
    if (failed) return { successes, error: failed.reason };
    remaining -= batch;
  }
  return { successes };
}
