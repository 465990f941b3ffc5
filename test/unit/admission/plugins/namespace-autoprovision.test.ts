import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newNamespaceAutoProvision } from '../../../../apiserver/admission/plugins/namespace-autoprovision.js';
import { NAMESPACES } from '../../../../apiserver/admission/resources.js';
import { attrs, newEnv, Objects } from '../fixture.js';

const cm = (ns: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: ns } });

test('NamespaceAutoProvision creates the missing namespace of a create, once', async () => {
  const objects = new Objects();
  const p = newNamespaceAutoProvision(newEnv(objects), undefined);
  await p.admit!(attrs({ resource: 'configmaps', namespace: 'fresh', object: cm('fresh') }));
  assert.equal((await objects.reader.get(NAMESPACES, '', 'fresh'))?.metadata.name, 'fresh');
  await p.admit!(attrs({ resource: 'configmaps', namespace: 'fresh', object: cm('fresh') }));
  assert.equal((await objects.reader.list(NAMESPACES, '')).length, 1);
  assert.deepEqual([p.handles('CREATE'), p.handles('UPDATE')], [true, false]);
});

test('NamespaceAutoProvision creates nothing on dry run; a namespace that appeared meanwhile is fine', async () => {
  const objects = new Objects();
  const p = newNamespaceAutoProvision(newEnv(objects), undefined);
  await p.admit!(attrs({ resource: 'configmaps', namespace: 'dry', object: cm('dry'), dryRun: true }));
  assert.equal(await objects.reader.get(NAMESPACES, '', 'dry'), null);
  // The reader misses it, the create meets AlreadyExists: admitted.
  const racing = new Objects();
  racing.put(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'raced' } });
  const p2 = newNamespaceAutoProvision(newEnv(racing, { reader: { get: async () => null, list: async () => [] } }), undefined);
  await p2.admit!(attrs({ resource: 'configmaps', namespace: 'raced', object: cm('raced') }));
});
