#!/usr/bin/env node
// Runs every compiled test file (dist/test/**/*.test.js) with node's test runner.
// Arguments are substrings that select files: `node scripts/run-tests.mjs storage` runs the storage tests.
// Without arguments every test runs but the fault tests (test/faults/, long: they kill and restart
// processes) and the fuzz tests (test/fuzz/, minutes of random inputs); `--faults` runs the first
// (npm run test:faults), `--fuzz` the second (npm run test:fuzz).
// Compiled files whose test/**/*.test.ts is gone (moved or deleted; tsc leaves their output) are not run.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function find(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...find(p));
    else if (name.endsWith('.test.js')) out.push(p);
  }
  return out;
}

const FAULTS = join('dist', 'test', 'faults');
const FUZZ = join('dist', 'test', 'fuzz');
const args = process.argv.slice(2);
const filters = args.map((a) => (a === '--faults' ? FAULTS : a === '--fuzz' ? FUZZ : a));
const files = find('dist/test')
  .filter((f) => existsSync(f.slice('dist/'.length).replace(/\.js$/, '.ts')))
  .filter((f) => (filters.length === 0 ? !f.startsWith(FAULTS) && !f.startsWith(FUZZ) : filters.some((s) => f.includes(s))))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const r = spawnSync(process.execPath, ['--test', '--test-concurrency=2', '--test-reporter=spec', ...files], { stdio: 'inherit' });
process.exit(r.status ?? 1);
