// A small reader of the Prometheus text format: the samples of the families the overview charts.
/** [{ name, labels: {..}, value }] of the lines whose metric name is in `wanted` (a Set of names). */
export function parseMetrics(text, wanted) {
  const out = [];
  for (const line of text.split('\n')) {
    if (!line || line[0] === '#') continue;
    const brace = line.indexOf('{');
    const space = line.lastIndexOf(' ');
    const name = brace >= 0 && brace < space ? line.slice(0, brace) : line.slice(0, line.indexOf(' '));
    if (!wanted.has(name)) continue;
    const labels = {};
    if (brace >= 0 && brace < space) {
      const body = line.slice(brace + 1, line.lastIndexOf('}'));
      for (const m of body.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[m[1]] = m[2];
    }
    out.push({ name, labels, value: Number(line.slice(space + 1)) });
  }
  return out;
}

/** The q-quantile from cumulative histogram buckets [{le, count}] (as Prometheus' histogram_quantile). */
export function quantile(q, buckets) {
  const bs = [...buckets].sort((a, b) => a.le - b.le);
  const total = bs.length ? bs[bs.length - 1].count : 0;
  if (total <= 0) return Number.NaN;
  const rank = q * total;
  let prevLe = 0;
  let prevCount = 0;
  for (const b of bs) {
    if (b.count >= rank) {
      if (!Number.isFinite(b.le)) return prevLe;
      const inBucket = b.count - prevCount;
      return inBucket > 0 ? prevLe + ((b.le - prevLe) * (rank - prevCount)) / inBucket : b.le;
    }
    prevLe = b.le;
    prevCount = b.count;
  }
  return prevLe;
}
