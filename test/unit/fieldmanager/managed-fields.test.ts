import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FieldSet } from '../../../apiserver/fieldmanager/field-set.js';
import {
  decodeManagedFields,
  encodeManagedFields,
  ManagedFieldsError,
  managerIdentifier,
  parseManagerIdentifier,
} from '../../../apiserver/fieldmanager/managed-fields.js';
import { fieldElement } from '../../../apiserver/fieldmanager/path-element.js';

test('manager identifiers: one per manager, operation, subresource and (for updates only) apiVersion', () => {
  assert.equal(
    managerIdentifier({ manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1' }),
    '{"manager":"kubectl","operation":"Apply"}',
  );
  assert.equal(
    managerIdentifier({ manager: 'ctl', operation: 'Update', apiVersion: 'v1', subresource: 'status' }),
    '{"manager":"ctl","operation":"Update","apiVersion":"v1","subresource":"status"}',
  );
});

test('entries decode to sets and encode back, sorted: Apply first, then by time, manager, apiVersion', () => {
  const entry = (manager: string, operation: string, time?: string) => ({
    manager,
    operation,
    apiVersion: 'v1',
    ...(time ? { time } : {}),
    fieldsType: 'FieldsV1',
    fieldsV1: { 'f:data': { [`f:${manager}`]: {} } },
  });
  const entries = [
    entry('b', 'Update', '2024-01-01T00:00:02Z'),
    entry('a', 'Update', '2024-01-01T00:00:02Z'),
    entry('z', 'Update', '2024-01-01T00:00:01Z'),
    entry('y', 'Apply'),
  ];
  const managed = decodeManagedFields(entries);
  assert.equal(managed.fields.size, 4);
  assert.ok(managed.fields.get('{"manager":"y","operation":"Apply"}')!.applied);
  assert.deepEqual(
    encodeManagedFields(managed)!.map((e) => e.manager),
    ['y', 'z', 'a', 'b'],
  );
  assert.deepEqual(encodeManagedFields(managed)![1], entries[2]);
});

test('nothing owned encodes as no managedFields', () => {
  assert.equal(encodeManagedFields({ fields: new Map(), times: new Map() }), undefined);
  const managed = decodeManagedFields(undefined);
  managed.fields.set('{"manager":"m","operation":"Update","apiVersion":"v1"}', {
    set: FieldSet.of([fieldElement('x')]),
    apiVersion: 'v1',
    applied: false,
  });
  assert.deepEqual(encodeManagedFields(managed), [
    { manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:x': {} } },
  ]);
});

test('invalid entries make the list undecodable', () => {
  const ok = { manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} };
  for (const [bad, message] of [
    [{ ...ok, operation: 'Patch' }, 'operation must be `Apply` or `Update`'],
    [{ ...ok, apiVersion: '' }, 'apiVersion must not be empty'],
    [{ ...ok, fieldsType: '' }, 'missing fieldsType in managed fields entry 0'],
    [{ ...ok, fieldsType: 'FieldsV2' }, 'invalid fieldsType "FieldsV2" in managed fields entry 0'],
    [{}, 'operation must be `Apply` or `Update`'],
  ] as const) {
    assert.throws(
      () => decodeManagedFields([bad]),
      (err: unknown) => err instanceof ManagedFieldsError && err.message === message,
    );
  }
  assert.throws(() => decodeManagedFields([{ ...ok, fieldsV1: { 'f:a': 1 } }]), /error decoding versioned set from entry 0/);
});

test('manager identifiers are the JSON of their identity, whatever was asked before', () => {
  const update = { manager: 'm', operation: 'Update', apiVersion: 'v1', subresource: 'status' };
  for (let i = 0; i < 2; i++) {
    assert.equal(managerIdentifier(update), '{"manager":"m","operation":"Update","apiVersion":"v1","subresource":"status"}');
    assert.equal(managerIdentifier({ manager: 'm', operation: 'Apply', apiVersion: 'v1' }), '{"manager":"m","operation":"Apply"}');
    assert.equal(managerIdentifier({ operation: 'Update', apiVersion: 'v1' }), '{"operation":"Update","apiVersion":"v1"}');
    // A value that is not a string is kept as it is, never confused with its text.
    assert.equal(managerIdentifier({ manager: 5 as unknown as string, operation: 'Update' }), '{"manager":5,"operation":"Update"}');
    assert.equal(managerIdentifier({ manager: '5', operation: 'Update' }), '{"manager":"5","operation":"Update"}');
  }
  for (let i = 0; i < 3000; i++)
    assert.equal(managerIdentifier({ manager: `m${i}`, operation: 'Update' }), `{"manager":"m${i}","operation":"Update"}`);
  assert.deepEqual(parseManagerIdentifier(managerIdentifier(update)), update);
  assert.deepEqual(parseManagerIdentifier('{"manager":"never-made","operation":"Apply"}'), { manager: 'never-made', operation: 'Apply' });
});
