import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  compareElements,
  deserializeElement,
  fieldElement,
  indexElement,
  keyElement,
  PathElementError,
  pathString,
  valueElement,
} from '../../../apiserver/fieldmanager/path-element.js';

test('elements carry their FieldsV1 key, key fields sorted by name', () => {
  assert.equal(fieldElement('spec').id, 'f:spec');
  assert.equal(
    keyElement([
      ['protocol', 'TCP'],
      ['port', 80],
    ]).id,
    'k:{"port":80,"protocol":"TCP"}',
  );
  assert.equal(valueElement('kubernetes').id, 'v:"kubernetes"');
  assert.equal(valueElement({ b: 1, a: [2] }).id, 'v:{"a":[2],"b":1}');
  assert.equal(indexElement(3).id, 'i:3');
});

test('FieldsV1 keys parse back to the same elements; unknown prefixes are skipped', () => {
  for (const key of ['f:metadata', 'k:{"name":"nginx"}', 'k:{"port":80,"protocol":"TCP"}', 'v:"a"', 'v:5', 'i:0', 'f:a.b/c']) {
    assert.equal(deserializeElement(key)!.id, key);
  }
  assert.equal(deserializeElement('x:whatever'), undefined);
  assert.throws(() => deserializeElement('k:{"name":'), PathElementError);
  assert.throws(() => deserializeElement('k:[1]'), /is not an object/);
  assert.throws(() => deserializeElement('i:one'), /invalid index/);
});

test('paths print as Kubernetes prints them in conflicts', () => {
  const path = [
    fieldElement('spec'),
    fieldElement('ports'),
    keyElement([
      ['port', 80],
      ['protocol', 'TCP'],
    ]),
    fieldElement('name'),
  ];
  assert.equal(pathString(path), '.spec.ports[port=80,protocol="TCP"].name');
  assert.equal(pathString([fieldElement('metadata'), fieldElement('finalizers'), valueElement('x')]), '.metadata.finalizers[="x"]');
  assert.equal(pathString([fieldElement('args'), indexElement(2)]), '.args[2]');
});

test('set order: fields, then keys, values and indexes; values numbers < strings < booleans', () => {
  const sorted = [
    indexElement(1),
    valueElement(true),
    valueElement('b'),
    valueElement(2),
    keyElement([['name', 'a']]),
    fieldElement('z'),
    fieldElement('a'),
  ].sort(compareElements);
  assert.deepEqual(
    sorted.map((pe) => pe.id),
    ['f:a', 'f:z', 'k:{"name":"a"}', 'v:2', 'v:"b"', 'v:true', 'i:1'],
  );
  assert.ok(compareElements(keyElement([['port', 80]]), keyElement([['port', 443]])) < 0);
  assert.equal(compareElements(keyElement([['a', 1]]), keyElement([['a', 1]])), 0);
});
