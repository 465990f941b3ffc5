import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject, WatchEvent } from '../../../../apiserver/api/object.js';
import { deepFreeze } from '../../../../apiserver/storage/cacher/cached-object.js';
import { CacheWatcher, type CacheWatchSink } from '../../../../apiserver/storage/cacher/cache-watcher.js';
import { FlushScheduler } from '../../../../apiserver/storage/cacher/flush-scheduler.js';
import type { CachedChange } from '../../../../apiserver/storage/cacher/watch-event.js';

const obj = (name: string, rv: number, labels: Record<string, string> = {}): ApiObject =>
  deepFreeze({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name, namespace: 'ns', resourceVersion: String(rv), labels } });

const put = (name: string, rv: number, labels?: Record<string, string>, prev?: ApiObject, bytes = 100): CachedChange => ({
  key: `/r/cm/ns/${name}`,
  revision: rv,
  receivedAt: Date.now(),
  bytes,
  deleted: false,
  object: obj(name, rv, labels),
  prev,
});

/** A sink recording what it got; `behind` makes send report a client that is behind. */
function recordingSink() {
  const sink = {
    events: [] as WatchEvent[],
    frames: [] as string[],
    closed: false,
    reason: undefined as string | undefined,
    behind: false,
    release: () => {},
    send(event: WatchEvent, frame?: () => Buffer) {
      sink.events.push(event);
      if (frame) sink.frames.push(frame().toString());
      return !sink.behind;
    },
    close(reason?: 'unresponsive') {
      sink.closed = true;
      sink.reason = reason;
    },
    drained() {
      return new Promise<void>((resolve) => (sink.release = resolve));
    },
  };
  return sink satisfies CacheWatchSink;
}

/** Lets the flush scheduler run. */
const flushed = () => new Promise((r) => setTimeout(r, 1));
const meta = (e: WatchEvent) => (e.object as ApiObject).metadata;
const labelled = (obj: ApiObject) => obj.metadata.labels?.app === 'a';
const all = () => true;

function watcher(
  sink: CacheWatchSink,
  opts: {
    afterRevision?: number;
    matches?: (o: ApiObject) => boolean;
    maxPending?: number;
    maxPendingBytes?: number;
    bookmarkIntervalMs?: number;
    exactKey?: string;
  } = {},
) {
  let stopped = 0;
  const w = new CacheWatcher(
    sink,
    {
      prefix: opts.exactKey ?? '/r/cm/ns/',
      exactKey: opts.exactKey !== undefined,
      matches: opts.matches ?? all,
      afterRevision: opts.afterRevision ?? 0,
    },
    { maxPending: opts.maxPending ?? 100, maxPendingBytes: opts.maxPendingBytes ?? 1e9, bookmarkIntervalMs: opts.bookmarkIntervalMs ?? 0 },
    new FlushScheduler(),
    () => obj('', 42) as ApiObject,
    () => stopped++,
  );
  return { w, stopped: () => stopped };
}

test('sends the initial objects as ADDED and replayed changes at once, live ones on the next flush, with shared JSON frames', async () => {
  const sink = recordingSink();
  const { w } = watcher(sink, { afterRevision: 5 });
  w.start([obj('a', 3)], [put('b', 6)]);
  assert.equal(sink.events.length, 2);
  w.offer(put('c', 7));
  w.offer(put('old', 5));
  assert.equal(sink.events.length, 2);
  await flushed();
  assert.deepEqual(
    sink.events.map((e) => [e.type, meta(e)]),
    [
      ['ADDED', obj('a', 3).metadata],
      ['ADDED', obj('b', 6).metadata],
      ['ADDED', obj('c', 7).metadata],
    ],
  );
  assert.deepEqual(
    sink.frames.map((f) => JSON.parse(f)),
    sink.events,
  );
  assert.ok(sink.frames.every((f) => f.endsWith('}\n')));
});

