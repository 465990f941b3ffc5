import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import { PassThrough } from 'node:stream';
import { conflict } from '../../../../apiserver/api/status.js';
import { newLogger } from '../../../../apiserver/component-base/logs/logger.js';
import {
  enqueueChanges,
  runPeriodically,
  runQueueWorkers,
  waitForCacheSync,
} from '../../../../controllers/controllerutil/run-controller.js';
import { WorkQueue } from '../../../../controllers/workqueue/work-queue.js';
import { newFakeContext } from '../../../support/fake-controller-context.js';

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };
const cm = (name: string, rv = '1'): ApiObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'ns', uid: name, resourceVersion: rv },
});
const logger = newLogger({ logLevel: 'error' });

describe('controller wiring', () => {
  it('enqueues adds, updates and deletes by namespace/name, or only adds and updates', () => {
    const ctx = newFakeContext();
    const informer = ctx.informers.forResource(CONFIGMAPS);
    const all = new WorkQueue<string>();
    const noDeletes = new WorkQueue<string>();
    enqueueChanges(informer, all);
    enqueueChanges(informer, noDeletes, { deletes: false, keyOf: (o) => `key:${o.metadata.name}` });
    informer.add(cm('a'));
    informer.update(cm('b'));
    informer.delete(cm('c'));
    assert.equal(all.len(), 3);
    assert.equal(noDeletes.len(), 2);
  });

  it('waits for every cache before the first sync, and stops the workers when the signal aborts', async () => {
    const ctx = newFakeContext();
    const first = ctx.informers.forResource(CONFIGMAPS);
    const second = ctx.informers.forResource({ group: '', version: 'v1', resource: 'secrets' });
    const queue = new WorkQueue<string>();
    const synced: string[] = [];
    const order: string[] = [];
    const abort = new AbortController();
    queue.add('ns/a');
    const running = runQueueWorkers(
      abort.signal,
      {
        queue,
        sync: async (key: string) => {
          synced.push(key);
          if (key === 'ns/fail') throw new Error('boom');
        },
      },
      {
        informers: [first, second],
        workers: 2,
        onSynced: () => order.push('synced'),
        logger,
        failure: 'syncing a test object',
        itemField: 'key',
      },
    );
    first.replace([]);
    await new Promise((r) => setTimeout(r, 60));
    assert.deepEqual(synced, [], 'no sync before the second cache has synced');
    second.replace([]);
    for (let i = 0; i < 50 && synced.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(order, ['synced']);
    assert.deepEqual(synced, ['ns/a']);
    queue.add('ns/fail');
    for (let i = 0; i < 50 && synced.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(synced[1], 'ns/fail', 'a failure is logged, not thrown');
    abort.abort();
    await running;
    queue.add('ns/after');
    assert.equal(queue.len(), 0, 'the queue is shut down');
  });

  it('logs a failed sync as a warning, a Conflict (retried from a fresher cache) only at verbose', async () => {
    const ctx = newFakeContext();
    const informer = ctx.informers.forResource(CONFIGMAPS);
    informer.replace([]);
    const stream = new PassThrough();
    const lines: { level: string; key: string }[] = [];
    stream.on('data', (d: Buffer) => {
      for (const l of d.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l));
    });
    const queue = new WorkQueue<string>();
    const abort = new AbortController();
    const running = runQueueWorkers(
      abort.signal,
      {
        queue,
        sync: async (key: string) => {
          if (key === 'ns/conflict') throw conflict({ group: '', resource: 'configmaps' }, 'conflict', 'the object has been modified');
          if (key === 'ns/broken') throw new Error('boom');
        },
      },
      {
        informers: [informer],
        workers: 1,
        logger: newLogger({ logLevel: 'verbose' }, stream),
        failure: 'syncing a test object',
        itemField: 'key',
      },
    );
    queue.add('ns/conflict');
    queue.add('ns/broken');
    for (let i = 0; i < 100 && lines.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
    abort.abort();
    await running;
    assert.deepEqual(
      lines.slice(0, 2).map((l) => [l.key, l.level]),
      [
        ['ns/conflict', 'verbose'],
        ['ns/broken', 'warn'],
      ],
    );
  });

  it('returns without syncing when the signal aborts before the caches sync', async () => {
    const ctx = newFakeContext();
    const abort = new AbortController();
    const waiting = waitForCacheSync(abort.signal, [ctx.informers.forResource(CONFIGMAPS)]);
    abort.abort();
    assert.equal(await waiting, false);
  });

  it('runs a periodic pass after the caches sync, survives a failing pass and stops on abort', async () => {
    const ctx = newFakeContext();
    const informer = ctx.informers.forResource(CONFIGMAPS);
    informer.replace([]);
    const abort = new AbortController();
    let passes = 0;
    const running = runPeriodically(abort.signal, {
      informers: [informer],
      periodMs: 5,
      pass: async () => {
        passes++;
        if (passes === 1) throw new Error('first pass fails');
      },
      logger,
      failure: 'a test pass',
    });
    for (let i = 0; i < 100 && passes < 3; i++) await new Promise((r) => setTimeout(r, 10));
    abort.abort();
    await running;
    assert.ok(passes >= 3, `passes: ${passes}`);
  });
});
