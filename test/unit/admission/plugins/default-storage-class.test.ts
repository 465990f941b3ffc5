import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newDefaultStorageClass } from '../../../../apiserver/admission/plugins/default-storage-class.js';
import { STORAGE_CLASSES } from '../../../../apiserver/admission/resources.js';
import { attrs, newEnv, Objects } from '../fixture.js';

const sc = (name: string, created: string, annotations: Record<string, string> = {}) => ({
  apiVersion: 'storage.orch.io/v1',
  kind: 'StorageClass',
  metadata: { name, creationTimestamp: created, annotations },
  provisioner: 'x',
});
const pvc = (spec: Record<string, unknown> = {}, annotations?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'claim', namespace: 'ns', annotations },
  spec: { accessModes: ['ReadWriteOnce'], ...spec },
});
const admit = async (objects: Objects, obj: ReturnType<typeof pvc>) => {
  await newDefaultStorageClass(newEnv(objects), undefined).admit!(
    attrs({ resource: 'persistentvolumeclaims', namespace: 'ns', object: obj }),
  );
  return (obj.spec as { storageClassName?: string }).storageClassName;
};

test('DefaultStorageClass gives a claim without class the default class; the newest default wins', async () => {
  const objects = new Objects();
  assert.equal(await admit(objects, pvc()), undefined);
  objects.put(STORAGE_CLASSES, sc('plain', '2024-01-01T00:00:00Z'));
  assert.equal(await admit(objects, pvc()), undefined);
  objects.put(STORAGE_CLASSES, sc('old', '2024-01-01T00:00:00Z', { 'storageclass.orch.io/is-default-class': 'true' }));
  assert.equal(await admit(objects, pvc()), 'old');
  objects.put(STORAGE_CLASSES, sc('new', '2024-02-01T00:00:00Z', { 'storageclass.beta.orch.io/is-default-class': 'true' }));
  assert.equal(await admit(objects, pvc()), 'new');
});

test('DefaultStorageClass leaves a claim that names a class (even "") or has the beta annotation', async () => {
  const objects = new Objects();
  objects.put(STORAGE_CLASSES, sc('d', '2024-01-01T00:00:00Z', { 'storageclass.orch.io/is-default-class': 'true' }));
  assert.equal(await admit(objects, pvc({ storageClassName: '' })), '');
  assert.equal(await admit(objects, pvc({ storageClassName: 'fast' })), 'fast');
  assert.equal(await admit(objects, pvc({}, { 'volume.beta.orch.io/storage-class': 'x' })), undefined);
});
