import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newAlwaysAdmit } from '../../../../apiserver/admission/plugins/always-admit.js';
import { newAlwaysDeny } from '../../../../apiserver/admission/plugins/always-deny.js';
import { attrs, newEnv, rejection } from '../fixture.js';

const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns' } };

test('AlwaysAdmit admits every operation unchanged', async () => {
  const p = newAlwaysAdmit(newEnv(), undefined);
  for (const op of ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const) assert.ok(p.handles(op));
  const a = attrs({ resource: 'configmaps', namespace: 'ns', object: structuredClone(cm) });
  await p.admit!(a);
  await p.validate!(a);
  assert.deepEqual(a.object, cm);
});

test('AlwaysDeny refuses every write with 403 in both phases', async () => {
  const p = newAlwaysDeny(newEnv(), undefined);
  const a = attrs({ resource: 'configmaps', namespace: 'ns', object: structuredClone(cm) });
  for (const err of [await rejection(p.admit!(a)), await rejection(p.validate!(a))]) {
    assert.equal(err.code, 403);
    assert.equal(err.status.message, 'configmaps "c" is forbidden: admission control is denying all modifications');
  }
});
