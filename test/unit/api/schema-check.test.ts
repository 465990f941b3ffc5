import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkAgainstSchema } from '../../../apiserver/api/schema-check.js';
import type { Schema } from '../../../apiserver/api/schema.js';
import { definitions } from '../../../apiserver/api/generated/definitions.js';

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

  it("checks a CRD schema's union fields as Go decodes them: a nested schema, or a boolean or an array", () => {
    const props: Schema = { $ref: '#/definitions/apiextensions.v1.JSONSchemaProps' };
    const ok = {
      type: 'object',
      additionalProperties: true,
      properties: {
        a: { type: 'array', items: { type: 'object', properties: { b: { type: 'string' } } } },
        t: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] },
        m: { type: 'object', additionalProperties: { type: 'object', properties: { c: { type: 'integer' } } } },
      },
      dependencies: { a: ['t'], m: { required: ['c'] } },
    };
    const good = checkAgainstSchema(structuredClone(ok), props, definitions);
    assert.deepEqual(good.errors, []);
    assert.deepEqual(good.unknownFields, []);
    const bad = checkAgainstSchema(
      {
        properties: {
          a: { items: { properties: [] } },
          m: { additionalProperties: { properties: 'x' } },
          n: { additionalProperties: 'yes' },
          t: { items: [{ properties: 1 }] },
        },
        dependencies: { a: [1], b: true },
      },
      props,
      definitions,
    );
    assert.deepEqual(bad.errors.sort(), [
      'dependencies[a][0]: expected string, got integer',
      'dependencies[b]: expected object or array, got boolean',
      'properties[a].items.properties: expected object, got array',
      'properties[m].additionalProperties.properties: expected object, got string',
      'properties[n].additionalProperties: expected object or boolean, got string',
      'properties[t].items[0].properties: expected object, got integer',
    ]);
  });
});
