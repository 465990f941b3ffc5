import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_HOLD_MS, RejectHold } from '../../../../apiserver/server/flowcontrol/reject-hold.js';

test("a flow's first rejection goes at once; one within the Retry-After it was given waits that long", () => {
  let now = 0;
  const hold = new RejectHold(10, () => now);
  assert.equal(hold.delayFor('a', 1), 0);
  now = 500;
  assert.equal(hold.delayFor('a', 1), 1000, 'came back within its Retry-After');
  assert.equal(hold.held, 1);
  assert.equal(hold.delayFor('b', 1), 0, 'another flow is its own');
  hold.release();
  assert.equal(hold.held, 0);
  // A client that waited out the Retry-After it was last given is answered at once.
  now = 1600;
  assert.equal(hold.delayFor('a', 2), 0);
  now = 3500;
  assert.equal(hold.delayFor('a', 2), 2000, 'within the 2 s it was given');
  now = 4000;
  assert.equal(hold.delayFor('a', 60), MAX_HOLD_MS, 'a long Retry-After is held at most MAX_HOLD_MS');
});

test('at most maxHeld rejections are held at once; beyond that they go at once', () => {
  let now = 0;
  const hold = new RejectHold(3, () => now);
  assert.equal(hold.delayFor('f', 1), 0);
  now = 1;
  const delays = Array.from({ length: 5 }, () => hold.delayFor('f', 1));
  assert.deepEqual(delays, [1000, 1000, 1000, 0, 0]);
  assert.equal(hold.held, 3);
  hold.release();
  assert.equal(hold.delayFor('f', 1), 1000);
});

test('flows are forgotten oldest first past 10,000, so a flood of distinct flows keeps the map bounded', () => {
  const now = 0;
  const hold = new RejectHold(10, () => now);
  for (let i = 0; i < 10_001; i++) hold.delayFor(`flow-${i}`, 1);
  assert.equal(hold.delayFor('flow-0', 1), 0, 'the oldest flow was forgotten');
  assert.equal(hold.delayFor('flow-10000', 1), 1000, 'the newest is remembered');
});
