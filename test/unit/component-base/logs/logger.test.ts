import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { newLogger, setLogComponent } from '../../../../apiserver/component-base/logs/logger.js';

function capture(level: string) {
  const stream = new PassThrough();
  const lines: Record<string, unknown>[] = [];
  stream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
  });
  return { logger: newLogger({ logLevel: level }, stream), lines };
}

test('one JSON line per entry with ts, level, msg and fields', async () => {
  const { logger, lines } = capture('info');
  logger.info('listening', { port: 6443, err: new Error('boom') });
  await new Promise((r) => setImmediate(r));
  assert.equal(lines.length, 1);
  const [entry] = lines;
  assert.deepEqual(Object.keys(entry).slice(0, 3), ['ts', 'level', 'msg']);
  assert.ok(!Number.isNaN(Date.parse(String(entry.ts))));
  assert.equal(entry.level, 'info');
  assert.equal(entry.msg, 'listening');
  assert.equal(entry.port, 6443);
  assert.equal(entry.err, 'boom');
});

test('entries below the level are dropped', async () => {
  const { logger, lines } = capture('info');
  logger.debug('hidden');
  logger.warn('shown');
  const verbose = capture('debug');
  verbose.logger.debug('visible');
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(
    lines.map((l) => l.msg),
    ['shown'],
  );
  assert.deepEqual(
    verbose.lines.map((l) => l.msg),
    ['visible'],
  );
});

test("every line names the process's component (setLogComponent) right after msg, unless the entry names its own", async (t) => {
  t.after(() => setLogComponent(undefined));
  const { logger, lines } = capture('info');
  logger.info('before');
  setLogComponent('orch-apiserver');
  logger.info('after', { port: 1 });
  logger.info('own', { component: 'cacher' });
  await new Promise((r) => setImmediate(r));
  assert.equal(lines[0].component, undefined);
  assert.deepEqual(Object.keys(lines[1]).slice(0, 4), ['ts', 'level', 'msg', 'component']);
  assert.equal(lines[1].component, 'orch-apiserver');
  assert.equal(lines[2].component, 'cacher');
});
