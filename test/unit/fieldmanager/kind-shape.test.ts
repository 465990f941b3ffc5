import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newEmptyObject, resetFields } from '../../../apiserver/fieldmanager/kind-shape.js';
import { pathString } from '../../../apiserver/fieldmanager/path-element.js';
import { def, definitions } from './fixture.js';

test('the empty object a create starts from has spec and status where the kind has them', () => {
  assert.deepEqual(newEmptyObject(def, definitions), { apiVersion: 'test.orch.io/v1', kind: 'Widget', metadata: {}, spec: {}, status: {} });
});

test('reset fields: status on the main resource, everything else through /status, none without a status subresource', () => {
  assert.deepEqual(resetFields(def, definitions, '')!.paths().map(pathString), ['.status']);
  assert.deepEqual(resetFields(def, definitions, 'status')!.paths().map(pathString), ['.apiVersion', '.kind', '.metadata', '.spec']);
  assert.equal(resetFields({ ...def, subresources: undefined }, definitions, ''), undefined);
});
