import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FieldSet } from '../../../apiserver/fieldmanager/field-set.js';
import { FieldsV1Error, fieldsToSet, setToFields } from '../../../apiserver/fieldmanager/fields-v1.js';
import { fieldElement as f, keyElement, pathString, valueElement } from '../../../apiserver/fieldmanager/path-element.js';

test('members are {}; an element both owned and with owned paths below gets "." first', () => {
  const item = keyElement([['name', 'nginx']]);
  const set = FieldSet.of(
    [f('metadata'), f('labels')],
    [f('metadata'), f('labels'), f('app')],
    [f('spec'), f('containers'), item],
    [f('spec'), f('containers'), item, f('image')],
    [f('spec'), f('containers'), item, f('name')],
    [f('metadata'), f('finalizers'), valueElement('x')],
  );
  const fields = setToFields(set);
  assert.equal(
    JSON.stringify(fields),
    '{"f:metadata":{"f:finalizers":{"v:\\"x\\"":{}},"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\\"name\\":\\"nginx\\"}":{".":{},"f:image":{},"f:name":{}}}}}',
  );
  assert.deepEqual(fieldsToSet(fields).paths().map(pathString), set.paths().map(pathString));
});

test('decoding: absent is empty, unknown element kinds are skipped, malformed input is an error', () => {
  assert.ok(fieldsToSet(undefined).isEmpty());
  assert.deepEqual(
    fieldsToSet({ 'f:a': {}, 'z:future': {}, 'f:b': { '.': {}, 'f:c': {} } })
      .paths()
      .map(pathString),
    ['.a', '.b', '.b.c'],
  );
  assert.throws(() => fieldsToSet([]), FieldsV1Error);
  assert.throws(() => fieldsToSet({ 'f:a': 'x' }), /must be a JSON object/);
  assert.throws(() => fieldsToSet({ 'k:{bad': {} }), /parsing key as path element/);
});
