import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FlushScheduler } from '../../../../apiserver/storage/cacher/flush-scheduler.js';

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

/**
 * Waits for the first flush (run from setImmediate) and its end (a nextTick after it): an immediate
 * queued after the scheduler's runs after both. A timer would not do: on a loaded machine it can
 * expire before the check phase, so the second add would land before the first flush.
 */
async function firstFlushDone(times: number[]): Promise<void> {
  await new Promise((r) => setImmediate(r));
  assert.equal(times.length, 1, 'the first flush ran');
}

/** Waits until `count` flushes ran (the scheduler's timer may fire late on a loaded machine), at most 5 s. */
async function flushCount(times: number[], count: number): Promise<void> {
  const deadline = performance.now() + 5000;
  while (times.length < count && performance.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  assert.equal(times.length, count);
}

test('flushes each added watcher once, on the next turn of the event loop', async () => {
  const scheduler = new FlushScheduler();
  const flushed: string[] = [];
  const a = { flush: () => flushed.push('a') };
  const b = { flush: () => flushed.push('b') };
  scheduler.add(a);
  scheduler.add(b);
  scheduler.add(a);
  assert.deepEqual(flushed, []);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(flushed, ['a', 'b']);
  scheduler.add(b);
  scheduler.delete(b);
  await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(flushed, ['a', 'b']);
});

test('after a long flush, waits `spacing` times its duration before the next one', async () => {
  const scheduler = new FlushScheduler(2, 1000);
  const times: number[] = [];
  const slow = {
    flush: () => {
      times.push(performance.now());
      busy(20);
    },
  };
  scheduler.add(slow);
  await firstFlushDone(times);
  scheduler.add(slow);
  await flushCount(times, 2);
  assert.ok(times[1] - times[0] >= 20 + 40 - 2, `second flush after ${times[1] - times[0]} ms`);
});

test('never holds a batch back longer than maxDelayMs', async () => {
  // The scheduler's own decision is asserted (the timer it asks for), not wall-clock gaps, which a
  // loaded machine stretches however short the requested delay.
  const requested: number[] = [];
  const realSetTimeout = globalThis.setTimeout;
  const recording = ((fn: () => void, ms?: number) => {
    requested.push(ms ?? 0);
    return realSetTimeout(fn, ms);
  }) as typeof setTimeout;
  const scheduler = new FlushScheduler(100, 10);
  const times: number[] = [];
  const slow = {
    flush: () => {
      times.push(performance.now());
      busy(20);
    },
  };
  scheduler.add(slow);
  await firstFlushDone(times);
  globalThis.setTimeout = recording;
  try {
    scheduler.add(slow);
  } finally {
    globalThis.setTimeout = realSetTimeout;
  }
  // 100 × a 20 ms flush would be 2 s; the cap holds it to 10 ms.
  assert.deepEqual(requested, [10]);
  await flushCount(times, 2);
  assert.ok(times[1] - times[0] >= 20 + 10 - 2, `second flush after ${times[1] - times[0]} ms`);
});
