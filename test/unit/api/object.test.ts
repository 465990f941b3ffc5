import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deepCopy, jsonEqual } from '../../../apiserver/api/object.js';

describe('deepCopy', () => {
  it('copies JSON values deeply, unfrozen, leaving the original untouched', () => {
    const original = Object.freeze({ a: [1, { b: 'c' }], d: { e: null, f: undefined, g: true } });
    const copy = deepCopy(original);
    assert.deepEqual(copy, original);
    assert.ok(Object.hasOwn(copy.d, 'f'));
    (copy.a[1] as { b: string }).b = 'changed';
    assert.equal((original.a[1] as { b: string }).b, 'c');
    assert.equal(Object.isFrozen(copy), false);
  });

  it('keeps a __proto__ key as data and never changes the prototype of the copy', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "x": 1}');
    const copy = deepCopy(parsed);
    assert.equal(Object.getPrototypeOf(copy), Object.prototype);
    assert.equal((copy as { polluted?: boolean }).polluted, undefined);
    assert.deepEqual(Object.keys(copy), ['__proto__', 'x']);
    assert.ok(jsonEqual(copy, parsed));
  });
});
