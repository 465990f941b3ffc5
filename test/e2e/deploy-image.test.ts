/**
 * End to end, without a Docker engine (none on the machines the tests run on): deploy/Dockerfile
 * read as Docker would — stages, COPY sources against the build context and its .dockerignore, the
 * runtime stage's user, entrypoint, command and health check — and its runtime stage laid out in a
 * temporary directory exactly as its COPY and RUN ln lines say, from which the entrypoint and CMD
 * start an API server that the image's health check finds live. What the runtime stage runs imports
 * production dependencies only (it gets `npm ci --omit=dev`).
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { builtinModules } from 'node:module';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { checkCommandLine } from '../support/deploy-command-lines.js';
import { freePort } from '../support/free-ports.js';
import { run, startProcess } from '../support/processes.js';
import { eventually } from '../support/eventually.js';

interface Instruction {
  op: string;
  args: string;
  line: number;
}

interface Stage {
  from: string;
  name?: string;
  instructions: Instruction[];
}

function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i];
    const at = i + 1;
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    while (line.endsWith('\\') && i + 1 < lines.length) line = `${line.slice(0, -1)} ${lines[++i].trim()}`;
    const m = /^\s*([A-Z]+)\s+(.*)$/.exec(line);
    assert.ok(m, `Dockerfile:${at}: not an instruction: ${line}`);
    const [, op, args] = m;
    if (op === 'FROM') {
      const from = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args.trim());
      assert.ok(from, `Dockerfile:${at}: FROM ${args}`);
      stages.push({ from: from[1], name: from[2], instructions: [] });
    } else if (op === 'ARG' && stages.length === 0) {
      // global build arguments
    } else {
      assert.ok(stages.length > 0, `Dockerfile:${at}: ${op} before FROM`);
      stages.at(-1)!.instructions.push({ op, args: args.trim(), line: at });
    }
  }
  return stages;
}

const DOCKERFILE = 'deploy/Dockerfile';
const stages = parseDockerfile(readFileSync(DOCKERFILE, 'utf8'));
const runtime = stages.at(-1)!;
const ignore = readFileSync('deploy/Dockerfile.dockerignore', 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const of = (stage: Stage, op: string) => stage.instructions.filter((i) => i.op === op);
const execForm = (i: Instruction | undefined): string[] => {
  assert.ok(i, 'instruction present');
  const argv = JSON.parse(i.args.replace(/^(CMD\s+)/, ''));
  assert.ok(Array.isArray(argv), `${i.op} in exec (JSON) form`);
  return argv;
};

/** Relative imports and bare package names of a compiled module and everything it imports, transitively. */
function packagesImported(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(
      /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm,
    )) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec));
      else if (!spec.startsWith('node:') && !builtinModules.includes(spec)) {
        packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
      }
    }
  };
  for (const e of entries) visit(resolve(e));
  return packages;
}

