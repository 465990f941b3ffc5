/**
 * `npm run bench -- --scenario pods-150k`, scaled down to two small steps against orch on etcd: a
 * JSON line per step with its figures and one with the growth exponents (the real figures come
 * from the full run, by hand).
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

it('creates Pods up to each step and reports RSS, LIST p50, the WatchList and the growth', async () => {
  const args = ['--scenario', 'pods-150k', '--pods-steps', '40,120', '--concurrency', '8'];
  const { stdout } = await promisify(execFile)(process.execPath, ['dist/scripts/bench.js', ...args], { timeout: 180_000 });
  const lines = stdout
    .split('\n')
    .filter((l) => l.startsWith('{"target"'))
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    lines.map((l) => `${l.target} ${l.scenario}`),
    ['orch-etcd pods-40', 'orch-etcd pods-120', 'orch-etcd pods-growth'],
  );
  for (const [i, pods] of [40, 120].entries()) {
    const r = lines[i];
    assert.equal(r.pods, pods);
    for (const k of ['rssMB', 'rssBeforeMB', 'listP50Ms', 'listMB', 'watchListMs', 'watchListPeakRssMB', 'createRate'])
      assert.ok(typeof r[k] === 'number' && r[k] >= 0, `${k}: ${r[k]}`);
    assert.ok(r.rssMB > 0 && r.watchListPeakRssMB > 0);
  }
  assert.ok(lines[1].listMB > lines[0].listMB, 'the LIST of 120 Pods is bigger than that of 40');
  const growth = lines[2];
  assert.deepEqual([growth.from, growth.to], [40, 120]);
  assert.equal(typeof growth.listP50Exponent, 'number');
});