test('follows the selection: entering is ADDED, staying MODIFIED, leaving DELETED with the old object at the new revision', async () => {
  const sink = recordingSink();
  const { w } = watcher(sink, { matches: labelled });
  w.start([], []);
  const v1 = put('x', 1, { app: 'b' });
  const v2 = put('x', 2, { app: 'a' }, v1.object);
  const v3 = put('x', 3, { app: 'a', more: '1' }, v2.object);
  const v4 = put('x', 4, { app: 'b' }, v3.object);
  const gone: CachedChange = { key: v4.key, revision: 5, receivedAt: 0, bytes: 100, deleted: true, object: obj('x', 5, { app: 'b' }) };
  for (const c of [v1, v2, v3, v4, gone]) w.offer(c);
  await flushed();
  assert.deepEqual(
    sink.events.map((e) => [e.type, meta(e).resourceVersion, meta(e).labels]),
    [
      ['ADDED', '2', { app: 'a' }],
      ['MODIFIED', '3', { app: 'a', more: '1' }],
      ['DELETED', '4', { app: 'a', more: '1' }],
    ],
  );
});

test('watching one key ignores the others', async () => {
  const sink = recordingSink();
  const { w } = watcher(sink, { exactKey: '/r/cm/ns/a' });
  w.start([], []);
  w.offer(put('ab', 1));
  w.offer(put('a', 2));
  await flushed();
  assert.deepEqual(
    sink.events.map((e) => meta(e).name),
    ['a'],
  );
});

test('waits for a client that is behind, then sends what waited in order', async () => {
  const sink = recordingSink();
  const { w } = watcher(sink);
  sink.behind = true;
  w.start([obj('a', 1), obj('b', 2)], []);
  assert.equal(sink.events.length, 1, 'the initial objects wait for the client too');
  w.offer(put('c', 3));
  w.offer(put('d', 4));
  await flushed();
  assert.equal(sink.events.length, 1);
  sink.behind = false;
  sink.release();
  await flushed();
  assert.deepEqual(
    sink.events.map((e) => meta(e).name),
    ['a', 'b', 'c', 'd'],
  );
  assert.equal(sink.closed, false);
});

test('closes a watcher that falls more than maxPending live events behind', async () => {
  const sink = recordingSink();
  const { w, stopped } = watcher(sink, { maxPending: 3 });
  w.start([], []);
  sink.behind = true;
  w.offer(put('a', 1));
  await flushed(); // sent; the client is now behind
  for (let rv = 2; rv <= 4; rv++) w.offer(put(`n${rv}`, rv));
  assert.equal(sink.closed, false, 'three waiting events are within the limit');
  w.offer(put('n5', 5));
  assert.equal(sink.closed, true);
  assert.equal(sink.reason, 'unresponsive');
  assert.equal(w.closed, true);
  assert.equal(stopped(), 1);
  w.offer(put('n6', 6));
  await flushed();
  assert.equal(sink.events.length, 1);
});

test('closes a watcher whose waiting live events hold more than maxPendingBytes, but one event of any size may wait', async () => {
  const sink = recordingSink();
  const { w } = watcher(sink, { maxPending: 1000, maxPendingBytes: 1000 });
  w.start([], []);
  sink.behind = true;
  w.offer(put('a', 1));
  await flushed(); // sent; the client is now behind
  w.offer(put('huge', 2, undefined, undefined, 5000));
  assert.equal(sink.closed, false, 'one waiting event fits whatever its size');
  w.offer(put('small', 3, undefined, undefined, 10));
  assert.equal(sink.closed, true);
  assert.equal(sink.reason, 'unresponsive');
});

test('bytes that were handed over no longer count', async () => {
  const sink = recordingSink();
  const { w } = watcher(sink, { maxPending: 1000, maxPendingBytes: 1000 });
  w.start([], []);
  for (let rv = 1; rv <= 50; rv++) w.offer(put(`n${rv}`, rv, undefined, undefined, 500));
  await flushed();
  assert.equal(sink.events.length, 50);
  sink.behind = true;
  w.offer(put('x', 51, undefined, undefined, 500));
  await flushed(); // sent; the client is now behind
  w.offer(put('y', 52, undefined, undefined, 500));
  w.offer(put('z', 53, undefined, undefined, 499));
  assert.equal(sink.closed, false, '999 bytes wait');
});

