import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPersistentVolumeClaimResize } from '../../../../apiserver/admission/plugins/persistent-volume-claim-resize.js';
import { STORAGE_CLASSES } from '../../../../apiserver/admission/resources.js';
import { attrs, newEnv, Objects, rejection } from '../fixture.js';

const objects = new Objects();
objects.put(STORAGE_CLASSES, {
  apiVersion: 'storage.orch.io/v1',
  kind: 'StorageClass',
  metadata: { name: 'grow' },
  provisioner: 'x',
  allowVolumeExpansion: true,
});
objects.put(STORAGE_CLASSES, { apiVersion: 'storage.orch.io/v1', kind: 'StorageClass', metadata: { name: 'fixed' }, provisioner: 'x' });
const p = newPersistentVolumeClaimResize(newEnv(objects), undefined);
const claim = (size: string, storageClassName: string, phase = 'Bound') => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name: 'c', namespace: 'ns' },
  spec: { storageClassName, resources: { requests: { storage: size } } },
  status: { phase },
});
const update = (next: ReturnType<typeof claim>, old: ReturnType<typeof claim>) =>
  p.validate!(attrs({ operation: 'UPDATE', resource: 'persistentvolumeclaims', namespace: 'ns', object: next, oldObject: old }));

test('PersistentVolumeClaimResize lets a bound claim of an expandable class grow; shrinking or equal is not its business', async () => {
  await update(claim('2Gi', 'grow'), claim('1Gi', 'grow'));
  await update(claim('1Gi', 'fixed'), claim('1024Mi', 'fixed'));
});

test('PersistentVolumeClaimResize refuses growth of an unbound claim or of a class without expansion', async () => {
  assert.match(
    (await rejection(update(claim('2Gi', 'grow'), claim('1Gi', 'grow', 'Pending')))).status.message!,
    /Only bound persistent volume claims can be expanded/,
  );
  assert.match(
    (await rejection(update(claim('2Gi', 'fixed'), claim('1Gi', 'fixed')))).status.message!,
    /only dynamically provisioned pvc can be resized/,
  );
  assert.match((await rejection(update(claim('2Gi', 'missing'), claim('1Gi', 'missing')))).status.message!, /must support resize/);
});
