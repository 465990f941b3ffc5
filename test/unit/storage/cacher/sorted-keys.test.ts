import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareKeys, lowerBound, prefixEnd, SortedKeys } from '../../../../apiserver/storage/cacher/sorted-keys.js';

test('compareKeys orders keys as their UTF-8 bytes, like the stores', () => {
  const keys = ['a', 'ab', 'b', '', 'a/b', 'a-b', 'z', '\uffff', '\u{1f600}', '\ue000', 'é', 'A', 'a\u0000'];
  const byBytes = [...keys].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
  assert.deepEqual([...keys].sort(compareKeys), byBytes);
  // Plain string order would put the emoji (a surrogate pair) before U+E000.
  assert.ok(compareKeys('\u{1f600}', '\ue000') > 0);
  assert.ok('\u{1f600}' < '\ue000');
});

test('SortedKeys keeps keys sorted and finds prefix ranges', () => {
  const keys = new SortedKeys();
  for (const k of ['/r/b/2', '/r/a/1', '/r/c/1', '/r/b/1', '/r/a/1']) keys.add(k);
  assert.equal(keys.size, 4);
  assert.deepEqual(keys.all, ['/r/a/1', '/r/b/1', '/r/b/2', '/r/c/1']);
  const from = lowerBound(keys.all, '/r/b/');
  assert.equal(from, 1);
  assert.equal(prefixEnd(keys.all, '/r/b/', from), 3);
  assert.equal(prefixEnd(keys.all, '/r/', 0), 4);
  assert.equal(prefixEnd(keys.all, '/r/x/', lowerBound(keys.all, '/r/x/')), 4);
  keys.delete('/r/b/1');
  keys.delete('/r/nope');
  assert.deepEqual(keys.all, ['/r/a/1', '/r/b/2', '/r/c/1']);
  assert.equal(lowerBound(keys.all, '/r/b/2\u0000'), 2);
});