describe('deploy/Dockerfile', () => {
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('is multi-stage: a build stage with the dev dependencies and tsc, production dependencies only in the runtime stage', () => {
    assert.ok(stages.length >= 2, 'more than one stage');
    const names = stages.map((s) => s.name);
    const build = stages.find((s) => of(s, 'RUN').some((r) => /\btsc\b/.test(r.args)));
    assert.ok(build?.name, 'a named stage runs tsc');
    assert.ok(
      of(build, 'RUN').some((r) => /npm ci(?![^&]*--omit=dev)/.test(r.args)),
      'the build stage installs the dev dependencies',
    );
    assert.ok(!of(runtime, 'RUN').some((r) => /\bnpm (ci|install)\b/.test(r.args)), 'the runtime stage installs nothing itself');
    for (const copy of of(runtime, 'COPY')) {
      const from = /--from=(\S+)/.exec(copy.args)?.[1];
      if (!from) continue;
      assert.ok(names.includes(from), `COPY --from=${from} names a stage`);
      const stage = stages.find((s) => s.name === from)!;
      if (copy.args.includes('node_modules')) {
        assert.ok(
          of(stage, 'RUN').some((r) => r.args.includes('npm ci --omit=dev')),
          `${from} installs production dependencies only`,
        );
      }
    }
    assert.match(runtime.from, /-slim$/, 'the runtime stage is on a slim base');
    assert.equal(runtime.from.replace(/-slim$/, ''), stages[0].from, 'the same Node and Debian release as the build (native modules)');
  });

  it('the runtime stage runs as node, starts orch-apiserver (not --help) and checks its health', async () => {
    assert.equal(of(runtime, 'USER').at(-1)?.args, 'node');
    const entrypoint = execForm(of(runtime, 'ENTRYPOINT').at(-1));
    const cmd = execForm(of(runtime, 'CMD').at(-1));
    assert.ok(![...entrypoint, ...cmd].includes('--help'));
    assert.equal(await checkCommandLine([...entrypoint, ...cmd], 'ENTRYPOINT + CMD'), 'orch-apiserver');
    assert.match(of(runtime, 'HEALTHCHECK').at(-1)?.args ?? '', /CMD \["node", "\/opt\/orch\/deploy\/healthcheck\.mjs"\]/);
    assert.ok(of(runtime, 'VOLUME').some((v) => v.args === '/var/lib/orch'));
    assert.ok(of(runtime, 'EXPOSE').some((v) => v.args === '6443'));
  });

  it('copies from the build context only what exists and .dockerignore lets through', () => {
    for (const stage of stages) {
      for (const copy of of(stage, 'COPY')) {
        if (copy.args.includes('--from=')) continue;
        const parts = copy.args.split(/\s+/);
        for (const src of parts.slice(0, -1)) {
          if (src === '.') continue;
          assert.ok(existsSync(src), `Dockerfile:${copy.line}: ${src} is not in the build context`);
          assert.ok(!ignore.some((p) => src === p || src.startsWith(`${p}/`)), `Dockerfile:${copy.line}: ${src} is ignored`);
        }
      }
    }
  });

  it('what the runtime stage runs imports production dependencies only', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
    const entries = [
      ...Object.values(pkg.bin as Record<string, string>),
      'dist/scripts/all-in-one.js',
      'deploy/init-cluster.mjs',
      'deploy/healthcheck.mjs',
    ];
    const packages = packagesImported(entries);
    for (const p of ['express', 'better-sqlite3', 'winston']) assert.ok(packages.has(p), `the import walk finds ${p}`);
    for (const p of packages) assert.ok(pkg.dependencies[p], `${p} is imported at run time but not a production dependency`);
  });

  it("laid out as its runtime stage says, the entrypoint and CMD serve, and the image's health check sees it live", async () => {
    // The runtime stage's COPY lines (node_modules: this checkout's) and its RUN ln -s lines.
    const root = mkdtempSync(join(tmpdir(), 'orch-image-'));
    dirs.push(root);
    const opt = join(root, 'opt', 'orch');
    mkdirSync(opt, { recursive: true });
    for (const copy of of(runtime, 'COPY')) {
      const parts = copy.args.split(/\s+/).filter((p) => !p.startsWith('--'));
      const dest = parts.at(-1)!;
      for (const src of parts.slice(0, -1)) {
        const from = copy.args.includes('--from=') ? src.replace(/^\/src\//, '') : src;
        const to = dest.endsWith('/') ? join(opt, dest, from.split('/').pop()!) : join(opt, dest === './' ? from : dest);
        if (from === 'node_modules') symlinkSync(realpathSync('node_modules'), to);
        else cpSync(from, to, { recursive: true });
      }
    }
    const links = [...of(runtime, 'RUN').flatMap((r) => [...r.args.matchAll(/ln -s (\S+) (\S+)/g)])];
    assert.equal(links.length, 4);
    for (const [, target] of links) assert.ok(existsSync(join(root, target)), `${target} is in the image`);
    const entrypoint = execForm(of(runtime, 'ENTRYPOINT').at(-1)).map((a) => (a.startsWith('/opt/') ? join(root, a) : a));
    const volume = join(root, 'var', 'lib', 'orch');
    const cmd = execForm(of(runtime, 'CMD').at(-1)).map((a) => a.replace('/var/lib/orch', volume));
    // The documented first step: the cluster files in the volume.
    const init = await run(process.execPath, [join(opt, 'deploy', 'init-cluster.mjs'), volume]);
    assert.equal(init.code, 0, init.stderr);
    assert.ok(existsSync(join(volume, 'certs', 'front-proxy', 'proxy-client.crt')));
    const port = await freePort();
    const server = startProcess(process.execPath, [...entrypoint.slice(1), ...cmd, `--secure-port=${port}`, '--bind-address=127.0.0.1']);
    try {
      const health = () =>
        run(process.execPath, [join(opt, 'deploy', 'healthcheck.mjs')], {
          env: { ORCH_HEALTHCHECK_URL: `https://127.0.0.1:${port}/livez` },
        });
      await eventually('the health check passing', async () => (await health()).code === 0 || server.child.exitCode !== null, 60_000);
      assert.equal(server.child.exitCode, null, server.output());
      assert.match(server.output(), /"msg":"serving securely","component":"orch-apiserver"/);
      assert.ok(existsSync(join(volume, 'state.db')), 'the embedded store in the volume');
      for (const [, target] of links.filter(([, t]) => !t.endsWith('apiserver.js'))) {
        const help = await run(process.execPath, [join(root, target), '--help']);
        assert.equal(help.code, 0, `${relative(root, join(root, target))} --help: ${help.stderr}`);
      }
      // The admin kubeconfig init wrote works against it (RBAC, the token of tokens.csv).
      const kubeconfig = join(volume, 'admin.kubeconfig');
      const text = readFileSync(kubeconfig, 'utf8').replace('https://127.0.0.1:6443', `https://127.0.0.1:${port}`);
      writeFileSync(kubeconfig, text);
      const ns = await run('/usr/bin/kubectl', ['--kubeconfig', kubeconfig, 'get', 'ns', 'default', '-o', 'name']);
      assert.equal(ns.stdout.trim(), 'namespace/default', ns.stderr);
    } finally {
      await server.stop();
    }
    const down = await run(process.execPath, [join(opt, 'deploy', 'healthcheck.mjs')], {
      env: { ORCH_HEALTHCHECK_URL: `https://127.0.0.1:${port}/livez` },
    });
    assert.equal(down.code, 1, 'a stopped server is unhealthy');
  });
});
