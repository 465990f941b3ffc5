import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setToFields } from '../../../apiserver/fieldmanager/fields-v1.js';
import { TypedValueError } from '../../../apiserver/fieldmanager/list-items.js';
import { pathString } from '../../../apiserver/fieldmanager/path-element.js';
import { toFieldSet } from '../../../apiserver/fieldmanager/to-field-set.js';
import { schema, types } from './fixture.js';

const fieldsOf = (v: unknown) => setToFields(toFieldSet(v, schema, types, false));
const pathsOf = (v: unknown) => toFieldSet(v, schema, types, false).paths().map(pathString);

test('struct fields are owned through their content; map entries and list items are owned themselves', () => {
  assert.deepEqual(fieldsOf({ metadata: { labels: { app: 'web' } }, spec: { strategy: { rollingUpdate: { maxSurge: 1 } } } }), {
    'f:metadata': { 'f:labels': { 'f:app': {} } },
    'f:spec': { 'f:strategy': { 'f:rollingUpdate': { 'f:maxSurge': {} } } },
  });
});

test('a struct field that is null or an empty object is owned; an empty keyed list owns nothing', () => {
  assert.deepEqual(pathsOf({ spec: { strategy: {}, selector: null, ports: [] } }), ['.spec.selector', '.spec.strategy']);
});

test('list types: keyed by list-map keys (defaults filling a missing key), by merge key, by value; atomic as a whole', () => {
  assert.deepEqual(
    pathsOf({
      spec: {
        ports: [{ port: 80 }, { port: 53, protocol: 'UDP' }],
        containers: [{ name: 'c', image: 'i' }],
        tags: ['a', 'b'],
        args: ['x', 'y'],
      },
    }),
    [
      '.spec.args',
      '.spec.containers[name="c"]',
      '.spec.containers[name="c"].image',
      '.spec.containers[name="c"].name',
      '.spec.ports[port=53,protocol="UDP"]',
      '.spec.ports[port=80,protocol="TCP"]',
      '.spec.ports[port=53,protocol="UDP"].port',
      '.spec.ports[port=53,protocol="UDP"].protocol',
      '.spec.ports[port=80,protocol="TCP"].port',
      '.spec.tags[="a"]',
      '.spec.tags[="b"]',
    ],
  );
});

test('atomic maps are owned as a whole, recursively', () => {
  assert.deepEqual(pathsOf({ spec: { selector: { matchLabels: { a: 'b' } } } }), ['.spec.selector']);
});

test('schema-less content: object keys are owned one by one, lists as a whole', () => {
  assert.deepEqual(pathsOf({ spec: { extra: { a: { b: 1 }, list: [1, 2] } } }), ['.spec.extra.a', '.spec.extra.list', '.spec.extra.a.b']);
});

test('items that cannot be keyed, and repeated keys in a configuration, are errors naming the list', () => {
  assert.throws(
    () => toFieldSet({ spec: { containers: [{ image: 'x' }] } }, schema, types, false),
    (err: unknown) =>
      err instanceof TypedValueError &&
      err.message ===
        '.spec.containers: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
  );
  assert.throws(() => toFieldSet({ spec: { containers: [{ name: 'a' }, { name: 'a' }] } }, schema, types, false), {
    message: '.spec.containers: duplicate entries for key [name="a"]',
  });
  assert.throws(() => toFieldSet({ spec: { tags: [{ a: 1 }], ports: [null] } }, schema, types, false), {
    message:
      "errors:\n  .spec.tags: element 0: associative list without keys has an element that's a map type\n  .spec.ports: element 0: associative list with keys may not have a null element",
  });
  assert.equal(toFieldSet({ spec: { containers: [{ name: 'a' }, { name: 'a' }] } }, schema, types, true).paths().length, 2);
});
