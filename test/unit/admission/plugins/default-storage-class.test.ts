import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newDefaultStorageClass } from '../../../../apiserver/admission/plugins/default-storage-class.js';
import { STORAGE_CLASSES } from '../../../../apiserver/admission/resources.js';
import { newApiDomain } from '../../../../apiserver/api/domain.js';
import type { ApiError } from '../../../../apiserver/api/status.js';
import { attrs, newEnv, Objects, rejection } from '../fixture.js';

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
const kube = newApiDomain('k8s.io');
const admit = async (objects: Objects, obj: ReturnType<typeof pvc>, domain = newEnv().domain) => {
  await newDefaultStorageClass(newEnv(objects, { domain }), undefined).admit!(
    attrs({ resource: 'persistentvolumeclaims', namespace: 'ns', object: obj }),
  );
  return (obj.spec as { storageClassName?: string }).storageClassName;
};

test('DefaultStorageClass gives a claim without class the default class', async () => {
  const objects = new Objects();
  assert.equal(await admit(objects, pvc()), undefined);
  objects.put(STORAGE_CLASSES, sc('plain', '2024-01-01T00:00:00Z'));
  assert.equal(await admit(objects, pvc()), undefined);
  objects.put(STORAGE_CLASSES, sc('old', '2024-01-01T00:00:00Z', { 'storageclass.orch.io/is-default-class': 'true' }));
  assert.equal(await admit(objects, pvc()), 'old');
});

test('DefaultStorageClass with several defaults: refused in the default domain (the seed, Kubernetes < 1.26), the newest in k8s.io', async () => {
  const objects = new Objects();
  objects.put(STORAGE_CLASSES, sc('old', '2024-01-01T00:00:00Z', { 'storageclass.orch.io/is-default-class': 'true' }));
  objects.put(STORAGE_CLASSES, sc('new', '2024-02-01T00:00:00Z', { 'storageclass.beta.orch.io/is-default-class': 'true' }));
  const err = (await rejection(admit(objects, pvc()))) as ApiError;
  assert.equal(err.code, 403);
  assert.equal(err.status.reason, 'Forbidden');
  assert.equal(
    err.status.message,
    'persistentvolumeclaims "claim" is forbidden: Internal error occurred: 2 default StorageClasses were found',
  );
  assert.deepEqual(err.status.details, { name: 'claim', kind: 'persistentvolumeclaims' });
  // A claim that names its class does not need the default: not refused.
  assert.equal(await admit(objects, pvc({ storageClassName: 'fast' })), 'fast');

  const k = new Objects();
  k.put(STORAGE_CLASSES, sc('old', '2024-01-01T00:00:00Z', { 'storageclass.kubernetes.io/is-default-class': 'true' }));
  k.put(STORAGE_CLASSES, sc('new', '2024-02-01T00:00:00Z', { 'storageclass.beta.kubernetes.io/is-default-class': 'true' }));
  assert.equal(await admit(k, pvc(), kube), 'new');
});

test('DefaultStorageClass leaves a claim that names a class (even "") or has the beta annotation', async () => {
  const objects = new Objects();
  objects.put(STORAGE_CLASSES, sc('d', '2024-01-01T00:00:00Z', { 'storageclass.orch.io/is-default-class': 'true' }));
  assert.equal(await admit(objects, pvc({ storageClassName: '' })), '');
  assert.equal(await admit(objects, pvc({ storageClassName: 'fast' })), 'fast');
  assert.equal(await admit(objects, pvc({}, { 'volume.beta.orch.io/storage-class': 'x' })), undefined);
});
