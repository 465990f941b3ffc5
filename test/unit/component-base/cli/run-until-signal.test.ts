import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MODULE = fileURLToPath(new URL('../../../../apiserver/component-base/cli/run-until-signal.js', import.meta.url));

/** Runs `body` (the start function's body) under runUntilSignal in a child; sends `signals` once it printed "started" (after start resolved). */
function run(body: string, signals: NodeJS.Signals[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // The interval stands for the server that keeps a binary's event loop busy.
  const script = `import { runUntilSignal } from ${JSON.stringify(MODULE)};\nsetInterval(() => {}, 1000);\nawait runUntilSignal('demo', async () => {${body}});`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.on('data', (d) => {
    stdout += d;
    if (stdout.includes('started') && signals.length > 0) for (const s of signals.splice(0)) child.kill(s);
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('runUntilSignal', () => {
  it('stops once on SIGTERM, however many signals come, and exits 0', async () => {
    const r = await run(
      "let n = 0; setTimeout(() => console.log('started'), 20); return { close: async () => { n++; await new Promise((r) => setTimeout(r, 200)); console.log('closed', n); } };",
      ['SIGTERM', 'SIGINT', 'SIGTERM'],
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /closed 1\n$/);
  });

  it('exits 1 with the reason when stopping fails', async () => {
    const r = await run("setTimeout(() => console.log('started'), 20); return { close: async () => { throw new Error('stuck'); } };", [
      'SIGINT',
    ]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'demo: shutdown failed: stuck\n');
  });

  it('exits 1 with the reason when starting fails', async () => {
    const r = await run("throw new Error('port in use');");
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'demo: port in use\n');
  });

  it('exits 1 when what it runs ends as failed (a lost leader lease)', async () => {
    const r = await run('return { close: async () => {}, failed: new Promise((r) => setTimeout(() => r(true), 50)) };');
    assert.equal(r.code, 1);
  });
});
