import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StorageEvent } from '../../../apiserver/storage/interfaces.js';
import { WatchSink } from '../../../apiserver/storage/watch-sink.js';

function event(revision: number): StorageEvent {
  const kv = { key: `/k${revision}`, value: Buffer.from(String(revision)), createRevision: revision, modRevision: revision };
  return { type: 'put', kv };
}

function recordingSink(onEvent: (e: StorageEvent) => void = () => {}) {
  const log: string[] = [];
  let releases = 0;
  const sink = new WatchSink(
    {
      onEvent: (e) => {
        log.push(`event ${e.kv.modRevision}`);
        onEvent(e);
      },
      onError: (err) => log.push(`error ${err.message}`),
    },
    () => releases++,
  );
  return { sink, log, releases: () => releases };
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('WatchSink: delivers asynchronously and in order', async () => {
  const { sink, log } = recordingSink();
  sink.push(event(1));
  sink.push(event(2));
  assert.deepEqual(log, []);
  await tick();
  sink.push(event(3));
  await tick();
  assert.deepEqual(log, ['event 1', 'event 2', 'event 3']);
});

test('WatchSink: fail delivers the events pushed before, then the error once, then nothing', async () => {
  const { sink, log, releases } = recordingSink();
  sink.push(event(1));
  sink.fail(new Error('first'));
  sink.fail(new Error('second'));
  sink.push(event(2));
  assert.equal(sink.closed, true);
  assert.equal(releases(), 1);
  await tick();
  sink.stop();
  await tick();
  assert.deepEqual(log, ['event 1', 'error first']);
  assert.equal(releases(), 1);
});

test('WatchSink: stop drops queued events, releases once and reports no error', async () => {
  const { sink, log, releases } = recordingSink();
  sink.push(event(1));
  sink.stop();
  sink.stop();
  sink.fail(new Error('late'));
  await tick();
  assert.deepEqual(log, []);
  assert.equal(releases(), 1);
});

test('WatchSink: a stop from inside a handler ends delivery at once', async () => {
  const { sink, log } = recordingSink(() => sink.stop());
  sink.push(event(1));
  sink.push(event(2));
  await tick();
  assert.deepEqual(log, ['event 1']);
});

test('WatchSink: events pushed by a handler are delivered after the current ones, in order', async () => {
  const { sink, log } = recordingSink((e) => {
    if (e.kv.modRevision === 1) sink.push(event(3));
  });
  sink.push(event(1));
  sink.push(event(2));
  await tick();
  await tick();
  assert.deepEqual(log, ['event 1', 'event 2', 'event 3']);
});

test('WatchSink: a throwing handler ends the watch with what it threw', async () => {
  const { sink, log, releases } = recordingSink((e) => {
    if (e.kv.modRevision === 2) throw new Error('boom');
  });
  for (const revision of [1, 2, 3]) sink.push(event(revision));
  await tick();
  sink.push(event(4));
  await tick();
  assert.deepEqual(log, ['event 1', 'event 2', 'error boom']);
  assert.equal(releases(), 1);
  assert.equal(sink.closed, true);
});

test('WatchSink: a failure pushed while a handler runs still comes after the queued events', async () => {
  const { sink, log } = recordingSink((e) => {
    if (e.kv.modRevision === 1) {
      sink.push(event(2));
      sink.fail(new Error('end'));
    }
  });
  sink.push(event(1));
  await tick();
  await tick();
  assert.deepEqual(log, ['event 1', 'event 2', 'error end']);
});
