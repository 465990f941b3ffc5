import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import YAML from 'yaml';
import { duplicateJsonFields, duplicateYamlFields } from '../../../apiserver/api/duplicate-fields.js';

describe('duplicateJsonFields', () => {
  it('finds keys given twice at any depth, with their paths', () => {
    const text = '{"metadata":{"name":"a","name":"b","labels":{"x":"1"}},"spec":{"ports":[{"port":1},{"port":2,"port":3}]},"spec":{}}';
    assert.deepEqual(duplicateJsonFields(text), ['metadata.name', 'spec.ports[1].port', 'spec']);
  });

  it('is not fooled by strings that look like keys, escapes or whitespace', () => {
    assert.deepEqual(duplicateJsonFields('{"a": "b: \\"a\\":", "c" : [ "a", "a" ], "d\\u0041": 1, "dA": 2}'), ['dA']);
    assert.deepEqual(duplicateJsonFields('[{"a":1},{"a":1}]'), []);
    assert.deepEqual(duplicateJsonFields('{"a":{"b":1},"c":{"b":1}}'), []);
  });

  it('skips strings ending in escaped backslashes, and long strings around escapes', () => {
    const long = 'x'.repeat(5000);
    const key = 'k\\"';
    const text = JSON.stringify({ a: 'ends in \\', b: `${long}"${long}`, [key]: 1, c: [`\\${long}`, '"'] });
    const more = [`${JSON.stringify(key)}:2`, `"b":${JSON.stringify('\\\\')}`, `"c":{"a":${JSON.stringify('\\')}}`];
    const withDuplicates = `${text.slice(0, -1)},${more.join(',')}}`;
    JSON.parse(withDuplicates);
    assert.deepEqual(duplicateJsonFields(text), []);
    assert.deepEqual(duplicateJsonFields(withDuplicates), [key, 'b', 'c']);
  });
});

describe('duplicateYamlFields', () => {
  it('finds duplicate mapping keys with their paths', () => {
    const doc = YAML.parseDocument('metadata:\n  name: a\n  name: b\nspec:\n  ports:\n  - port: 1\n    port: 2\n', { uniqueKeys: false });
    assert.deepEqual(duplicateYamlFields(doc), ['metadata.name', 'spec.ports[0].port']);
  });
});
