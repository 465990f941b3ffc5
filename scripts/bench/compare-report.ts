/**
 * The side-by-side table of `npm run bench -- --compare`: one row per figure of the performance
 * issue, a column per server, and each orch server's ratio to the reference kube-apiserver, marked
 * better or worse by the figure's direction.
 */
import { DENSITY_VERBS } from './density-scenario.js';
import { stepLabel } from './pods-scale-scenario.js';
import type { BenchOptions, ScenarioResult } from './workload.js';

export const REFERENCE = 'kube-apiserver';

interface Row {
  figure: string;
  scenario: string;
  metric: string;
  /** Whether a larger value is the better one (rates) or the worse one (latencies, CPU, memory). */
  higherIsBetter: boolean;
}

function rows(options: BenchOptions): Row[] {
  const k = (n: number) => (n % 1000 === 0 ? `${n / 1000}k` : String(n));
  const small = k(options.count);
  const big = k(options.bigListCount);
  const paged = `limit=${options.pageSize}, whole traversal p50 ms`;
  return [
    { figure: 'create /s', scenario: 'create', metric: 'rate', higherIsBetter: true },
    { figure: 'create: server CPU µs / request', scenario: 'create', metric: 'serverCpuUsPerReq', higherIsBetter: false },
    { figure: 'consistent GET /s', scenario: 'get', metric: 'rate', higherIsBetter: true },
    { figure: 'GET: server CPU µs / request', scenario: 'get', metric: 'serverCpuUsPerReq', higherIsBetter: false },
    { figure: 'update (GET + PUT) /s', scenario: 'update', metric: 'rate', higherIsBetter: true },
    { figure: 'update: server CPU µs / request', scenario: 'update', metric: 'serverCpuUsPerReq', higherIsBetter: false },
    { figure: `LIST ${small} p50 ms`, scenario: 'list', metric: 'p50Ms', higherIsBetter: false },
    {
      figure: `${k(options.watchers)} watchers, p99 from write start ms`,
      scenario: 'watch',
      metric: 'p99FromStartMs',
      higherIsBetter: false,
    },
    { figure: `paged LIST ${small}, ${paged}`, scenario: `list-paged-${options.pageSize}`, metric: 'p50Ms', higherIsBetter: false },
    { figure: `RSS after LIST ${small} MB`, scenario: 'list', metric: 'rssAfterMB', higherIsBetter: false },
    { figure: `LIST ${big} p50 ms`, scenario: `list-${options.bigListCount}`, metric: 'p50Ms', higherIsBetter: false },
    {
      figure: `paged LIST ${big}, ${paged}`,
      scenario: `list-${options.bigListCount}-paged-${options.pageSize}`,
      metric: 'p50Ms',
      higherIsBetter: false,
    },
    { figure: `RSS after LIST ${big} MB`, scenario: `list-${options.bigListCount}`, metric: 'rssAfterMB', higherIsBetter: false },
    ...densityRows(options),
    ...podsScaleRows(options),
  ];
}

/** pods-150k's rows: per step the RSS, the RSS per Pod, LIST p50 and the WatchList; then the growth exponents. */
function podsScaleRows(options: BenchOptions): Row[] {
  const perStep = options.podsSteps.flatMap((n) => {
    const row = (figure: string, metric: string): Row => ({
      figure: `${stepLabel(n)} Pods: ${figure}`,
      scenario: `pods-${stepLabel(n)}`,
      metric,
      higherIsBetter: false,
    });
    return [
      row('RSS MB', 'rssMB'),
      row('RSS per Pod KB', 'rssPerPodKB'),
      row('LIST all p50 ms', 'listP50Ms'),
      row('WatchList to initial-events-end ms', 'watchListMs'),
      row('WatchList peak RSS MB', 'watchListPeakRssMB'),
    ];
  });
  const growth = (figure: string, metric: string): Row => ({
    figure: `Pods growth exponent: ${figure}`,
    scenario: 'pods-growth',
    metric,
    higherIsBetter: false,
  });
  return [...perStep, growth('RSS', 'rssExponent'), growth('LIST p50', 'listP50Exponent'), growth('WatchList', 'watchListExponent')];
}

