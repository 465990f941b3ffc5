import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ALONE_CHUNK_BYTES,
  bulkChunkBytes,
  bulkStreamStarted,
  bulkTurn,
  SHARED_CHUNK_BYTES,
  TURN_BYTES,
} from '../../../../apiserver/endpoints/handlers/bulk-budget.js';

const turn = () => new Promise((resolve) => setImmediate(resolve));

test("streams together write at most a turn's budget per turn of the event loop, first come first served", async () => {
  const chunk = TURN_BYTES / 2;
  const done: number[] = [];
  for (let i = 0; i < 7; i++) void bulkTurn(chunk).then(() => done.push(i));
  await Promise.resolve();
  assert.deepEqual(done, [0, 1], 'this turn: its budget');
  await turn();
  assert.deepEqual(done, [0, 1, 2, 3], 'the next turn: as much again, in order');
  await turn();
  await turn();
  assert.deepEqual(done, [0, 1, 2, 3, 4, 5, 6]);
  // Once the queue is empty a later turn's budget is whole again.
  await turn();
  await turn();
  let now = 0;
  void bulkTurn(chunk).then(() => now++);
  void bulkTurn(chunk).then(() => now++);
  await Promise.resolve();
  assert.equal(now, 2);
});

test('a chunk larger than the budget still goes, alone in its turn', async () => {
  await turn();
  await turn();
  const done: string[] = [];
  void bulkTurn(TURN_BYTES * 4).then(() => done.push('big'));
  void bulkTurn(1).then(() => done.push('small'));
  await Promise.resolve();
  assert.deepEqual(done, ['big']);
  await turn();
  assert.deepEqual(done, ['big', 'small']);
});

test('a list streaming alone writes big chunks, and small ones as soon as another streams beside it', () => {
  assert.ok(ALONE_CHUNK_BYTES > SHARED_CHUNK_BYTES);
  const first = bulkStreamStarted();
  assert.equal(bulkChunkBytes(), ALONE_CHUNK_BYTES);
  const second = bulkStreamStarted();
  assert.equal(bulkChunkBytes(), SHARED_CHUNK_BYTES);
  second();
  second(); // a second call is a no-op: the first stream is still counted
  assert.equal(bulkChunkBytes(), ALONE_CHUNK_BYTES);
  const third = bulkStreamStarted();
  assert.equal(bulkChunkBytes(), SHARED_CHUNK_BYTES);
  first();
  third();
  assert.equal(bulkChunkBytes(), ALONE_CHUNK_BYTES);
});
