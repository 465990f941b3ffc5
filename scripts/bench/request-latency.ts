/**
 * API call latency per verb from a server's `apiserver_request_duration_seconds` histogram, as
 * Kubernetes' API call latency SLO reads it: two scrapes of /metrics, the buckets' difference
 * summed over every label but the verb, and the quantile interpolated inside its bucket (as
 * Prometheus' histogram_quantile does). WATCH and CONNECT are long-running and left out, as the SLO does.
 */

const METRIC = 'apiserver_request_duration_seconds_bucket';
const LONG_RUNNING = new Set(['WATCH', 'CONNECT']);

/** verb → upper bound (s) → cumulative count. */
export type VerbBuckets = Map<string, Map<number, number>>;

/** The histogram's buckets in a Prometheus text exposition, summed per verb. */
export function parseRequestBuckets(text: string): VerbBuckets {
  const out: VerbBuckets = new Map();
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${METRIC}{`)) continue;
    const close = line.lastIndexOf('}');
    const labels = line.slice(METRIC.length + 1, close);
    const verb = /(?:^|,)verb="([^"]*)"/.exec(labels)?.[1];
    const le = /(?:^|,)le="([^"]*)"/.exec(labels)?.[1];
    if (!verb || le === undefined || LONG_RUNNING.has(verb)) continue;
    const bound = le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le);
    const count = Number(
      line
        .slice(close + 1)
        .trim()
        .split(' ')[0],
    );
    const buckets = out.get(verb) ?? new Map<number, number>();
    buckets.set(bound, (buckets.get(bound) ?? 0) + count);
    out.set(verb, buckets);
  }
  return out;
}

/** The `q` quantile (0..1) in ms of the requests counted between two scrapes, per verb with any requests. */
export function latencyQuantilesMs(before: VerbBuckets, after: VerbBuckets, q: number): Map<string, { count: number; ms: number }> {
  const out = new Map<string, { count: number; ms: number }>();
  for (const [verb, buckets] of after) {
    const prev = before.get(verb);
    const cumulative = [...buckets.entries()]
      .map(([bound, count]) => [bound, count - (prev?.get(bound) ?? 0)] as const)
      .sort((a, b) => a[0] - b[0]);
    const total = cumulative[cumulative.length - 1]?.[1] ?? 0;
    if (total <= 0) continue;
    const rank = q * total;
    let lower = 0;
    let below = 0;
    for (const [bound, count] of cumulative) {
      if (count >= rank) {
        // in the +Inf bucket: the highest finite bound, as histogram_quantile answers
        const ms = bound === Number.POSITIVE_INFINITY ? lower : lower + ((bound - lower) * (rank - below)) / Math.max(count - below, 1);
        out.set(verb, { count: total, ms: Math.round(ms * 1000 * 10) / 10 });
        break;
      }
      lower = bound;
      below = count;
    }
  }
  return out;
}
