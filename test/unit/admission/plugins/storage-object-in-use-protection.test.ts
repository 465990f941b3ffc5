import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newApiDomain } from '../../../../apiserver/api/domain.js';
import { newStorageObjectInUseProtection } from '../../../../apiserver/admission/plugins/storage-object-in-use-protection.js';
import { attrs, newEnv } from '../fixture.js';

const plugin = newStorageObjectInUseProtection(newEnv(), undefined);
const finalizersAfter = async (w: Parameters<typeof attrs>[0]) => {
  const a = attrs(w);
  if (plugin.handles(a.operation)) await plugin.admit!(a);
  return a.object?.metadata.finalizers;
};
const obj = (finalizers?: string[]) => ({ apiVersion: 'v1', kind: 'X', metadata: { name: 'x', finalizers } });

test('StorageObjectInUseProtection adds the pv-protection and pvc-protection finalizers on create, once', async () => {
  assert.deepEqual(await finalizersAfter({ resource: 'persistentvolumes', object: obj() }), ['orch.io/pv-protection']);
  assert.deepEqual(await finalizersAfter({ resource: 'persistentvolumeclaims', namespace: 'ns', object: obj(['a']) }), [
    'a',
    'orch.io/pvc-protection',
  ]);
  assert.deepEqual(await finalizersAfter({ resource: 'persistentvolumeclaims', object: obj(['orch.io/pvc-protection']) }), [
    'orch.io/pvc-protection',
  ]);
});

test('StorageObjectInUseProtection leaves updates, subresources and other kinds alone; names follow the API domain', async () => {
  assert.equal(await finalizersAfter({ operation: 'UPDATE', resource: 'persistentvolumes', object: obj(), oldObject: obj() }), undefined);
  assert.equal(await finalizersAfter({ resource: 'persistentvolumeclaims', subresource: 'status', object: obj() }), undefined);
  assert.equal(await finalizersAfter({ resource: 'configmaps', object: obj() }), undefined);
  const kube = newStorageObjectInUseProtection(newEnv(undefined, { domain: newApiDomain('k8s.io') }), undefined);
  const a = attrs({ resource: 'persistentvolumes', object: obj() });
  await kube.admit!(a);
  assert.deepEqual(a.object?.metadata.finalizers, ['kubernetes.io/pv-protection']);
});
