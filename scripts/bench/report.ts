/** The benchmark's output: a JSON line per scenario as it finishes, then a table and the targets. */
import type { ScenarioResult } from './workload.js';

export interface TargetResults {
  target: string;
  results: ScenarioResult[];
}

/** Prints one scenario's JSON line. */
export function printJsonLine(target: string, result: ScenarioResult): void {
  process.stdout.write(`${JSON.stringify({ target, ...result })}\n`);
}

const MAIN_COLUMNS = ['rate', 'p50Ms', 'p99Ms'];

/** The table of every result, one row per (target, scenario). */
export function formatTable(all: TargetResults[]): string {
  const rows = [['target', 'scenario', 'rate/s', 'p50 ms', 'p99 ms', 'other']];
  for (const { target, results } of all) {
    for (const r of results) {
      const other = Object.entries(r)
        .filter(([k]) => k !== 'scenario' && !MAIN_COLUMNS.includes(k) && k !== 'seconds')
        .map(([k, v]) => `${k}=${v}`)
        .join(' ');
      rows.push([target, r.scenario, String(r.rate ?? ''), String(r.p50Ms ?? ''), String(r.p99Ms ?? ''), other]);
    }
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]))).join('  ')).join('\n');
}

/** The targets checked against one server's results (and the etcd baseline, when run). */
export function formatTargets(target: string, results: ScenarioResult[], baseline: ScenarioResult[]): string {
  const find = (list: ScenarioResult[], name: string) => list.find((r) => r.scenario === name);
  const num = (r: ScenarioResult | undefined, k: string) => (r && typeof r[k] === 'number' ? (r[k] as number) : undefined);
  const lines: string[] = [];
  const check = (label: string, value: number | undefined, goal: string, ok: (v: number) => boolean) => {
    if (value === undefined) return;
    lines.push(`  ${ok(value) ? 'met   ' : 'MISSED'} ${label}: ${value} (target ${goal})`);
  };
  const ratio = (a: number | undefined, b: number | undefined) => (a !== undefined && b ? Number((a / b).toFixed(2)) : undefined);
  check(
    'create / etcd-put',
    ratio(num(find(results, 'create'), 'rate'), num(find(baseline, 'etcd-put'), 'rate')),
    '>= 0.65',
    (v) => v >= 0.65,
  );
  check(
    'consistent get / etcd-get',
    ratio(num(find(results, 'get'), 'rate'), num(find(baseline, 'etcd-get'), 'rate')),
    '>= 1.0',
    (v) => v >= 1,
  );
  const list = find(results, 'list');
  check('list p50 ms', num(list, 'p50Ms'), '<= 300', (v) => v <= 300);
  check('list RSS growth / response size', ratio(num(list, 'rssGrowthMB'), num(list, 'responseMB')), '<= 3', (v) => v <= 3);
  const watch = find(results, 'watch');
  check('watch p99 ms after ack', num(watch, 'p99Ms'), '<= 100', (v) => v <= 100);
  check('watch events lost', num(watch, 'lost'), '0', (v) => v === 0);
  check('RBAC get latency / system:masters get latency', num(find(results, 'rbac-get'), 'costVsMasters'), '<= 1.1', (v) => v <= 1.1);
  for (const verb of ['get', 'create'])
    check(
      `${verb} p50 latency --console / --console=false`,
      num(find(results, `${verb}-console-on`), 'p50VsOff'),
      '<= 1.05',
      (v) => v <= 1.05,
    );
  check(
    'server CPU an idle open overview adds, % of a core',
    num(find(results, 'console-idle-overview'), 'overviewCpuPct'),
    '<= 1',
    (v) => v <= 1,
  );
  const podsGrowth = find(results, 'pods-growth');
  check('pods: RSS growth exponent (linear = 1)', num(podsGrowth, 'rssExponent'), '<= 1.1', (v) => v <= 1.1);
  check('pods: LIST p50 growth exponent (linear = 1)', num(podsGrowth, 'listP50Exponent'), '<= 1.1', (v) => v <= 1.1);
  return lines.length ? `${target}:\n${lines.join('\n')}` : '';
}
