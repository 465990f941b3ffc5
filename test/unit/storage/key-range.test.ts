import assert from 'node:assert/strict';
import { test } from 'node:test';
import { listRange, watchCovers, watchRange } from '../../../apiserver/storage/key-range.js';

test('listRange: a prefix range ends at the prefix with its last byte incremented', () => {
  assert.deepEqual(listRange('/registry/pods/'), { start: Buffer.from('/registry/pods/'), end: Buffer.from('/registry/pods0') });
  assert.deepEqual(listRange('/a/', '/a/x'), { start: Buffer.from('/a/x'), end: Buffer.from('/a0') });
  // A multi-byte last character: its last UTF-8 byte is incremented.
  assert.deepEqual(listRange('/é'), { start: Buffer.from('/é'), end: Buffer.from([0x2f, 0xc3, 0xaa]) });
});

test('listRange: refuses an empty prefix and a startKey outside the prefix', () => {
  assert.throws(() => listRange(''), /empty prefix/);
  assert.throws(() => listRange('/a/', '/b/x'), /not under prefix/);
  assert.throws(() => listRange('/a/', '/a'), /not under prefix/);
});

test('watchRange and watchCovers: a trailing / means a prefix, anything else one exact key', () => {
  assert.deepEqual(watchRange('/a/'), { start: Buffer.from('/a/'), end: Buffer.from('/a0') });
  assert.deepEqual(watchRange('/a/x'), { start: Buffer.from('/a/x'), end: null });
  assert.throws(() => watchRange(''), /empty prefix/);
  assert.deepEqual(
    ['/a/', '/a/x', '/a/x/y', '/ab/x', '/a'].map((key) => watchCovers('/a/', key)),
    [true, true, true, false, false],
  );
  assert.deepEqual(
    ['/a/x', '/a/xy', '/a/x/', '/a/'].map((key) => watchCovers('/a/x', key)),
    [true, false, false, false],
  );
});
