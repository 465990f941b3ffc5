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
  assert.deepEqual(keys.toArray(), ['/r/a/1', '/r/b/1', '/r/b/2', '/r/c/1']);
  const from = keys.lowerBound('/r/b/');
  assert.equal(from, 1);
  assert.equal(keys.at(from), '/r/b/1');
  assert.equal(keys.prefixEnd('/r/b/', from), 3);
  assert.equal(keys.prefixEnd('/r/', 0), 4);
  assert.equal(keys.prefixEnd('/r/x/', keys.lowerBound('/r/x/')), 4);
  keys.delete('/r/b/1');
  keys.delete('/r/nope');
  assert.deepEqual(keys.toArray(), ['/r/a/1', '/r/b/2', '/r/c/1']);
  assert.equal(keys.lowerBound('/r/b/2\u0000'), 2);
});

test('SortedKeys answers as one sorted array through chunk splits and emptied chunks', () => {
  // A fixed pseudo-random sequence (the test is the same on every run).
  let seed = 42;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const keys = new SortedKeys();
  const flat: string[] = [];
  const name = () => `/registry/pods/ns-${random(7)}/web-${random(100_000).toString(36)}`;
  const check = () => {
    assert.equal(keys.size, flat.length);
    for (let n = 0; n < 40; n++) {
      const probe = n % 2 ? name() : (flat[random(flat.length)] ?? '/registry/pods/');
      assert.equal(keys.lowerBound(probe), lowerBound(flat, probe), `lowerBound ${probe}`);
      const prefix = `/registry/pods/ns-${random(8)}/`;
      const from = lowerBound(flat, prefix) + (n % 3 === 0 ? random(50) : 0);
      assert.equal(
        keys.prefixEnd(prefix, Math.min(from, flat.length)),
        prefixEnd(flat, prefix, Math.min(from, flat.length)),
        `prefixEnd ${prefix}`,
      );
      if (flat.length) {
        const i = random(flat.length);
        assert.equal(keys.at(i), flat[i]);
      }
    }
  };
  for (let round = 0; round < 6; round++) {
    for (let n = 0; n < 2500; n++) {
      const k = name();
      keys.add(k);
      const i = lowerBound(flat, k);
      if (flat[i] !== k) flat.splice(i, 0, k);
    }
    check();
    // Deleting most keys empties whole chunks.
    for (let n = 0; n < 2000; n++) {
      const k = n % 5 === 0 ? name() : flat[random(flat.length)];
      keys.delete(k);
      const i = lowerBound(flat, k);
      if (flat[i] === k) flat.splice(i, 1);
    }
    check();
  }
  assert.deepEqual(keys.toArray(), flat);
  for (const k of [...flat]) keys.delete(k);
  assert.equal(keys.size, 0);
  assert.equal(keys.lowerBound('/a'), 0);
  assert.equal(keys.prefixEnd('/a', 0), 0);
  keys.add('/b');
  assert.deepEqual(keys.toArray(), ['/b']);
});
