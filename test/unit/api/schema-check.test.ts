import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkAgainstSchema } from '../../../apiserver/api/schema-check.js';
import type { Schema } from '../../../apiserver/api/schema.js';

describe('checkAgainstSchema', () => {
  const schema: Schema = {
    type: 'object',
    properties: { name: { type: 'string' }, spec: { type: 'object', properties: { size: { type: 'integer' } } } },
  };

  it('prunes and reports fields named like Object members: they are fields the schema does not know', () => {
    const value = JSON.parse('{"name":"x","constructor":1,"spec":{"size":2,"toString":"t","__proto__":{"a":1}}}') as Record<
      string,
      unknown
    >;
    const result = checkAgainstSchema(value, schema, {});
    assert.deepEqual(result.errors, []);
    assert.deepEqual(result.unknownFields.sort(), ['constructor', 'spec.__proto__', 'spec.toString']);
    assert.deepEqual(Object.keys(value), ['name', 'spec']);
    assert.deepEqual(Object.keys(value.spec as object), ['size']);
  });

  it('still checks the types of known fields', () => {
    const result = checkAgainstSchema({ name: 1, spec: { size: 'big' } }, schema, {});
    assert.deepEqual(result.errors.sort(), ['name: expected string, got integer', 'spec.size: expected integer, got string']);
  });
});
