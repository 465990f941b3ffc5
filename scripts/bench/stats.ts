/** Latency samples and rates. */

/** The p-th percentile (0..100) of samples, nearest-rank; 0 for none. */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return 0;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** The mean of samples; 0 for none. */
export function mean(samples: readonly number[]): number {
  return samples.reduce((a, b) => a + b, 0) / Math.max(1, samples.length);
}

/** Rounds to a precision that reads well in a table (3 significant digits, at most 1 decimal). */
export function round(n: number): number {
  if (n >= 100) return Math.round(n);
  return Math.round(n * 10) / 10;
}

/** The outcome of running many timed operations. */
export interface LoadResult {
  count: number;
  errors: number;
  seconds: number;
  /** Operations per second. */
  rate: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * Runs `op` from `concurrency` callers until `count` operations ran or `seconds` passed (whichever
 * is given), timing each; op gets the operation's index and the caller's index. With
 * `warmupSeconds`, it first runs that long untimed, then awaits `onTimedStart`.
 */
export async function runLoad(
  opts: { concurrency: number; count?: number; seconds?: number; warmupSeconds?: number; onTimedStart?: () => Promise<void> },
  op: (index: number, caller: number) => Promise<void>,
): Promise<LoadResult> {
  if (opts.warmupSeconds) await runLoad({ concurrency: opts.concurrency, seconds: opts.warmupSeconds }, op);
  await opts.onTimedStart?.();
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  let firstError: unknown;
  const started = performance.now();
  const deadline = opts.seconds ? started + opts.seconds * 1000 : Infinity;
  const more = () => (opts.count === undefined || next < opts.count) && performance.now() < deadline;
  await Promise.all(
    Array.from({ length: opts.concurrency }, async (_, caller) => {
      while (more()) {
        const index = next++;
        const t0 = performance.now();
        try {
          await op(index, caller);
          latencies.push(performance.now() - t0);
        } catch (err) {
          errors++;
          firstError ??= err;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  if (errors > 0) process.stderr.write(`bench: ${errors} operations failed, first: ${String(firstError)}\n`);
  return {
    count: latencies.length,
    errors,
    seconds: round(seconds),
    rate: round(latencies.length / seconds),
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
  };
}