/** density's rows: the run's time, Pod startup, the server's CPU and memory, the API call p99 per verb. */
function densityRows(options: BenchOptions): Row[] {
  const on = `density ${options.densityNodes} nodes × ${options.densityPods} Pods`;
  const row = (figure: string, metric: string): Row => ({ figure: `${on}: ${figure}`, scenario: 'density', metric, higherIsBetter: false });
  return [
    row('create → all Running s', 'allRunningS'),
    row('Pod startup p50 ms', 'startupP50Ms'),
    row('Pod startup p99 ms', 'startupP99Ms'),
    row('API server CPU s', 'serverCpuS'),
    row('API server peak RSS MB', 'serverPeakRssMB'),
    ...DENSITY_VERBS.map((verb) => row(`API ${verb} p99 ms`, `apiP99Ms_${verb}`)),
  ];
}

/** The row's figure; with several runs of its scenario (density --density-runs), their median. */
function value(results: ScenarioResult[], row: Row): number | undefined {
  const vs = results
    .filter((r) => r.scenario === row.scenario)
    .map((r) => r[row.metric])
    .filter((v): v is number => typeof v === 'number')
    .sort((a, b) => a - b);
  if (vs.length === 0) return undefined;
  const mid = vs.length >> 1;
  return vs.length % 2 ? vs[mid] : Math.round(((vs[mid - 1] + vs[mid]) / 2) * 100) / 100;
}

/** The ratio of an orch figure to the reference's, with "(better)" or "(worse)" when it differs. */
export function ratioCell(orch: number | undefined, reference: number | undefined, higherIsBetter: boolean): string {
  if (orch === undefined || reference === undefined || reference === 0) return '';
  const ratio = orch / reference;
  const text = `${ratio.toFixed(2)}×`;
  if (Math.abs(ratio - 1) < 0.005) return text;
  return `${text} (${ratio > 1 === higherIsBetter ? 'better' : 'worse'})`;
}

/** The markdown table comparing every orch server with the reference; rows no server measured are left out. */
export function formatComparison(servers: { name: string; results: ScenarioResult[] }[], options: BenchOptions): string {
  const reference = servers.find((s) => s.name === REFERENCE);
  const orch = servers.filter((s) => s.name !== REFERENCE && s.name.startsWith('orch-') && s.name !== 'orch-rbac');
  if (!reference) return '';
  const header = ['figure', REFERENCE, ...orch.flatMap((s) => [s.name, `${s.name} / kube`])];
  const lines = [header, header.map(() => '---')];
  const fmt = (n: number | undefined) => (n === undefined ? '' : n.toLocaleString('en-US'));
  for (const row of rows(options)) {
    const ref = value(reference.results, row);
    const cells = orch.flatMap((s) => {
      const v = value(s.results, row);
      return [fmt(v), ratioCell(v, ref, row.higherIsBetter)];
    });
    if (ref === undefined && cells.every((c) => c === '')) continue;
    lines.push([row.figure, fmt(ref), ...cells]);
  }
  return lines.map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

/**
 * The physical line beside each server: its create rate as a fraction of raw etcd puts (etcd-put) and
 * its GET CPU per request next to a bare Node TLS server's trivial answer (tls-get); empty when the
 * baselines did not run.
 */
export function formatPhysicalLine(servers: { name: string; results: ScenarioResult[] }[], baseline: ScenarioResult[]): string {
  const num = (list: ScenarioResult[], scenario: string, metric: string) => {
    const v = list.find((r) => r.scenario === scenario)?.[metric];
    return typeof v === 'number' ? v : undefined;
  };
  const put = num(baseline, 'etcd-put', 'rate');
  const bareCpu = num(baseline, 'tls-get', 'serverCpuUsPerReq');
  if (put === undefined && bareCpu === undefined) return '';
  const lines = [
    '| server | create /s | / raw etcd put | GET CPU µs / request | / bare TLS server |',
    '| --- | --- | --- | --- | --- |',
    `| baseline | ${put ?? ''} (etcd put) | 1.00 | ${bareCpu ?? ''} (bare TLS) | 1.00 |`,
  ];
  const fraction = (a: number | undefined, b: number | undefined) => (a !== undefined && b ? (a / b).toFixed(2) : '');
  for (const s of servers) {
    const create = num(s.results, 'create', 'rate');
    const getCpu = num(s.results, 'get', 'serverCpuUsPerReq');
    if (create === undefined && getCpu === undefined) continue;
    lines.push(`| ${s.name} | ${create ?? ''} | ${fraction(create, put)} | ${getCpu ?? ''} | ${fraction(getCpu, bareCpu)} |`);
  }
  return lines.join('\n');
}
