import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonDiff } from '../../../../apiserver/registry/generic/json-diff.js';
import { applyJsonPatch } from '../../../../apiserver/patch/json-patch.js';

const cases: [unknown, unknown][] = [
  [{ a: 1 }, { a: 1 }],
  [
    { a: 1, b: { c: [1, 2] } },
    { b: { c: [2, 1], d: null }, e: 'x' },
  ],
  [
    { 'a/b': 1, 'm~n': { x: 1 } },
    { 'a/b': 2, 'm~n': {} },
  ],
  [{ a: { b: 1 } }, { a: [1] }],
  [{ a: [{ x: 1 }] }, { a: [{ x: 1 }, { y: 2 }] }],
  [{ a: 's' }, { a: 5 }],
];

test('applying the diff to the first document gives the second', () => {
  for (const [from, to] of cases) {
    const patch = jsonDiff(from, to);
    assert.deepEqual(applyJsonPatch(structuredClone(from), patch), to, JSON.stringify({ from, to, patch }));
  }
});

test('equal documents differ by nothing; member names are escaped as RFC 6901 tokens', () => {
  assert.deepEqual(jsonDiff({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), []);
  assert.deepEqual(jsonDiff({ 'a/b': 1, 'm~n': 1 }, { 'a/b': 2 }), [
    { op: 'remove', path: '/m~0n' },
    { op: 'replace', path: '/a~1b', value: 2 },
  ]);
});
