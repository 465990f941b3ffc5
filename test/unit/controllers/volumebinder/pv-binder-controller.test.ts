import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import { notFound } from '../../../../apiserver/api/status.js';
import { PvBinderController, volumeSatisfies } from '../../../../controllers/volumebinder/pv-binder-controller.js';
import { PVS } from '../../../../controllers/pvprotection/pv-protection-controller.js';
import { PVCS } from '../../../../controllers/statefulset/statefulset-controller.js';
import { newFakeContext } from '../../../support/fake-controller-context.js';

const pv = (name: string, size: string, extra: Record<string, unknown> = {}, labels: Record<string, string> = {}): ApiObject => ({
  metadata: { name, uid: `uid-${name}`, labels },
  spec: { capacity: { storage: size }, accessModes: ['ReadWriteOnce', 'ReadOnlyMany'], ...extra },
  status: { phase: 'Available' },
});
const pvc = (extra: Record<string, unknown> = {}): ApiObject => ({
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
