import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyMergePatch } from '../../../apiserver/patch/merge-patch.js';

// RFC 7386, Appendix A.
const RFC_CASES: [unknown, unknown, unknown][] = [
  [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
  [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
  [{ a: 'b' }, { a: null }, {}],
  [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
  [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
  [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
  [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
  [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
  [
    ['a', 'b'],
    ['c', 'd'],
    ['c', 'd'],
  ],
  [{ a: 'b' }, ['c'], ['c']],
  [{ a: 'foo' }, null, null],
  [{ a: 'foo' }, 'bar', 'bar'],
  [{ e: null }, { a: 1 }, { e: null, a: 1 }],
  [[1, 2], { a: 'b', c: null }, { a: 'b' }],
  [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
];

test('RFC 7386 test cases', () => {
  for (const [target, patch, result] of RFC_CASES) {
    assert.deepEqual(applyMergePatch(target, patch), result, `${JSON.stringify(target)} + ${JSON.stringify(patch)}`);
  }
});

test('nested objects merge, keeping untouched members and their order', () => {
  const target = { metadata: { name: 'a', labels: { x: '1', y: '2' } }, data: { k: 'v' } };
  const result = applyMergePatch(target, { metadata: { labels: { y: null, z: '3' } }, data: null });
  assert.deepEqual(result, { metadata: { name: 'a', labels: { x: '1', z: '3' } } });
  assert.deepEqual(Object.keys((result as { metadata: { labels: object } }).metadata.labels), ['x', 'z']);
});

test('null members of new objects are dropped at every depth, null array elements stay', () => {
  assert.deepEqual(applyMergePatch({ a: 1 }, { b: { c: null, d: { e: null, f: 1 } } }), { a: 1, b: { d: { f: 1 } } });
  assert.deepEqual(applyMergePatch({}, { l: [null, { x: null, y: 1 }] }), { l: [null, { y: 1 }] });
  assert.deepEqual(applyMergePatch({ a: 'scalar' }, { a: { b: null, c: 1 } }), { a: { c: 1 } });
});

test('inputs are not modified and the result shares nothing with them', () => {
  const target = { a: { b: [1] }, keep: { deep: true } };
  const patch = { a: { c: { d: 1 } } };
  const result = applyMergePatch(target, patch) as { a: { b: number[]; c: { d: number } }; keep: { deep: boolean } };
  assert.deepEqual(target, { a: { b: [1] }, keep: { deep: true } });
  assert.deepEqual(patch, { a: { c: { d: 1 } } });
  result.a.b.push(2);
  result.a.c.d = 2;
  result.keep.deep = false;
  assert.deepEqual(target, { a: { b: [1] }, keep: { deep: true } });
  assert.deepEqual(patch, { a: { c: { d: 1 } } });
});

test('__proto__ is an ordinary member', () => {
  const patch = JSON.parse('{"__proto__": {"polluted": true}}') as unknown;
  const result = applyMergePatch({}, patch) as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(result), Object.prototype);
  assert.deepEqual(Object.keys(result), ['__proto__']);
  assert.deepEqual(Object.getOwnPropertyDescriptor(result, '__proto__')?.value, { polluted: true });
});
