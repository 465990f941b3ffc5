import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import { newPersistentVolumeLabel } from '../../../../apiserver/admission/plugins/persistent-volume-label.js';
import { attrs, newEnv, rejection } from '../fixture.js';

const plugin = newPersistentVolumeLabel(newEnv(), undefined);
const pv = (labels: Record<string, string>, spec: Record<string, unknown> = {}, provisioned = true) =>
  ({
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: 'pv', labels, annotations: provisioned ? { 'pv.orch.io/provisioned-by': 'csi.example.com' } : {} },
    spec: { capacity: { storage: '1Gi' }, ...spec },
  }) as unknown as ApiObject & { spec: Record<string, any> };
const admit = async (obj: ApiObject) => {
  await plugin.admit!(attrs({ resource: 'persistentvolumes', object: obj }));
  return obj as ApiObject & { spec: Record<string, any> };
};

test('PersistentVolumeLabel requires the zone and region of a provisioned volume in its node affinity', async () => {
  const ga = await admit(pv({ 'topology.orch.io/zone': 'b__a', 'topology.orch.io/region': 'r' }));
  assert.deepEqual(ga.spec.nodeAffinity, {
    required: {
      nodeSelectorTerms: [
        {
          matchExpressions: [
            { key: 'topology.orch.io/zone', operator: 'In', values: ['a', 'b'] },
            { key: 'topology.orch.io/region', operator: 'In', values: ['r'] },
          ],
        },
      ],
    },
  });
  const beta = await admit(pv({ 'failure-domain.beta.orch.io/zone': 'z', 'failure-domain.beta.orch.io/region': 'r' }));
  assert.deepEqual(
    beta.spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions.map((e: { key: string }) => e.key),
    ['failure-domain.beta.orch.io/zone', 'failure-domain.beta.orch.io/region'],
  );
  assert.equal(plugin.handles('UPDATE'), false);
});

test('PersistentVolumeLabel leaves volumes it knows nothing about, and affinities that already name the keys', async () => {
  assert.equal((await admit(pv({ 'topology.orch.io/zone': 'z', 'topology.orch.io/region': 'r' }, {}, false))).spec.nodeAffinity, undefined);
  assert.equal((await admit(pv({ 'topology.orch.io/zone': 'z' }))).spec.nodeAffinity, undefined);
  const own = {
    required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.orch.io/zone', operator: 'In', values: ['x'] }] }] },
  };
  const kept = await admit(pv({ 'topology.orch.io/zone': 'z', 'topology.orch.io/region': 'r' }, { nodeAffinity: structuredClone(own) }));
  assert.deepEqual(kept.spec.nodeAffinity, own);
  assert.equal((await admit(pv({}, { gcePersistentDisk: { pdName: 'placeholder-for-provisioning' } }))).spec.nodeAffinity, undefined);
});

test('PersistentVolumeLabel refuses cloud disks it cannot ask a cloud about, and empty zones', async () => {
  const gce = await rejection(admit(pv({}, { gcePersistentDisk: { pdName: 'disk-1' } })));
  assert.equal(gce.code, 403);
  assert.equal(gce.message, 'persistentvolumes "pv" is forbidden: error querying GCE PD volume disk-1: no cloud provider is configured');
  assert.match((await rejection(admit(pv({}, { azureDisk: { diskName: 'd' } })))).message, /error querying AzureDisk volume d/);
  assert.match((await rejection(admit(pv({}, { vsphereVolume: { volumePath: '/p' } })))).message, /error querying vSphere Volume \/p/);
  const empty = await rejection(admit(pv({ 'topology.orch.io/zone': 'a__', 'topology.orch.io/region': 'r' })));
  assert.match(empty.message, /failed to convert label string for Zone: a__ to a Set/);
});
