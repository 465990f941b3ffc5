import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import type {
  PersistentVolume,
  PersistentVolumeClaim,
  PersistentVolumeClaimSpec,
  PersistentVolumeSpec,
} from '../../../../apiserver/api/generated/types.js';
import { notFound } from '../../../../apiserver/api/status.js';
import { PvBinderController, volumeSatisfies } from '../../../../controllers/volumebinder/pv-binder-controller.js';
import { PODS, PVCS, PVS } from '../../../../controllers/controllerutil/resources.js';
import { newFakeContext } from '../../../support/fake-controller-context.js';

const CLASSES = { group: 'storage.orch.io', version: 'v1', resource: 'storageclasses' };

const pv = (name: string, size: string, extra: PersistentVolumeSpec = {}, labels: Record<string, string> = {}): PersistentVolume => ({
  metadata: { name, uid: `uid-${name}`, labels },
  spec: { capacity: { storage: size }, accessModes: ['ReadWriteOnce', 'ReadOnlyMany'], ...extra },
  status: { phase: 'Available' },
});
const pvc = (extra: PersistentVolumeClaimSpec = {}): PersistentVolumeClaim => ({
  metadata: { name: 'data', namespace: 'ns', uid: 'pvc-uid', resourceVersion: '4' },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '5Gi' } }, ...extra },
  status: { phase: 'Pending' },
});

describe('volume matching', () => {
  it('needs class, mode, access modes, capacity and selector to agree', () => {
    assert.equal(volumeSatisfies(pv('a', '10Gi'), pvc()), true);
    assert.equal(volumeSatisfies(pv('a', '4Gi'), pvc()), false);
    assert.equal(volumeSatisfies(pv('a', '10Gi', { storageClassName: 'fast' }), pvc()), false);
    assert.equal(volumeSatisfies(pv('a', '10Gi'), pvc({ accessModes: ['ReadWriteMany'] })), false);
    assert.equal(volumeSatisfies(pv('a', '10Gi', { volumeMode: 'Block' }), pvc()), false);
    assert.equal(volumeSatisfies(pv('a', '10Gi', {}, { tier: 'gold' }), pvc({ selector: { matchLabels: { tier: 'gold' } } })), true);
    assert.equal(volumeSatisfies(pv('a', '10Gi'), pvc({ selector: { matchLabels: { tier: 'gold' } } })), false);
  });
});

