import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newNamespaceExists } from '../../../../apiserver/admission/plugins/namespace-exists.js';
import { NAMESPACES } from '../../../../apiserver/admission/resources.js';
import { attrs, newEnv, Objects, rejection } from '../fixture.js';

test('NamespaceExists: 404 for a write into a missing namespace; existing namespaces and cluster objects pass', async () => {
  const objects = new Objects();
  objects.put(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'here' } });
  const p = newNamespaceExists(newEnv(objects), undefined);
  const cm = (ns: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: ns } });
  await p.validate!(attrs({ resource: 'configmaps', namespace: 'here', object: cm('here') }));
  await p.validate!(
    attrs({ resource: 'namespaces', name: 'new', object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'new' } } }),
  );
  const err = await rejection(p.validate!(attrs({ resource: 'configmaps', namespace: 'gone', object: cm('gone') })));
  assert.equal(err.code, 404);
  assert.equal(err.status.message, 'namespaces "gone" not found');
  for (const op of ['CREATE', 'UPDATE', 'DELETE'] as const) assert.ok(p.handles(op));
});
