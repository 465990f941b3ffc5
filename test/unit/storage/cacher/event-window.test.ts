import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventWindow } from '../../../../apiserver/storage/cacher/event-window.js';

const ev = (revision: number, receivedAt = 0) => ({ revision, receivedAt });

test('keeps at most maxEvents; startRevision follows the oldest dropped one', () => {
  const w = new EventWindow({ maxEvents: 3, maxAgeMs: Infinity }, 10);
  assert.equal(w.startRevision, 10);
  for (const r of [11, 13, 14]) w.push(ev(r));
  assert.equal(w.startRevision, 10);
  w.push(ev(20));
  assert.equal(w.size, 3);
  assert.equal(w.startRevision, 11);
  assert.deepEqual(
    w.after(11).map((e) => e.revision),
    [13, 14, 20],
  );
  assert.deepEqual(
    w.after(12).map((e) => e.revision),
    [13, 14, 20],
  );
  assert.deepEqual(
    w.after(14).map((e) => e.revision),
    [20],
  );
  assert.deepEqual(w.after(20), []);
  assert.deepEqual(w.after(99), []);
});

test('drops events older than maxAgeMs as new ones arrive', () => {
  const w = new EventWindow({ maxEvents: 100, maxAgeMs: 1000 }, 0);
  w.push(ev(1, 0));
  w.push(ev(2, 500));
  w.push(ev(3, 1200));
  assert.deepEqual(
    w.after(0).map((e) => e.revision),
    [2, 3],
  );
  assert.equal(w.startRevision, 1);
  w.push(ev(4, 5000));
  assert.deepEqual(
    w.after(0).map((e) => e.revision),
    [4],
  );
  assert.equal(w.startRevision, 3);
});

test('stays correct across internal compaction', () => {
  const w = new EventWindow({ maxEvents: 10, maxAgeMs: Infinity }, 0);
  for (let r = 1; r <= 5000; r++) w.push(ev(r));
  assert.equal(w.size, 10);
  assert.equal(w.startRevision, 4990);
  assert.deepEqual(
    w.after(4995).map((e) => e.revision),
    [4996, 4997, 4998, 4999, 5000],
  );
});