describe('pv binder sync', () => {
  it('binds a claim to the smallest volume that fits, both sides, then the phases', async () => {
    const ctx = newFakeContext();
    const c = new PvBinderController(ctx);
    ctx.cache(
      PVS,
      pv('big', '100Gi'),
      pv('small', '5Gi'),
      pv('tiny', '1Gi'),
      pv('taken', '5Gi', { claimRef: { namespace: 'x', name: 'y', uid: 'u' } }),
    );
    ctx.cache(PVCS, pvc());
    await c.syncClaim('ns/data');
    const [volume] = ctx.fake.made('PUT', '/api/v1/persistentvolumes/small').filter((r) => !r.path.endsWith('/status'));
    assert.deepEqual(volume.body.spec.claimRef, {
      kind: 'PersistentVolumeClaim',
      namespace: 'ns',
      name: 'data',
      uid: 'pvc-uid',
      apiVersion: 'v1',
      resourceVersion: '4',
    });
    assert.equal(volume.body.metadata.annotations['pv.orch.io/bound-by-controller'], 'yes');
    assert.equal(ctx.fake.made('PUT', '/persistentvolumes/small/status')[0].body.status.phase, 'Bound');
    const [claim] = ctx.fake.made('PUT', '/persistentvolumeclaims/data').filter((r) => !r.path.endsWith('/status'));
    assert.equal(claim.body.spec.volumeName, 'small');
    assert.equal(claim.body.metadata.annotations['pv.orch.io/bind-completed'], 'yes');
    const [claimStatus] = ctx.fake.made('PUT', '/persistentvolumeclaims/data/status');
    assert.deepEqual(claimStatus.body.status, {
      phase: 'Bound',
      accessModes: ['ReadWriteOnce', 'ReadOnlyMany'],
      capacity: { storage: '5Gi' },
    });
  });

  it('leaves a claim without a match Pending with a FailedBinding event', async () => {
    const ctx = newFakeContext();
    const c = new PvBinderController(ctx);
    ctx.cache(PVS, pv('tiny', '1Gi'));
    ctx.cache(PVCS, pvc());
    await c.syncClaim('ns/data');
    assert.equal(ctx.fake.made('PUT').length, 0);
    assert.deepEqual(
      ctx.events.map((e) => [e.reason, e.note]),
      [['FailedBinding', 'no persistent volumes available for this claim and no storage class is set']],
    );
  });

  it('dynamic provisioning: annotates the claim with its class provisioner and waits for the volume', async () => {
    const ctx = newFakeContext();
    const c = new PvBinderController(ctx);
    ctx.cache(CLASSES, { metadata: { name: 'fast' }, provisioner: 'ebs.csi.aws.com', volumeBindingMode: 'Immediate' } as ApiObject);
    ctx.cache(PVS, pv('unclassed', '10Gi'));
    ctx.cache(PVCS, pvc({ storageClassName: 'fast' }));
    await c.syncClaim('ns/data');
    const [update] = ctx.fake.made('PUT', '/api/v1/namespaces/ns/persistentvolumeclaims/data');
    assert.deepEqual(update.body.metadata.annotations, {
      'volume.beta.orch.io/storage-provisioner': 'ebs.csi.aws.com',
      'volume.orch.io/storage-provisioner': 'ebs.csi.aws.com',
    });
    assert.equal(ctx.fake.made('PUT', '/status').length, 0, 'the claim stays Pending as it is');
    assert.deepEqual(
      ctx.events.map((e) => [e.type, e.reason]),
      [['Normal', 'ExternalProvisioning']],
    );
    assert.match(ctx.events[0].note, /external provisioner 'ebs\.csi\.aws\.com'/);

    // The provisioner's volume, pre-bound to the claim, is bound.
    ctx.cache(PVCS, { ...update.body, metadata: { ...update.body.metadata, resourceVersion: '5' } });
    ctx.cache(PVS, pv('pvc-123', '5Gi', { storageClassName: 'fast', claimRef: { namespace: 'ns', name: 'data', uid: 'pvc-uid' } }));
    await c.syncClaim('ns/data');
    assert.equal(ctx.fake.made('PUT', '/persistentvolumeclaims/data/status').at(-1)!.body.status.phase, 'Bound');
  });

  it('a missing class or an in-tree provisioner name fails provisioning with a warning', async () => {
    const ctx = newFakeContext();
    const c = new PvBinderController(ctx);
    ctx.cache(PVCS, pvc({ storageClassName: 'gone' }));
    await c.syncClaim('ns/data');
    ctx.cache(CLASSES, { metadata: { name: 'local' }, provisioner: 'orch.io/no-provisioner' } as ApiObject);
    ctx.cache(PVCS, pvc({ storageClassName: 'local' }));
    await c.syncClaim('ns/data');
    assert.deepEqual(
      ctx.events.map((e) => [e.type, e.reason, e.note]),
      [
        ['Warning', 'ProvisioningFailed', 'storageclass.storage.orch.io "gone" not found'],
        ['Warning', 'ProvisioningFailed', 'no volume plugin matched name: orch.io/no-provisioner'],
      ],
    );
    assert.equal(ctx.fake.made('PUT').length, 0);
  });

  it('WaitForFirstConsumer: no binding to unbound volumes and no provisioning before a node is selected', async () => {
    const ctx = newFakeContext();
    const c = new PvBinderController(ctx);
    ctx.cache(CLASSES, {
      metadata: { name: 'late' },
      provisioner: 'csi.example.com',
      volumeBindingMode: 'WaitForFirstConsumer',
    } as ApiObject);
    ctx.cache(PVS, pv('fits', '10Gi', { storageClassName: 'late' }));
    ctx.cache(PVCS, pvc({ storageClassName: 'late' }));
    await c.syncClaim('ns/data');
    ctx.cache(PODS, {
      metadata: { name: 'user', namespace: 'ns' },
      spec: { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'data' } }] },
    });
    await c.syncClaim('ns/data');
    assert.equal(ctx.fake.made('PUT').length, 0);
    assert.deepEqual(
      ctx.events.map((e) => [e.reason, e.note]),
      [
        ['WaitForFirstConsumer', 'waiting for first consumer to be created before binding'],
        ['WaitForPodScheduled', 'waiting for pod user to be scheduled'],
      ],
    );
    // The scheduler picked a node: now the claim is provisioned.
    ctx.cache(PVCS, pvc({ storageClassName: 'late' }));
    const selected = pvc({ storageClassName: 'late' });
    selected.metadata.annotations = { 'volume.orch.io/selected-node': 'node-1' };
    ctx.cache(PVCS, selected);
    await c.syncClaim('ns/data');
    const [update] = ctx.fake.made('PUT', '/persistentvolumeclaims/data');
    assert.equal(update.body.metadata.annotations['volume.orch.io/storage-provisioner'], 'csi.example.com');
  });

  it('releases a volume whose claim is gone, or deletes it with reclaim policy Delete', async () => {
    const gone = (policy: string) => {
      const ctx = newFakeContext();
      const c = new PvBinderController(ctx);
      ctx.cache(PVS, {
        ...pv('vol', '5Gi', { claimRef: { namespace: 'ns', name: 'data', uid: 'old' }, persistentVolumeReclaimPolicy: policy }),
        status: { phase: 'Bound' },
      });
      ctx.fake.on((req) => {
        if (req.method === 'GET') throw notFound({ group: '', resource: 'persistentvolumeclaims' }, 'data');
        return undefined;
      });
      return { ctx, c };
    };
    const retain = gone('Retain');
    await retain.c.syncVolume('vol');
    assert.equal(retain.ctx.fake.made('PUT', '/persistentvolumes/vol/status')[0].body.status.phase, 'Released');
    const del = gone('Delete');
    await del.c.syncVolume('vol');
    assert.equal(del.ctx.fake.made('DELETE', '/api/v1/persistentvolumes/vol').length, 1);
  });
});
