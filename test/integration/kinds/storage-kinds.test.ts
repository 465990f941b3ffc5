/**
 * Storage kinds over HTTP: PersistentVolume, PersistentVolumeClaim and storage.orch.io/v1 (StorageClass,
 * VolumeAttachment, CSIDriver, CSINode, CSIStorageCapacity) with Kubernetes' defaults as stored, each
 * invalid case's 422 causes, each immutability rule on update, status subresources and tables.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { createNamespace } from '../../support/namespaces.js';
import type { TestClient } from '../../support/http-client.js';
import { invalidCauses, firstTableRow } from '../../support/api-assertions.js';

const PVS = '/api/v1/persistentvolumes';
const PVCS = '/api/v1/namespaces/store/persistentvolumeclaims';
const STORAGE = '/apis/storage.orch.io/v1';

function pv(name: string, spec: Record<string, unknown> = {}) {
  return {
    metadata: { name },
    spec: { capacity: { storage: '10Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' }, ...spec },
  };
}

function pvc(name: string, spec: Record<string, unknown> = {}) {
  return { metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec } };
}

describe('storage kinds', () => {
  let s: TestServer;
  let c: TestClient;

  const causes = (method: 'post' | 'put', path: string, body: unknown) => invalidCauses(c, method, path, body);

  const table = (path: string) => firstTableRow(c, path);

  before(async () => {
    s = await startTestServer();
    c = s.client;
    await createNamespace(c, 'store');
  });
  after(() => s?.stop());

  describe('PersistentVolume', () => {
    it('is served as pv, cluster-scoped, with a status subresource', async () => {
      const r = await c.get('/api/v1');
      const names = r.body.resources.map((x: { name: string }) => x.name);
      assert.ok(names.includes('persistentvolumes/status') && names.includes('persistentvolumeclaims/status'));
      const pvRes = r.body.resources.find((x: { name: string }) => x.name === 'persistentvolumes');
      assert.deepEqual([pvRes.namespaced, pvRes.shortNames], [false, ['pv']]);
    });

    it('stores Kubernetes defaults: Retain, Filesystem, hostPath type "", phase Pending (status given on create is dropped)', async () => {
      const r = await c.post(PVS, { ...pv('pv-defaults'), status: { phase: 'Bound' } });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.spec.persistentVolumeReclaimPolicy, 'Retain');
      assert.equal(r.body.spec.volumeMode, 'Filesystem');
      assert.deepEqual(r.body.spec.hostPath, { path: '/data', type: '' });
      assert.deepEqual(r.body.status, { phase: 'Pending' });
      assert.deepEqual((await c.get(`${PVS}/pv-defaults`)).body, r.body);
    });

    it('fills source defaults (rbd pool/user/keyring, iscsi interface, azureDisk caching/kind/fsType)', async () => {
      const rbd = await c.post(PVS, pv('pv-rbd', { hostPath: undefined, rbd: { monitors: ['m:6789'], image: 'img' } }));
      assert.equal(rbd.status, 201, rbd.text);
      assert.deepEqual(rbd.body.spec.rbd, { monitors: ['m:6789'], image: 'img', pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' });
      const iscsi = await c.post(
        PVS,
        pv('pv-iscsi', { hostPath: undefined, iscsi: { targetPortal: '10.0.0.1:3260', iqn: 'iqn.2001-04.com.example:storage', lun: 0 } }),
      );
      assert.equal(iscsi.body.spec.iscsi.iscsiInterface, 'default');
      const azure = await c.post(
        PVS,
        pv('pv-azure', { hostPath: undefined, azureDisk: { diskName: 'd', diskURI: 'https://a.blob.core.windows.net/c/d.vhd' } }),
      );
      assert.equal(azure.status, 201, azure.text);
      assert.deepEqual(azure.body.spec.azureDisk, {
        diskName: 'd',
        diskURI: 'https://a.blob.core.windows.net/c/d.vhd',
        cachingMode: 'ReadWrite',
        kind: 'Shared',
        fsType: 'ext4',
        readOnly: false,
      });
    });

    it('requires capacity (storage only, positive), access modes and exactly one source', async () => {
      assert.deepEqual(await causes('post', PVS, { metadata: { name: 'pv-empty' }, spec: {} }), [
        { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.accessModes' },
        { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.capacity' },
        { reason: 'FieldValueNotSupported', message: 'Unsupported value: {}: supported values: "storage"', field: 'spec.capacity' },
        { reason: 'FieldValueRequired', message: 'Required value: must specify a volume type', field: 'spec' },
      ]);
      assert.deepEqual(
        await causes(
          'post',
          PVS,
          pv('pv-bad', { capacity: { storage: '-1Gi', cpu: '1' }, accessModes: ['ReadWriteOncePod', 'ReadOnlyMany', 'Sometimes'] }),
        ),
        [
          {
            reason: 'FieldValueNotSupported',
            message:
              'Unsupported value: "Sometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
            field: 'spec.accessModes',
          },
          {
            reason: 'FieldValueForbidden',
            message: 'Forbidden: may not use ReadWriteOncePod with other access modes',
            field: 'spec.accessModes',
          },
          {
            reason: 'FieldValueNotSupported',
            message: 'Unsupported value: {"storage":"-1Gi","cpu":"1"}: supported values: "storage"',
            field: 'spec.capacity',
          },
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: -1073741824: must be a valid resource quantity',
            field: 'spec.capacity[storage]',
          },
          { reason: 'FieldValueInvalid', message: 'Invalid value: "-1Gi": must be greater than zero', field: 'spec.capacity[storage]' },
        ],
      );
      assert.deepEqual(await causes('post', PVS, pv('pv-two', { nfs: { server: 'nfs', path: 'relative' } })), [
        { reason: 'FieldValueForbidden', message: 'Forbidden: may not specify more than 1 volume type', field: 'spec.nfs' },
      ]);
    });

    it('checks each source, the reclaim policy, the class name, the volume mode and node affinity', async () => {
      assert.deepEqual(
        await causes(
          'post',
          PVS,
          pv('pv-nfs', { hostPath: undefined, nfs: { server: '', path: 'relative' }, persistentVolumeReclaimPolicy: 'Keep' }),
        ),
        [
          {
            reason: 'FieldValueNotSupported',
            message: 'Unsupported value: "Keep": supported values: "Delete", "Recycle", "Retain"',
            field: 'spec.persistentVolumeReclaimPolicy',
          },
          { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.nfs.server' },
          { reason: 'FieldValueInvalid', message: 'Invalid value: "relative": must be an absolute path', field: 'spec.nfs.path' },
        ],
      );
      assert.deepEqual(
        await causes(
          'post',
          PVS,
          pv('pv-gce', {
            hostPath: undefined,
            gcePersistentDisk: { pdName: '', partition: 300 },
            storageClassName: 'Fast_SSD',
            volumeMode: 'Raw',
          }),
        ),
        [
          { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.persistentDisk.pdName' },
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: 300: must be between 1 and 255, inclusive',
            field: 'spec.persistentDisk.partition',
          },
          {
            reason: 'FieldValueInvalid',
            message:
              "Invalid value: \"Fast_SSD\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
            field: 'spec.storageClassName',
          },
          {
            reason: 'FieldValueNotSupported',
            message: 'Unsupported value: "Raw": supported values: "Block", "Filesystem"',
            field: 'spec.volumeMode',
          },
        ],
      );
      assert.deepEqual(await causes('post', PVS, pv('pv-local', { hostPath: undefined, local: { path: '/mnt/../etc' } })), [
        { reason: 'FieldValueInvalid', message: 'Invalid value: "/mnt/../etc": must not contain \'..\'', field: 'spec.local.path' },
        { reason: 'FieldValueRequired', message: 'Required value: Local volume requires node affinity', field: 'spec.nodeAffinity' },
      ]);
      const affinity = {
        required: {
          nodeSelectorTerms: [
            {
              matchExpressions: [
                { key: 'zone', operator: 'In' },
                { key: 'x', operator: 'Near', values: ['a'] },
              ],
            },
          ],
        },
      };
      assert.deepEqual(await causes('post', PVS, pv('pv-affinity', { nodeAffinity: affinity })), [
        {
          reason: 'FieldValueRequired',
          message: "Required value: must be specified when `operator` is 'In' or 'NotIn'",
          field: 'spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].values',
        },
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: "Near": not a valid selector operator',
          field: 'spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[1].operator',
        },
      ]);
      assert.deepEqual(await causes('post', PVS, pv('pv-root', { hostPath: { path: '//' }, persistentVolumeReclaimPolicy: 'Recycle' })), [
        {
          reason: 'FieldValueForbidden',
          message: "Forbidden: may not be 'recycle' for a hostPath mount of '/'",
          field: 'spec.persistentVolumeReclaimPolicy',
        },
      ]);
      assert.deepEqual(
        await causes(
          'post',
          PVS,
          pv('pv-csi', { hostPath: undefined, csi: { driver: 'Bad_Driver', volumeHandle: '', nodePublishSecretRef: { name: 's' } } }),
        ),
        [
          {
            reason: 'FieldValueInvalid',
            message:
              "Invalid value: \"Bad_Driver\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
            field: 'spec.csi.driver',
          },
          { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.csi.volumeHandle' },
          { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.csi.nodePublishSecretRef.namespace' },
        ],
      );
    });

    it('refuses a malformed quantity as the decoder does (400) and stores quantities canonically', async () => {
      const bad = await c.post(PVS, pv('pv-qty', { capacity: { storage: '10 gigs' } }));
      assert.equal(bad.status, 400, bad.text);
      assert.equal(bad.body.reason, 'BadRequest');
      assert.equal(
        bad.body.message,
        `PersistentVolume in version "v1" cannot be handled as a PersistentVolume: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
      );
      const ok = await c.post(PVS, pv('pv-qty', { capacity: { storage: '2048Mi' } }));
      assert.equal(ok.status, 201, ok.text);
      assert.deepEqual(ok.body.spec.capacity, { storage: '2Gi' });
    });

    it('keeps the source and volume mode immutable; a set node affinity may only move from beta to GA labels', async () => {
      const beta = {
        required: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'failure-domain.beta.orch.io/zone', operator: 'In', values: ['a'] }] }],
        },
      };
      const created = await c.post(PVS, pv('pv-update', { nodeAffinity: beta, claimRef: { namespace: 'store', name: 'c' } }));
      assert.equal(created.status, 201, created.text);
      const cur = created.body;
      const source = await causes('put', `${PVS}/pv-update`, { ...cur, spec: { ...cur.spec, hostPath: { path: '/other', type: '' } } });
      assert.equal(source.length, 1);
      assert.equal(source[0].field, 'spec.persistentvolumesource');
      assert.match(source[0].message, /^Forbidden: spec\.persistentvolumesource is immutable after creation\n/);
      assert.deepEqual(await causes('put', `${PVS}/pv-update`, { ...cur, spec: { ...cur.spec, volumeMode: 'Block' } }), [
        { reason: 'FieldValueInvalid', message: 'Invalid value: "Block": field is immutable', field: 'volumeMode' },
      ]);
      const moved = await causes('put', `${PVS}/pv-update`, {
        ...cur,
        spec: {
          ...cur.spec,
          nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'other', operator: 'Exists' }] }] } },
        },
      });
      assert.deepEqual(
        moved.map((x) => [x.field, x.message.replace(/: \{.*\}:/, ': {…}:')]),
        [['nodeAffinity', 'Invalid value: {…}: field is immutable, except for updating from beta label to GA']],
      );
      const ga = {
        required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.orch.io/zone', operator: 'In', values: ['a'] }] }] },
      };
      const ok = await c.put(`${PVS}/pv-update`, {
        ...cur,
        spec: { ...cur.spec, nodeAffinity: ga, capacity: { storage: '20Gi' }, persistentVolumeReclaimPolicy: 'Delete' },
      });
      assert.equal(ok.status, 200, ok.text);
      assert.deepEqual(ok.body.spec.capacity, { storage: '20Gi' });
    });

    it('changes status only through /status, defaulting an empty phase to Pending', async () => {
      const cur = (await c.get(`${PVS}/pv-defaults`)).body;
      const main = await c.put(`${PVS}/pv-defaults`, { ...cur, status: { phase: 'Bound' } });
      assert.equal(main.status, 200);
      assert.deepEqual(main.body.status, { phase: 'Pending' });
      const st = await c.put(`${PVS}/pv-defaults/status`, {
        ...main.body,
        spec: { ...main.body.spec, capacity: { storage: '1Mi' } },
        status: { phase: 'Available', message: 'ok' },
      });
      assert.equal(st.status, 200, st.text);
      assert.deepEqual(st.body.status, { phase: 'Available', message: 'ok' });
      assert.deepEqual(st.body.spec.capacity, { storage: '10Gi' });
      const empty = await c.put(`${PVS}/pv-defaults/status`, { ...st.body, status: {} });
      assert.deepEqual(empty.body.status, { phase: 'Pending' });
    });

    it('prints kubectl’s columns', async () => {
      const t = await table(`${PVS}/pv-update`);
      assert.deepEqual(t.columns, [
        'Name',
        'Capacity',
        'Access Modes',
        'Reclaim Policy',
        'Status',
        'Claim',
        'StorageClass',
        'Reason',
        'Age',
        'VolumeMode',
      ]);
      assert.deepEqual(t.cells.slice(0, 8), ['pv-update', '20Gi', 'RWO', 'Delete', 'Pending', 'store/c', '', '']);
      assert.equal(t.cells[9], 'Filesystem');
    });
  });

  describe('PersistentVolumeClaim', () => {
    it('stores Filesystem and phase Pending, and keeps dataSource and dataSourceRef in step', async () => {
      const r = await c.post(PVCS, pvc('claim', { dataSource: { kind: 'PersistentVolumeClaim', name: 'src' } }));
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.spec.volumeMode, 'Filesystem');
      assert.deepEqual(r.body.status, { phase: 'Pending' });
      assert.deepEqual(r.body.spec.dataSourceRef, { kind: 'PersistentVolumeClaim', name: 'src' });
      const ref = await c.post(
        PVCS,
        pvc('claim-ref', { dataSourceRef: { apiGroup: 'example.com', kind: 'Backup', name: 'b', namespace: 'other' } }),
      );
      assert.equal(ref.status, 201, ref.text);
      assert.deepEqual(ref.body.spec.dataSource, { apiGroup: 'example.com', kind: 'Backup', name: 'b' });
      assert.deepEqual(ref.body.spec.dataSourceRef, { apiGroup: 'example.com', kind: 'Backup', name: 'b' });
      const garbage = await c.post(PVCS, pvc('claim-garbage', { dataSource: { apiGroup: 'example.com', kind: 'Backup', name: 'b' } }));
      assert.equal(garbage.body.spec.dataSource, undefined);
      assert.equal(garbage.body.spec.dataSourceRef, undefined);
    });

    it('requires access modes and a positive storage request; checks selector, class, mode and data sources', async () => {
      assert.deepEqual(await causes('post', PVCS, { metadata: { name: 'empty' }, spec: {} }), [
        { reason: 'FieldValueRequired', message: 'Required value: at least 1 access mode is required', field: 'spec.accessModes' },
        { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.resources[storage]' },
      ]);
      assert.deepEqual(
        await causes(
          'post',
          PVCS,
          pvc('bad', {
            resources: { requests: { storage: '0' } },
            selector: { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] },
            volumeMode: 'Raw',
            dataSource: { kind: 'PersistentVolumeClaim', name: 'x' },
            dataSourceRef: { kind: 'Snapshot', name: '' },
          }),
        ),
        [
          {
            reason: 'FieldValueForbidden',
            message: "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            field: 'spec.selector.matchExpressions[0].values',
          },
          { reason: 'FieldValueInvalid', message: 'Invalid value: "0": must be greater than zero', field: 'spec.resources[storage]' },
          {
            reason: 'FieldValueNotSupported',
            message: 'Unsupported value: "Raw": supported values: "Block", "Filesystem"',
            field: 'spec.volumeMode',
          },
          { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.dataSourceRef.name' },
          {
            reason: 'FieldValueInvalid',
            message: `Invalid value: "Snapshot": must be 'PersistentVolumeClaim' when referencing the default apiGroup`,
            field: 'spec.dataSourceRef',
          },
          { reason: 'FieldValueInvalid', message: 'Invalid value: "spec.dataSource": must match dataSourceRef', field: 'spec' },
        ],
      );
    });

    it('keeps the spec immutable except a first volumeName, a class for an unset one, and growing requests of bound claims', async () => {
      const created = (await c.post(PVCS, pvc('grow'))).body;
      const bind = await c.put(`${PVCS}/grow`, { ...created, spec: { ...created.spec, volumeName: 'pv-1', storageClassName: 'fast' } });
      assert.equal(bind.status, 200, bind.text);
      const cur = bind.body;
      const rebind = await causes('put', `${PVCS}/grow`, { ...cur, spec: { ...cur.spec, volumeName: 'pv-2' } });
      assert.deepEqual(
        rebind.map((x) => x.field),
        ['spec'],
      );
      assert.match(
        rebind[0].message,
        /^Forbidden: spec is immutable after creation except resources.requests for bound claims\n- volumeName: "pv-1"\n\+ volumeName: "pv-2"$/,
      );
      const unbound = await causes('put', `${PVCS}/grow`, { ...cur, spec: { ...cur.spec, resources: { requests: { storage: '2Gi' } } } });
      assert.deepEqual(
        unbound.map((x) => x.field),
        ['spec'],
      );
      const bound = await c.put(`${PVCS}/grow/status`, {
        ...cur,
        status: { phase: 'Bound', capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] },
      });
      assert.equal(bound.status, 200, bound.text);
      // PersistentVolumeClaimResize (on by default) wants a class that allows expansion.
      const fast = await c.post(`${STORAGE}/storageclasses`, {
        metadata: { name: 'fast' },
        provisioner: 'example.com/fast',
        allowVolumeExpansion: true,
      });
      assert.equal(fast.status, 201, fast.text);
      const grown = await c.put(`${PVCS}/grow`, { ...bound.body, spec: { ...cur.spec, resources: { requests: { storage: '2Gi' } } } });
      assert.equal(grown.status, 200, grown.text);
      const same = await c.put(`${PVCS}/grow`, {
        ...grown.body,
        spec: { ...grown.body.spec, resources: { requests: { storage: '2048Mi' } } },
      });
      assert.equal(same.status, 200, same.text);
      assert.deepEqual(
        await causes('put', `${PVCS}/grow`, { ...same.body, spec: { ...same.body.spec, resources: { requests: { storage: '1Gi' } } } }),
        [
          {
            reason: 'FieldValueForbidden',
            message: 'Forbidden: field can not be less than previous value',
            field: 'spec.resources.requests.storage',
          },
        ],
      );
      assert.deepEqual(await causes('put', `${PVCS}/grow`, { ...same.body, spec: { ...same.body.spec, volumeMode: 'Block' } }), [
        {
          reason: 'FieldValueForbidden',
          message:
            'Forbidden: spec is immutable after creation except resources.requests for bound claims\n- volumeMode: "Filesystem"\n+ volumeMode: "Block"',
          field: 'spec',
        },
        { reason: 'FieldValueInvalid', message: 'Invalid value: "Block": field is immutable', field: 'volumeMode' },
      ]);
    });

    it('keeps the beta storage-class annotation, and lets a claim move from it to the same class name', async () => {
      const created = (
        await c.post(PVCS, { ...pvc('beta'), metadata: { name: 'beta', annotations: { 'volume.beta.orch.io/storage-class': 'gold' } } })
      ).body;
      const changed = await causes('put', `${PVCS}/beta`, {
        ...created,
        metadata: { ...created.metadata, annotations: { 'volume.beta.orch.io/storage-class': 'silver' } },
      });
      assert.deepEqual(changed, [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: "silver": field is immutable',
          field: 'metadata.annotations.volume.beta.orch.io/storage-class',
        },
      ]);
      const moved = await c.put(`${PVCS}/beta`, { ...created, spec: { ...created.spec, storageClassName: 'gold' } });
      assert.equal(moved.status, 200, moved.text);
    });

    it('checks /status capacities and drops allocatedResources (RecoverVolumeExpansionFailure is off)', async () => {
      const cur = (await c.get(`${PVCS}/claim`)).body;
      assert.deepEqual(await causes('put', `${PVCS}/claim/status`, { ...cur, status: { phase: 'Bound', capacity: { storage: '-1' } } }), [
        { reason: 'FieldValueInvalid', message: 'Invalid value: -1: must be a valid resource quantity', field: 'status.capacity[storage]' },
      ]);
      const r = await c.put(`${PVCS}/claim/status`, { ...cur, status: { phase: 'Lost', allocatedResources: { storage: '1Gi' } } });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body.status, { phase: 'Lost' });
    });

    it('prints kubectl’s columns: capacity and modes once bound', async () => {
      const t = await table(`${PVCS}/grow`);
      assert.deepEqual(t.columns, ['Name', 'Status', 'Volume', 'Capacity', 'Access Modes', 'StorageClass', 'Age', 'VolumeMode']);
      assert.deepEqual(t.cells.slice(0, 6), ['grow', 'Bound', 'pv-1', '1Gi', 'RWO', 'fast']);
      assert.deepEqual((await table(`${PVCS}/claim`)).cells.slice(0, 6), ['claim', 'Lost', '', '', '', '']);
    });
  });

  describe('StorageClass', () => {
    it('defaults reclaimPolicy Delete and volumeBindingMode Immediate', async () => {
      const r = await c.post(`${STORAGE}/storageclasses`, {
        metadata: { name: 'standard' },
        provisioner: 'example.com/disk',
        parameters: { type: 'ssd' },
      });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.apiVersion, 'storage.orch.io/v1');
      assert.equal(r.body.reclaimPolicy, 'Delete');
      assert.equal(r.body.volumeBindingMode, 'Immediate');
      const t = await table(`${STORAGE}/storageclasses/standard`);
      assert.deepEqual(t.columns, ['Name', 'Provisioner', 'ReclaimPolicy', 'VolumeBindingMode', 'AllowVolumeExpansion', 'Age']);
      assert.deepEqual(t.cells.slice(0, 5), ['standard', 'example.com/disk', 'Delete', 'Immediate', false]);
    });

    it('checks provisioner, parameters, enums and allowed topologies', async () => {
      assert.deepEqual(
        await causes('post', `${STORAGE}/storageclasses`, {
          metadata: { name: 'bad' },
          parameters: { '': 'x' },
          reclaimPolicy: 'Recycle',
          volumeBindingMode: 'Later',
          allowedTopologies: [
            { matchLabelExpressions: [{ key: 'zone', values: [] }] },
            { matchLabelExpressions: [{ key: 'zone', values: [] }] },
          ],
        }),
        [
          { reason: 'FieldValueRequired', message: 'Required value', field: 'provisioner' },
          { reason: 'FieldValueInvalid', message: 'Invalid value: "": field can not be empty.', field: 'parameters' },
          {
            reason: 'FieldValueNotSupported',
            message: 'Unsupported value: "Recycle": supported values: "Delete", "Retain"',
            field: 'reclaimPolicy',
          },
          {
            reason: 'FieldValueNotSupported',
            message: 'Unsupported value: "Later": supported values: "Immediate", "WaitForFirstConsumer"',
            field: 'volumeBindingMode',
          },
          { reason: 'FieldValueRequired', message: 'Required value', field: 'allowedTopologies[0].matchLabelExpressions[0].values' },
          { reason: 'FieldValueRequired', message: 'Required value', field: 'allowedTopologies[1].matchLabelExpressions[0].values' },
          { reason: 'FieldValueDuplicate', message: 'Duplicate value: ""', field: 'allowedTopologies[1].matchLabelExpressions' },
        ],
      );
    });

    it('keeps provisioner, parameters, reclaimPolicy and volumeBindingMode immutable', async () => {
      const cur = (await c.get(`${STORAGE}/storageclasses/standard`)).body;
      assert.deepEqual(
        await causes('put', `${STORAGE}/storageclasses/standard`, {
          ...cur,
          provisioner: 'example.com/other',
          parameters: { type: 'hdd' },
          reclaimPolicy: 'Retain',
          volumeBindingMode: 'WaitForFirstConsumer',
        }),
        [
          { reason: 'FieldValueForbidden', message: 'Forbidden: updates to parameters are forbidden.', field: 'parameters' },
          { reason: 'FieldValueForbidden', message: 'Forbidden: updates to provisioner are forbidden.', field: 'provisioner' },
          { reason: 'FieldValueForbidden', message: 'Forbidden: updates to reclaimPolicy are forbidden.', field: 'reclaimPolicy' },
          { reason: 'FieldValueInvalid', message: 'Invalid value: "WaitForFirstConsumer": field is immutable', field: 'volumeBindingMode' },
        ],
      );
      const ok = await c.put(`${STORAGE}/storageclasses/standard`, {
        ...cur,
        metadata: { ...cur.metadata, annotations: { 'storageclass.orch.io/is-default-class': 'true' } },
        allowVolumeExpansion: true,
        mountOptions: ['ro'],
      });
      assert.equal(ok.status, 200, ok.text);
      assert.deepEqual((await table(`${STORAGE}/storageclasses/standard`)).cells.slice(0, 5), [
        'standard (default)',
        'example.com/disk',
        'Delete',
        'Immediate',
        true,
      ]);
    });
  });

  describe('VolumeAttachment', () => {
    const VA = `${STORAGE}/volumeattachments`;

    it('starts detached, needs exactly one source, and keeps its spec', async () => {
      const r = await c.post(VA, {
        metadata: { name: 'va' },
        spec: { attacher: 'csi.example.com', nodeName: 'node-1', source: { persistentVolumeName: 'pv-1' } },
        status: { attached: true },
      });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(r.body.status, { attached: false });
      assert.deepEqual(await causes('post', VA, { metadata: { name: 'va2' }, spec: { attacher: '', nodeName: 'Node_1', source: {} } }), [
        { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.attacher' },
        {
          reason: 'FieldValueRequired',
          message: 'Required value: must specify exactly one of inlineVolumeSpec and persistentVolumeName',
          field: 'spec.source',
        },
        {
          reason: 'FieldValueInvalid',
          message:
            "Invalid value: \"Node_1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
          field: 'spec.nodeName',
        },
        { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.attacher' },
        {
          reason: 'FieldValueInvalid',
          message:
            "Invalid value: \"\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
          field: 'spec.attacher',
        },
      ]);
      assert.deepEqual(
        await causes('post', VA, {
          metadata: { name: 'va3' },
          spec: {
            attacher: 'csi.example.com',
            nodeName: 'n',
            source: {
              inlineVolumeSpec: { accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' }, persistentVolumeReclaimPolicy: 'Delete' },
            },
          },
        }),
        [
          {
            reason: 'FieldValueForbidden',
            message: 'Forbidden: may not be specified in the context of inline volumes',
            field: 'spec.source.inlineVolumeSpec.capacity',
          },
          {
            reason: 'FieldValueRequired',
            message: 'Required value: has to be specified in the context of inline volumes',
            field: 'spec.source.inlineVolumeSpec.csi',
          },
          {
            reason: 'FieldValueForbidden',
            message: 'Forbidden: may only be Retain in the context of inline volumes',
            field: 'spec.source.inlineVolumeSpec.persistentVolumeReclaimPolicy',
          },
          { reason: 'FieldValueRequired', message: 'Required value: must specify a volume type', field: 'spec.source.inlineVolumeSpec' },
        ],
      );
      const moved = await causes('put', `${VA}/va`, { ...r.body, spec: { ...r.body.spec, nodeName: 'node-2' } });
      assert.deepEqual(
        moved.map((x) => [x.field, x.reason]),
        [['spec', 'FieldValueInvalid']],
      );
      assert.match(moved[0].message, /: field is immutable$/);
    });

    it('changes status through /status and prints its columns', async () => {
      const cur = (await c.get(`${VA}/va`)).body;
      const st = await c.put(`${VA}/va/status`, { ...cur, status: { attached: true, attachmentMetadata: { dev: '/dev/sdb' } } });
      assert.equal(st.status, 200, st.text);
      assert.deepEqual(st.body.status, { attached: true, attachmentMetadata: { dev: '/dev/sdb' } });
      const big = await causes('put', `${VA}/va/status`, {
        ...st.body,
        status: { attached: false, attachError: { message: 'x'.repeat(1025) } },
      });
      assert.deepEqual(big, [
        { reason: 'FieldValueTooLong', message: 'Too long: may not be more than 262144 bytes', field: 'status.attachError.message' },
      ]);
      const t = await table(`${VA}/va`);
      assert.deepEqual(t.columns, ['Name', 'Attacher', 'PV', 'Node', 'Attached', 'Age']);
      assert.deepEqual(t.cells.slice(0, 5), ['va', 'csi.example.com', 'pv-1', 'node-1', true]);
    });
  });

  describe('CSIDriver', () => {
    const DRIVERS = `${STORAGE}/csidrivers`;

    it('stores the 1.28 spec defaults and prints them', async () => {
      const r = await c.post(DRIVERS, { metadata: { name: 'csi.example.com' }, spec: {} });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(r.body.spec, {
        attachRequired: true,
        podInfoOnMount: false,
        storageCapacity: false,
        fsGroupPolicy: 'ReadWriteOnceWithFSType',
        volumeLifecycleModes: ['Persistent'],
        requiresRepublish: false,
        seLinuxMount: false,
      });
      const t = await table(`${DRIVERS}/csi.example.com`);
      assert.deepEqual(t.columns, [
        'Name',
        'AttachRequired',
        'PodInfoOnMount',
        'StorageCapacity',
        'TokenRequests',
        'RequiresRepublish',
        'Modes',
        'Age',
      ]);
      assert.deepEqual(t.cells.slice(0, 7), ['csi.example.com', true, false, false, '<unset>', false, 'Persistent']);
    });

    it('checks enums and token requests', async () => {
      assert.deepEqual(
        await causes('post', DRIVERS, {
          metadata: { name: 'bad.example.com' },
          spec: {
            fsGroupPolicy: 'Always',
            volumeLifecycleModes: ['Temporary'],
            tokenRequests: [{ audience: 'a', expirationSeconds: 60 }, { audience: 'a' }],
          },
        }),
        [
          {
            reason: 'FieldValueNotSupported',
            message: 'Unsupported value: "Always": supported values: "File", "None", "ReadWriteOnceWithFSType"',
            field: 'spec.fsGroupPolicy',
          },
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: 60: may not specify a duration less than 10 minutes',
            field: 'spec.tokenRequests[0].expirationSeconds',
          },
          { reason: 'FieldValueDuplicate', message: 'Duplicate value: "a"', field: 'spec.tokenRequests[1].audience' },
          {
            reason: 'FieldValueNotSupported',
            message: 'Unsupported value: "Temporary": supported values: "Persistent", "Ephemeral"',
            field: 'spec.volumeLifecycleModes',
          },
        ],
      );
    });

    it('keeps attachRequired, fsGroupPolicy, podInfoOnMount and volumeLifecycleModes immutable', async () => {
      const cur = (await c.get(`${DRIVERS}/csi.example.com`)).body;
      assert.deepEqual(
        await causes('put', `${DRIVERS}/csi.example.com`, {
          ...cur,
          spec: { ...cur.spec, attachRequired: false, fsGroupPolicy: 'File', podInfoOnMount: true, volumeLifecycleModes: ['Ephemeral'] },
        }),
        [
          { reason: 'FieldValueInvalid', message: 'Invalid value: false: field is immutable', field: 'spec.attachedRequired' },
          { reason: 'FieldValueInvalid', message: 'Invalid value: "File": field is immutable', field: 'spec.fsGroupPolicy' },
          { reason: 'FieldValueInvalid', message: 'Invalid value: true: field is immutable', field: 'spec.podInfoOnMount' },
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: []storage.VolumeLifecycleMode{"Ephemeral"}: field is immutable',
            field: 'spec.volumeLifecycleModes',
          },
        ],
      );
      const ok = await c.put(`${DRIVERS}/csi.example.com`, {
        ...cur,
        spec: { ...cur.spec, storageCapacity: true, requiresRepublish: true },
      });
      assert.equal(ok.status, 200, ok.text);
    });
  });

  describe('CSINode', () => {
    const NODES = `${STORAGE}/csinodes`;

    it('checks drivers and keeps a registered driver unchanged', async () => {
      assert.deepEqual(
        await causes('post', NODES, {
          metadata: { name: 'node-1' },
          spec: {
            drivers: [
              { name: 'csi.example.com', nodeID: 'x'.repeat(129), allocatable: { count: -1 }, topologyKeys: ['zone', 'zone'] },
              { name: 'csi.example.com', nodeID: '' },
            ],
          },
        }),
        [
          {
            reason: 'FieldValueInvalid',
            message: `Invalid value: "${'x'.repeat(129)}": must be 128 characters or less`,
            field: 'spec.drivers[0].nodeID',
          },
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: -1: must be greater than or equal to 0',
            field: 'spec.drivers[0].allocatable.count',
          },
          { reason: 'FieldValueDuplicate', message: 'Duplicate value: "zone"', field: 'spec.drivers[0]' },
          { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.drivers[1].nodeID' },
          { reason: 'FieldValueDuplicate', message: 'Duplicate value: "csi.example.com"', field: 'spec.drivers[1].name' },
        ],
      );
      const r = await c.post(NODES, {
        metadata: { name: 'node-1' },
        spec: { drivers: [{ name: 'csi.example.com', nodeID: 'n1', topologyKeys: ['zone'] }] },
      });
      assert.equal(r.status, 201, r.text);
      const changed = await causes('put', `${NODES}/node-1`, { ...r.body, spec: { drivers: [{ name: 'csi.example.com', nodeID: 'n2' }] } });
      assert.deepEqual(changed, [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: {"name":"csi.example.com","nodeID":"n2"}: field is immutable',
          field: 'CSINodeDriver',
        },
      ]);
      const added = await c.put(`${NODES}/node-1`, {
        ...r.body,
        spec: { drivers: [...r.body.spec.drivers, { name: 'other.example.com', nodeID: 'n1' }] },
      });
      assert.equal(added.status, 200, added.text);
      const t = await table(`${NODES}/node-1`);
      assert.deepEqual(
        [t.columns, t.cells.slice(0, 2)],
        [
          ['Name', 'Drivers', 'Age'],
          ['node-1', 2],
        ],
      );
    });
  });

  describe('CSIStorageCapacity', () => {
    const CAPS = `${STORAGE}/namespaces/store/csistoragecapacities`;

    it('requires a class name, a non-negative capacity and a valid topology, both fixed after creation', async () => {
      assert.deepEqual(
        await causes('post', CAPS, { metadata: { name: 'bad' }, capacity: '-1Gi', nodeTopology: { matchLabels: { 'bad key': 'x' } } }),
        [
          {
            reason: 'FieldValueInvalid',
            message:
              "Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
            field: 'nodeTopology.matchLabels',
          },
          {
            reason: 'FieldValueInvalid',
            message:
              "Invalid value: \"\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
            field: 'storageClassName',
          },
          { reason: 'FieldValueInvalid', message: 'Invalid value: "-1Gi": must be greater than or equal to 0', field: 'capacity' },
        ],
      );
      const r = await c.post(CAPS, {
        metadata: { name: 'cap' },
        storageClassName: 'standard',
        capacity: '2048Mi',
        nodeTopology: { matchLabels: { zone: 'a' } },
      });
      assert.equal(r.status, 201, r.text);
      assert.deepEqual(await causes('put', `${CAPS}/cap`, { ...r.body, storageClassName: 'fast', nodeTopology: {} }), [
        { reason: 'FieldValueInvalid', message: 'Invalid value: {}: field is immutable', field: 'nodeTopology' },
        { reason: 'FieldValueInvalid', message: 'Invalid value: "fast": field is immutable', field: 'storageClassName' },
      ]);
      const t = await table(`${CAPS}/cap`);
      assert.deepEqual(
        [t.columns, t.cells],
        [
          ['Name', 'StorageClassName', 'Capacity'],
          ['cap', 'standard', '2Gi'],
        ],
      );
    });
  });
});
