/**
 * Which kinds answer a DELETE with the deleted object and which with a Success Status: Kubernetes 1.28
 * sets ReturnDeletedObject in the REST storage of exactly these kinds (pkg/registry/.../storage.go).
 * One case per declared kind, so a new kind has to be placed on one side.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { allResources } from '../../../../apiserver/registry/resources/index.js';

const RETURNS_DELETED_OBJECT = new Set([
  '/Namespace',
  '/PersistentVolume',
  '/PersistentVolumeClaim',
  '/Pod',
  '/PodTemplate',
  '/ResourceQuota',
  '/Service',
  '/ServiceAccount',
  'storage.k8s.io/CSIDriver',
  'storage.k8s.io/CSINode',
  'storage.k8s.io/StorageClass',
  'storage.k8s.io/VolumeAttachment',
]);

for (const def of allResources) {
  const key = `${def.kubernetesGroup}/${def.kind}`;
  const expected = RETURNS_DELETED_OBJECT.has(key);
  test(`DELETE of ${key} ${def.version} answers ${expected ? 'the deleted object' : 'a Success Status'}`, () => {
    assert.equal(def.returnDeletedObject === true, expected);
  });
}

test('every kind Kubernetes answers with the object is declared', () => {
  const declared = new Set(allResources.map((d) => `${d.kubernetesGroup}/${d.kind}`));
  for (const key of RETURNS_DELETED_OBJECT) assert.ok(declared.has(key), key);
});
