/**
 * DELETE answers over HTTP: the kinds whose Kubernetes storage returns the deleted object answer it
 * (200, the object as it was), the others a Success Status naming the resource.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { createDefaultServiceAccount, createNamespace } from '../../support/namespaces.js';

const NS = '/api/v1/namespaces/del';
const STORAGE = '/apis/storage.orch.io/v1';
const container = { name: 'c', image: 'busybox' };

/** Collection path and a valid object of each kind that answers with the object. */
const OBJECT_ANSWERS: [string, Record<string, unknown>][] = [
  [`${NS}/pods`, { kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [container] } }],
  [`${NS}/podtemplates`, { kind: 'PodTemplate', metadata: { name: 'pt' }, template: { spec: { containers: [container] } } }],
  [`${NS}/resourcequotas`, { kind: 'ResourceQuota', metadata: { name: 'rq' }, spec: { hard: { pods: '1' } } }],
  [`${NS}/services`, { kind: 'Service', metadata: { name: 'svc' }, spec: { ports: [{ port: 80 }] } }],
  [`${NS}/serviceaccounts`, { kind: 'ServiceAccount', metadata: { name: 'sa' } }],
  [
    `${NS}/persistentvolumeclaims`,
    {
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'pvc' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    },
  ],
  [
    '/api/v1/persistentvolumes',
    {
      kind: 'PersistentVolume',
      metadata: { name: 'pv' },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/d' } },
    },
  ],
  [`${STORAGE}/storageclasses`, { kind: 'StorageClass', metadata: { name: 'sc' }, provisioner: 'example.com/p' }],
  [`${STORAGE}/csidrivers`, { kind: 'CSIDriver', metadata: { name: 'csi.example.com' }, spec: {} }],
  [`${STORAGE}/csinodes`, { kind: 'CSINode', metadata: { name: 'n1' }, spec: { drivers: [] } }],
  [
    `${STORAGE}/volumeattachments`,
    {
      kind: 'VolumeAttachment',
      metadata: { name: 'va' },
      spec: { attacher: 'csi.example.com', nodeName: 'n1', source: { persistentVolumeName: 'pv' } },
    },
  ],
];

describe('DELETE answers per kind', () => {
  let s: TestServer;

  before(async () => {
    s = await startTestServer();
    await createNamespace(s.client, 'del');
    await createDefaultServiceAccount(s.client, 'del');
  });
  after(() => s.stop());

  for (const [path, object] of OBJECT_ANSWERS) {
    it(`${object.kind}: the deleted object`, async () => {
      const created = await s.client.post(path, object);
      assert.equal(created.status, 201, created.text);
      const r = await s.client.delete(`${path}/${(object.metadata as { name: string }).name}`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.kind, object.kind);
      assert.equal(r.body.metadata.uid, created.body.metadata.uid);
      // Pods are deleted gracefully in Kubernetes: one deleted at once is answered marked as deleted;
      // PVs and PVCs stay, marked, while their protection finalizer holds them.
      const held = (r.body.metadata.finalizers ?? []).length > 0;
      assert.equal(held, object.kind === 'PersistentVolume' || object.kind === 'PersistentVolumeClaim');
      if (object.kind === 'Pod') assert.equal(r.body.metadata.deletionGracePeriodSeconds, 0);
      assert.equal(r.body.metadata.deletionTimestamp !== undefined, object.kind === 'Pod' || held);
      assert.equal((await s.client.get(`${path}/${(object.metadata as { name: string }).name}`)).status, held ? 200 : 404);
    });
  }

  it('ConfigMap: a Success Status naming the resource, without code or empty group', async () => {
    const created = await s.client.post(`${NS}/configmaps`, { metadata: { name: 'cm' } });
    const r = await s.client.delete(`${NS}/configmaps/cm`);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: 'cm', kind: 'configmaps', uid: created.body.metadata.uid },
    });
  });

  it('IngressClass: a Success Status with its group', async () => {
    const created = await s.client.post('/apis/networking.orch.io/v1/ingressclasses', {
      metadata: { name: 'ic' },
      spec: { controller: 'example.com/i' },
    });
    const r = await s.client.delete('/apis/networking.orch.io/v1/ingressclasses/ic');
    assert.deepEqual(r.body.details, { name: 'ic', group: 'networking.orch.io', kind: 'ingressclasses', uid: created.body.metadata.uid });
  });
});