test('the initial objects do not count against the limit', async () => {
  const sink = recordingSink();
  const { w } = watcher(sink, { maxPending: 1 });
  sink.behind = true;
  w.start(
    Array.from({ length: 10 }, (_, i) => obj(`i${i}`, i + 1)),
    [],
  );
  w.offer(put('live', 20));
  assert.equal(sink.closed, false);
  sink.behind = false;
  sink.release();
  await flushed();
  assert.equal(sink.events.length, 11);
  assert.equal(meta(sink.events.at(-1)!).name, 'live');
});

const endMarker = (rv: number): ApiObject =>
  ({
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: { resourceVersion: String(rv), annotations: { 'orch.io/initial-events-end': 'true' } },
  }) as ApiObject;

test('the initial events end with the given BOOKMARK, before live events that came while they went out', async () => {
  const sink = recordingSink();
  const { w } = watcher(sink, { afterRevision: 10 });
  sink.behind = true;
  w.start([obj('a', 3), obj('b', 9)], [], endMarker(10));
  w.offer(put('live', 11));
  await flushed();
  assert.equal(sink.events.length, 1, 'nothing more while the client is behind');
  sink.behind = false;
  sink.release();
  await flushed();
  assert.deepEqual(
    sink.events.map((e) => [e.type, meta(e).name ?? meta(e).annotations]),
    [
      ['ADDED', 'a'],
      ['ADDED', 'b'],
      ['BOOKMARK', { 'orch.io/initial-events-end': 'true' }],
      ['ADDED', 'live'],
    ],
  );
  assert.equal(meta(sink.events[2]).resourceVersion, '10');
});

test('with no initial objects the end BOOKMARK goes out at once', () => {
  const sink = recordingSink();
  const { w } = watcher(sink, { afterRevision: 10 });
  w.start([], [], endMarker(10));
  assert.deepEqual(
    sink.events.map((e) => e.type),
    ['BOOKMARK'],
  );
});

test('a client that does not take its initial events while changes come is closed as unresponsive (the live events are bounded)', async () => {
  const sink = recordingSink();
  const { w } = watcher(sink, { maxPending: 5, afterRevision: 100 });
  sink.behind = true;
  w.start(
    Array.from({ length: 1000 }, (_, i) => obj(`i${i}`, i + 1)),
    [],
    endMarker(100),
  );
  await flushed();
  for (let rv = 101; rv <= 105; rv++) w.offer(put(`n${rv}`, rv));
  assert.equal(sink.closed, false, 'five live events may wait');
  w.offer(put('n106', 106));
  assert.equal(sink.closed, true);
  assert.equal(sink.reason, 'unresponsive');
  assert.equal(sink.events.length, 1, 'one initial event went out before the client fell behind');
});

test('sends BOOKMARKs on the interval, after the events before them; stop ends them', async () => {
  const sink = recordingSink();
  const { w, stopped } = watcher(sink, { bookmarkIntervalMs: 20 });
  w.start([obj('a', 1)], []);
  // Two BOOKMARKs follow the event (polled, not a fixed sleep: a loaded machine delays timers).
  for (const deadline = Date.now() + 5000; sink.events.length < 3 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 5));
  w.stop();
  const n = sink.events.length;
  assert.ok(n >= 3, `got ${n} events`);
  assert.equal(sink.events[0].type, 'ADDED');
  assert.ok(sink.events.slice(1).every((e) => e.type === 'BOOKMARK' && meta(e).resourceVersion === '42'));
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(sink.events.length, n);
  assert.equal(stopped(), 1);
  assert.equal(sink.closed, false, 'a stop from the client side does not close the sink');
});

test('no BOOKMARK below the revision a watch starts after', async () => {
  const sink = recordingSink();
  const { w } = watcher(sink, { bookmarkIntervalMs: 10, afterRevision: 100 });
  w.start([], []);
  await new Promise((r) => setTimeout(r, 50));
  w.stop();
  assert.deepEqual(sink.events, []);
});

test('watchers share one event object and one encoding per change', async () => {
  const sinks = [recordingSink(), recordingSink()];
  const change = put('a', 1);
  const ws = sinks.map((sink) => watcher(sink).w);
  for (const w of ws) {
    w.start([], []);
    w.offer(change);
  }
  await flushed();
  assert.equal(sinks[0].events[0], sinks[1].events[0]);
});
