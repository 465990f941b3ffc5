import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fieldPath, errorMessage } from '../../../../../apiserver/api/field-errors.js';
import { newApiDomain } from '../../../../../apiserver/api/domain.js';
import {
  applyVolumeSourceDefaults,
  validateVolumeSources,
} from '../../../../../apiserver/registry/shared/persistent-volume/volume-sources.js';

const orch = newApiDomain();
const check = (spec: Record<string, unknown>, pvName = 'pv', domain = orch) =>
  validateVolumeSources(spec, fieldPath('spec'), { pvName, domain, nodeAffinitySet: false }).map(errorMessage);

describe('PersistentVolume sources', () => {
  it('allows one source; later ones are forbidden under Kubernetes’ names (cephFS), flexVolume is never "more than 1"', () => {
    assert.deepEqual(check({ nfs: { server: 's', path: '/p' }, cephfs: { monitors: ['m'] } }), [
      'spec.cephFS: Forbidden: may not specify more than 1 volume type',
    ]);
    assert.deepEqual(check({ nfs: { server: 's', path: '/p' }, flexVolume: { driver: 'd' } }), []);
    assert.deepEqual(check({}), ['spec: Required value: must specify a volume type']);
  });

  it('checks iSCSI names, LUN, CHAP secrets and the portal length with an initiator', () => {
    assert.deepEqual(
      check({ iscsi: { targetPortal: 'p'.repeat(62), iqn: 'iqn.bad', lun: 256, chapAuthSession: true, initiatorName: 'eui.0123' } }, 'pv'),
      [
        `spec.iscsi.targetportal: Invalid value: "${'p'.repeat(62)}": Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.`,
        'spec.iscsi.iqn: Invalid value: "iqn.bad": must be valid format',
        'spec.iscsi.lun: Invalid value: 256: must be between 0 and 255, inclusive',
        'spec.iscsi.secretRef: Required value',
        'spec.iscsi.initiatorname: Invalid value: "eui.0123": must be valid format',
      ],
    );
    assert.deepEqual(
      check({ iscsi: { targetPortal: '1.2.3.4:3260', iqn: `naa.${'a'.repeat(32)}`, initiatorName: 'iqn.2001-04.com.example:host' } }),
      [],
    );
  });

  it('checks fibre channel, quobyte, flocker, glusterfs and storageos sources', () => {
    assert.deepEqual(check({ fc: { targetWWNs: ['w'], wwids: ['x'] } }), [
      'spec.fc.targetWWNs: Invalid value: []string{"w"}: targetWWNs and wwids can not be specified simultaneously',
      'spec.fc.lun: Required value: lun is required if targetWWNs is specified',
    ]);
    assert.deepEqual(check({ quobyte: { registry: 'host:7861,nohost', volume: '' } }), [
      'spec.quobyte.registry: Invalid value: "host:7861,nohost": must be a host:port pair or multiple pairs separated by commas',
      'spec.quobyte.volume: Required value',
    ]);
    assert.deepEqual(check({ flocker: { datasetName: 'a/b', datasetUUID: 'u' } }), [
      'spec.flocker: Invalid value: "resource": datasetName and datasetUUID can not be specified simultaneously',
      'spec.flocker.datasetName: Invalid value: "a/b": must not contain \'/\'',
    ]);
    assert.deepEqual(check({ glusterfs: { endpoints: 'e', path: 'p', endpointsNamespace: '' } }), [
      'spec.glusterfs.endpointsNamespace: Invalid value: "": if the endpointnamespace is set, it must be a valid namespace name',
    ]);
    assert.deepEqual(check({ storageos: { volumeName: 'v', secretRef: { name: 's' } } }), [
      'spec.storageos.secretRef.namespace: Required value',
    ]);
  });

  it('reserves the domain’s option namespaces for flexVolume (kubernetes.io and k8s.io under k8s.io)', () => {
    assert.deepEqual(check({ flexVolume: { driver: 'd', options: { 'orch.io/x': '1', 'example.com/y': '2' } } }), [
      'spec.flexVolume.options[orch.io/x]: Invalid value: "orch.io/x": orch.io namespaces are reserved',
    ]);
    assert.deepEqual(check({ flexVolume: { driver: 'd', options: { 'sub.k8s.io/x': '1' } } }, 'pv', newApiDomain('k8s.io')), [
      'spec.flexVolume.options[sub.k8s.io/x]: Invalid value: "sub.k8s.io/x": kubernetes.io and k8s.io namespaces are reserved',
    ]);
  });

  it('checks Azure disk enums and URI forms', () => {
    assert.deepEqual(check({ azureDisk: { diskName: 'd', diskURI: 'https://x', kind: 'Managed', cachingMode: 'Some' } }), [
      'spec.azureDisk.cachingMode: Unsupported value: "Some": supported values: "None", "ReadOnly", "ReadWrite"',
      'spec.azureDisk.diskURI: Unsupported value: "https://x": supported values: "/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}"',
    ]);
  });

  it('fills plugin defaults only where Kubernetes does', () => {
    const spec: Record<string, unknown> = {
      rbd: { monitors: ['m'], image: 'i', pool: '' },
      scaleIO: { gateway: 'g', system: 's', volumeName: 'v' },
      hostPath: { path: '/x', type: 'Directory' },
    };
    applyVolumeSourceDefaults(spec);
    assert.deepEqual(spec.rbd, { monitors: ['m'], image: 'i', pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' });
    assert.deepEqual(spec.scaleIO, { gateway: 'g', system: 's', volumeName: 'v', storageMode: 'ThinProvisioned', fsType: 'xfs' });
    assert.deepEqual(spec.hostPath, { path: '/x', type: 'Directory' });
  });
});
