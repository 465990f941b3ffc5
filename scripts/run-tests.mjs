#!/usr/bin/env node
// Runs every compiled test file (dist/test/**/*.test.js) with node's test runner.
// Arguments are substrings that select files: `node scripts/run-tests.mjs storage` runs the storage tests.
// Without arguments every test runs but the fault tests (test/faults/, long: they kill and restart
// processes) and the fuzz tests (test/fuzz/, minutes of random inputs); `--faults` runs the first
// (npm run test:faults), `--fuzz` the second (npm run test:fuzz).
// Compiled files whose test/**/*.test.ts is gone (moved or deleted; tsc leaves their output) are not run.
// At the end it lists the slowest files (scripts/slowest-files-reporter.mjs): `--slowest N` lists N
// (0: every file), default 15.
// `--concurrency N` (or ORCH_TEST_CONCURRENCY) runs N test files at once, default CONCURRENCY below.
// The run's test certificates are made once, in ORCH_TEST_PKI_DIR (test/support/test-pki.ts), and
// removed at the end.
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

function find(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...find(p));
    else if (name.endsWith('.test.js')) out.push(p);
  }
  return out;
}

/**
 * Test files run at once. Most wait on servers, etcd and child processes, so 3 keep two cores busier
 * than 2; 4 took as long as 3 on 2 cores (686 s against 685 s) with files up to twice as slow (the
 * bench smoke test near its 300 s limit), and before the shared test certificates 4 timed out
 * all-in-one starts that 2 did not.
 */
const CONCURRENCY = 3;
const SLOWEST_REPORTER = fileURLToPath(new URL('./slowest-files-reporter.mjs', import.meta.url));
const FAULTS = join('dist', 'test', 'faults');
const FUZZ = join('dist', 'test', 'fuzz');
const { concurrency, slowest, args } = parseArgs(process.argv.slice(2));
const filters = args.map((a) => (a === '--faults' ? FAULTS : a === '--fuzz' ? FUZZ : a));
const files = find('dist/test')
  .filter((f) => existsSync(f.slice('dist/'.length).replace(/\.js$/, '.ts')))
  .filter((f) => (filters.length === 0 ? !f.startsWith(FAULTS) && !f.startsWith(FUZZ) : filters.some((s) => f.includes(s))))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// spec for the results, then the slowest files once everything has run.
const reporters = [
  '--test-reporter=spec',
  '--test-reporter-destination=stdout',
  `--test-reporter=${SLOWEST_REPORTER}`,
  '--test-reporter-destination=stdout',
];
const pki = mkdtempSync(join(tmpdir(), 'orch-test-pki-'));
const r = spawnSync(process.execPath, ['--test', `--test-concurrency=${concurrency}`, ...reporters, ...files], {
  stdio: 'inherit',
  env: { ...process.env, ORCH_TEST_SLOWEST: String(slowest), ORCH_TEST_PKI_DIR: pki },
});
rmSync(pki, { recursive: true, force: true });
process.exit(r.status ?? 1);

/** `--concurrency N` and `--slowest N` (also as `--name=N`) out of the arguments; the rest are filters. */
function parseArgs(argv) {
  const opts = { concurrency: Number(process.env.ORCH_TEST_CONCURRENCY || CONCURRENCY), slowest: 15, args: [] };
  for (let i = 0; i < argv.length; i++) {
    const m = argv[i].match(/^--(concurrency|slowest)(?:=(.*))?$/);
    if (!m) {
      opts.args.push(argv[i]);
      continue;
    }
    const value = m[2] ?? argv[++i];
    if (!/^\d+$/.test(value ?? '')) {
      console.error(`--${m[1]} needs a whole number, not ${value}`);
      process.exit(2);
    }
    opts[m[1]] = Number(value);
  }
  if (!(opts.concurrency >= 1)) {
    console.error(`the concurrency must be at least 1, not ${opts.concurrency}`);
    process.exit(2);
  }
  return opts;
}
