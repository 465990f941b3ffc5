import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyConflictError, printManager } from '../../../apiserver/fieldmanager/conflict-error.js';
import { fieldElement as f } from '../../../apiserver/fieldmanager/path-element.js';

const APPLIER = '{"manager":"kubectl","operation":"Apply"}';
const UPDATER = '{"manager":"ctl","operation":"Update","apiVersion":"apps/v1","subresource":"status"}';

test('managers print with their subresource and, for updates, the API version', () => {
  assert.equal(printManager(APPLIER), '"kubectl"');
  assert.equal(printManager(UPDATER), '"ctl" with subresource "status" using apps/v1');
});

test('one conflict: 409 Conflict with one FieldManagerConflict cause', () => {
  const err = applyConflictError([{ manager: APPLIER, path: [f('spec'), f('replicas')] }]);
  assert.equal(err.code, 409);
  assert.deepEqual(err.status, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas',
    reason: 'Conflict',
    details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl"', field: '.spec.replicas' }] },
    code: 409,
  });
});

test('several conflicts are listed by manager', () => {
  const err = applyConflictError([
    { manager: UPDATER, path: [f('status'), f('a')] },
    { manager: APPLIER, path: [f('spec'), f('x')] },
    { manager: APPLIER, path: [f('spec'), f('y')] },
  ]);
  assert.equal(
    err.status.message,
    'Apply failed with 3 conflicts: conflicts with "ctl" with subresource "status" using apps/v1:\n- .status.a\nconflicts with "kubectl":\n- .spec.x\n- .spec.y',
  );
  assert.equal(err.status.details!.causes!.length, 3);
});
