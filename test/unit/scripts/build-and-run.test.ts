/**
 * scripts/build-and-run.mjs (npm start, npm run cluster) on a one-file project of its own: it builds
 * what changed, skips the build when dist/ is up to date, passes the flags on, and starts nothing when
 * the build fails.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../support/processes.js';

test('builds once, then starts without building while nothing changed; a change rebuilds; a failed build starts nothing', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'orch-build-and-run-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await mkdir(join(dir, 'scripts'));
  await copyFile('scripts/build-and-run.mjs', join(dir, 'scripts', 'build-and-run.mjs'));
  // build-and-run.mjs also runs the console's bundle step; this project has no console.
  await writeFile(join(dir, 'scripts', 'build-console.mjs'), '// no console in this project\n');
  await symlink(await realpath('node_modules'), join(dir, 'node_modules'));
  await writeFile(join(dir, 'package.json'), '{"type":"module"}\n');
  await writeFile(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', types: ['node'], strict: true, outDir: 'dist', rootDir: '.' },
      include: ['scripts/**/*.ts'],
    }),
  );
  const hello = join(dir, 'scripts', 'hello.ts');
  await writeFile(hello, "console.log('hello', process.argv.slice(2).join(' '), 'from', process.argv[1].split('/').pop());\n");
  const start = () => run(process.execPath, [join(dir, 'scripts', 'build-and-run.mjs'), 'hello', '--data-dir', 'x']);

  const first = await start();
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /^(build: building .*\n)?build: built in \d+\.\ds\n/);
  assert.match(first.stdout, /hello --data-dir x from hello\.js\n$/);

  const second = await start();
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stdout, /^build: dist\/ is up to date \(checked in \d+\.\ds\)\nhello --data-dir x from hello\.js\n$/);

  await writeFile(hello, "console.log('changed');\n");
  const third = await start();
  assert.match(third.stdout, /build: built in .*\nchanged\n$/);

  await writeFile(hello, "const n: number = 'not a number';\nconsole.log(n);\n");
  const broken = await start();
  assert.notEqual(broken.code, 0);
  assert.match(broken.stderr, /tsc -b failed \(exit code \d+\); nothing started/);
  assert.doesNotMatch(broken.stdout, /^(changed|not a number)$/m, 'the old or the broken output ran');
});
