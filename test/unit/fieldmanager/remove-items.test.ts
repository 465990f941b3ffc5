import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FieldSet } from '../../../apiserver/fieldmanager/field-set.js';
import { fieldElement as f, keyElement, pathString, valueElement } from '../../../apiserver/fieldmanager/path-element.js';
import { ensureNamedFieldsAreMembers, removeItems } from '../../../apiserver/fieldmanager/remove-items.js';
import { schema, types } from './fixture.js';

test('removes map entries and list items by key or value; lists left empty become null', () => {
  const obj = {
    metadata: { labels: { a: '1', b: '2' }, finalizers: ['x', 'y'] },
    spec: {
      containers: [
        { name: 'c1', image: 'i' },
        { name: 'c2', image: 'j' },
      ],
      ports: [{ port: 80, protocol: 'TCP' }],
    },
  };
  const set = FieldSet.of(
    [f('metadata'), f('labels'), f('a')],
    [f('metadata'), f('finalizers'), valueElement('y')],
    [f('spec'), f('containers'), keyElement([['name', 'c1']])],
    [f('spec'), f('containers'), keyElement([['name', 'c2']]), f('image')],
    [
      f('spec'),
      f('ports'),
      keyElement([
        ['port', 80],
        ['protocol', 'TCP'],
      ]),
    ],
  );
  assert.deepEqual(removeItems(obj, set, schema, types), {
    metadata: { labels: { b: '2' }, finalizers: ['x'] },
    spec: { containers: [{ name: 'c2' }], ports: null },
  });
});

test('ensureNamedFieldsAreMembers adds the declared struct fields a set passes through, not map keys', () => {
  const set = FieldSet.of([f('spec'), f('strategy'), f('rollingUpdate'), f('maxSurge')], [f('metadata'), f('labels'), f('app')]);
  assert.deepEqual(ensureNamedFieldsAreMembers(set, schema, types).paths().map(pathString), [
    '.metadata',
    '.spec',
    '.metadata.labels',
    '.metadata.labels.app',
    '.spec.strategy',
    '.spec.strategy.rollingUpdate',
    '.spec.strategy.rollingUpdate.maxSurge',
  ]);
});
