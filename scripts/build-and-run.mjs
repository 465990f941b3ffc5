#!/usr/bin/env node
// `npm start` and `npm run cluster`: brings dist/ up to date, then runs dist/scripts/<script>.js in this
// process with the remaining arguments (node scripts/build-and-run.mjs all-in-one --data-dir DIR …).
//
// The build is `tsc -b`, whose up-to-date check (dist/tsconfig.tsbuildinfo against the sources'
// timestamps) takes well under a second when nothing changed, so a start does not recompile the
// whole tree (≈10 s) every time. It says what it does: "building…" when compiling takes a moment,
// then how long it took, or that dist/ was up to date. A failed build stops here with tsc's errors.
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const script = process.argv[2];
if (!script || !/^[\w-]+$/.test(script)) {
  process.stderr.write('usage: node scripts/build-and-run.mjs <script in scripts/, e.g. all-in-one> [its flags]\n');
  process.exit(2);
}
const buildInfo = join(root, 'dist', 'tsconfig.tsbuildinfo');
const stamp = () => (existsSync(buildInfo) ? statSync(buildInfo).mtimeMs : 0);
const say = (line) => process.stdout.write(`build: ${line}\n`);

const before = stamp();
const began = Date.now();
const code = await new Promise((resolve) => {
  const tsc = spawn(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', root], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // An up-to-date check answers within a second; only a real compile is announced.
  const announce = setTimeout(() => say('building (tsc -b: only what changed since the last build)…'), 1000);
  tsc.once('exit', (c, signal) => {
    clearTimeout(announce);
    resolve(c ?? (signal ? 1 : 0));
  });
});
if (code !== 0) {
  process.stderr.write(`build: tsc -b failed (exit code ${code}); nothing started\n`);
  process.exit(code);
}
// The console's bundle (esbuild, well under a second), which tsc does not make.
await import('./build-console.mjs');
const took = `${((Date.now() - began) / 1000).toFixed(1)}s`;
say(stamp() === before ? `dist/ is up to date (checked in ${took})` : `built in ${took}`);

// The script reads its flags from process.argv.slice(2): drop this launcher's own argument.
const target = join(root, 'dist', 'scripts', `${script}.js`);
process.argv.splice(1, 2, target);
await import(pathToFileURL(target).href);
