import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { WorkQueue } from '../../../../controllers/workqueue/work-queue.js';
import { runWorkers } from '../../../../controllers/workqueue/run-workers.js';
import {
  BucketRateLimiter,
  ItemExponentialFailureRateLimiter,
  MaxOfRateLimiter,
  type RateLimiter,
} from '../../../../controllers/workqueue/rate-limiters.js';

/** A limiter that always asks for `ms`. */
const fixed = <T>(ms: number): RateLimiter<T> => ({ when: () => ms, forget: () => {}, numRequeues: () => 0 });

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

describe('WorkQueue', () => {
  it('hands items out in order and de-duplicates waiting ones', async () => {
    const q = new WorkQueue<string>();
    q.add('a');
    q.add('b');
    q.add('a');
    assert.equal(q.len(), 2);
    assert.equal(await q.get(), 'a');
    assert.equal(await q.get(), 'b');
    assert.equal(q.len(), 0);
  });

  it('keeps an item added while it is processed until done(), then queues it once', async () => {
    const q = new WorkQueue<string>();
    q.add('a');
    const item = await q.get();
    q.add('a');
    q.add('a');
    assert.equal(q.len(), 0, 'not handed to a second worker while processing');
    q.done(item!);
    assert.equal(q.len(), 1);
    assert.equal(await q.get(), 'a');
    q.done('a');
    assert.equal(q.len(), 0);
  });

  it('wakes a waiting get() on add, and resolves undefined after shutDown', async () => {
    const q = new WorkQueue<string>();
    const waiting = q.get();
    q.add('x');
    assert.equal(await waiting, 'x');
    const pending = q.get();
    q.shutDown();
    assert.equal(await pending, undefined);
    q.add('y');
    assert.equal(q.len(), 0, 'adds are refused after shutDown');
    assert.equal(await q.get(), undefined);
  });

  it('addAfter queues later, and the earliest of two requests wins', async () => {
    const q = new WorkQueue<string>();
    q.addAfter('a', 200);
    q.addAfter('a', 20);
    q.addAfter('a', 300);
    assert.equal(q.len(), 0);
    await tick(60);
    assert.equal(q.len(), 1);
    await q.get();
    q.done('a');
    await tick(250);
    assert.equal(q.len(), 0, 'the later requests were dropped');
  });

  it('addRateLimited waits for the limiter; forget resets the per-item backoff', async () => {
    const limiter = new ItemExponentialFailureRateLimiter<string>(10, 1000);
    const q = new WorkQueue<string>({ rateLimiter: limiter });
    q.addRateLimited('a');
    q.addRateLimited('a');
    assert.equal(q.numRequeues('a'), 2);
    await tick(40);
    assert.equal(await q.get(), 'a');
    q.forget('a');
    assert.equal(q.numRequeues('a'), 0);
  });

  it('compares object items by identity', async () => {
    const q = new WorkQueue<{ n: number }>();
    const a = { n: 1 };
    q.add(a);
    q.add(a);
    q.add({ n: 1 });
    assert.equal(q.len(), 2);
  });

  it('reports adds, depth and retries to its metrics', () => {
    const seen: string[] = [];
    const q = new WorkQueue<string>({
      rateLimiter: fixed(5),
      metrics: { added: () => seen.push('add'), depth: (n) => seen.push(`depth ${n}`), retried: () => seen.push('retry') },
    });
    q.add('a');
    q.add('a');
    q.addRateLimited('b');
    assert.deepEqual(seen, ['add', 'depth 1', 'retry']);
    q.shutDown();
  });
});

describe('runWorkers', () => {
  it('forgets successes, retries failures rate limited, honours requeueAfterMs, and stops on shutDown', async () => {
    const q = new WorkQueue<string>({ rateLimiter: fixed(5) });
    const calls: string[] = [];
    const errors: string[] = [];
    let failOnce = true;
    const done = runWorkers(
      q,
      2,
      async (item) => {
        calls.push(item);
        if (item === 'flaky' && failOnce) {
          failOnce = false;
          throw new Error('boom');
        }
        if (item === 'later' && calls.filter((c) => c === 'later').length === 1) return { requeueAfterMs: 20 };
      },
      (item, err) => errors.push(`${item}: ${(err as Error).message}`),
    );
    q.add('ok');
    q.add('flaky');
    q.add('later');
    await tick(80);
    q.shutDown();
    await done;
    assert.deepEqual(
      calls.filter((c) => c === 'ok'),
      ['ok'],
    );
    assert.deepEqual(
      calls.filter((c) => c === 'flaky'),
      ['flaky', 'flaky'],
    );
    assert.deepEqual(
      calls.filter((c) => c === 'later'),
      ['later', 'later'],
    );
    assert.deepEqual(errors, ['flaky: boom']);
  });
});

describe('rate limiters', () => {
  it('exponential: base doubling per failure up to the cap, per item', () => {
    const l = new ItemExponentialFailureRateLimiter<string>(5, 30);
    assert.deepEqual([l.when('a'), l.when('a'), l.when('a'), l.when('a'), l.when('b')], [5, 10, 20, 30, 5]);
    assert.equal(l.numRequeues('a'), 4);
    l.forget('a');
    assert.equal(l.when('a'), 5);
  });

  it('bucket: burst for free, then 1/qps apart, refilling with time', () => {
    let now = 0;
    const l = new BucketRateLimiter<string>(10, 2, () => now);
    assert.deepEqual([l.when('x'), l.when('y')], [0, 0]);
    assert.equal(l.when('z'), 100);
    assert.equal(l.when('z'), 200);
    now = 1000;
    assert.equal(l.when('z'), 0);
  });

  it('max-of: the longest delay of its limiters', () => {
    const now = 0;
    const l = new MaxOfRateLimiter<string>(new ItemExponentialFailureRateLimiter(5, 1000), new BucketRateLimiter(1, 1, () => now));
    assert.equal(l.when('a'), 5);
    assert.equal(l.when('a'), 1000);
    assert.equal(l.numRequeues('a'), 2);
  });
});
