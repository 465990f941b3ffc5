import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { errorMessage } from '../../../apiserver/api/field-errors.js';
import { newApiDomain } from '../../../apiserver/api/domain.js';
import type { ApiObject } from '../../../apiserver/api/object.js';
import type { StrategyContext } from '../../../apiserver/api/strategy.js';
import { persistentVolumeStrategy } from '../../../apiserver/registry/core/persistentvolume/strategy.js';
import { persistentVolumeClaimStrategy } from '../../../apiserver/registry/core/persistentvolumeclaim/strategy.js';
import { limitRangeStrategy } from '../../../apiserver/registry/core/limitrange/strategy.js';
import { storageClassStrategy } from '../../../apiserver/registry/storage/storageclass/strategy.js';
import { csiNodeStrategy } from '../../../apiserver/registry/storage/csinode/strategy.js';

const ctx: StrategyContext = { domain: newApiDomain(), now: new Date() };
const obj = (fields: Record<string, unknown>, meta: Record<string, unknown> = {}): ApiObject => ({
  metadata: { name: 'x', ...meta },
  ...fields,
});

describe('storage and cluster strategies', () => {
  it('PV: a CSI volume may gain a controllerExpandSecretRef, nothing else of its source', () => {
    const csi = { driver: 'csi.example.com', volumeHandle: 'h' };
    const base = { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'] };
    const old = obj({ spec: { ...base, csi } });
    const added = obj({ spec: { ...base, csi: { ...csi, controllerExpandSecretRef: { name: 's', namespace: 'n' } } } });
    assert.deepEqual(persistentVolumeStrategy.validateUpdate!(added, old, ctx), []);
    const changed = obj({ spec: { ...base, csi: { ...csi, volumeHandle: 'h2' } } });
    assert.deepEqual(
      persistentVolumeStrategy.validateUpdate!(changed, old, ctx).map((e) => e.field),
      ['spec.persistentvolumesource'],
    );
  });

  it('PV: warns about mount options on sources that do not take them', () => {
    const annotations = { 'volume.beta.orch.io/mount-options': 'ro' };
    const pv = (source: Record<string, unknown>) =>
      obj({ spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], ...source } }, { annotations });
    assert.deepEqual(persistentVolumeStrategy.validate!(pv({ hostPath: { path: '/x' } }), ctx).map(errorMessage), [
      'metadata.annotations.volume.beta.orch.io/mount-options: Forbidden: may not specify mount options for this volume type',
    ]);
    assert.deepEqual(persistentVolumeStrategy.validate!(pv({ nfs: { server: 's', path: '/x' } }), ctx), []);
  });

  it('PVC: a claim without a class may get one; one with a class may not change it', () => {
    const spec = { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' };
    const old = obj({ spec, status: { phase: 'Pending' } });
    assert.deepEqual(persistentVolumeClaimStrategy.validateUpdate!(obj({ spec: { ...spec, storageClassName: 'gold' } }), old, ctx), []);
    const classed = obj({ spec: { ...spec, storageClassName: 'gold' } });
    assert.deepEqual(
      persistentVolumeClaimStrategy.validateUpdate!(obj({ spec: { ...spec, storageClassName: 'silver' } }), classed, ctx).map(
        (e) => e.field,
      ),
      ['spec'],
    );
  });

  it('PVC: keeps a cross-namespace dataSourceRef only when the stored claim had a dataSourceRef', () => {
    const ref = { apiGroup: 'example.com', kind: 'Backup', name: 'b', namespace: 'other' };
    const create = obj({ spec: { dataSourceRef: { ...ref } } });
    persistentVolumeClaimStrategy.prepareForCreate!(create, ctx);
    assert.deepEqual((create.spec as Record<string, unknown>).dataSourceRef, { apiGroup: 'example.com', kind: 'Backup', name: 'b' });
    const update = obj({ spec: { dataSourceRef: { ...ref } } });
    persistentVolumeClaimStrategy.prepareForUpdate!(update, obj({ spec: { dataSourceRef: { ...ref } } }), ctx);
    assert.deepEqual((update.spec as Record<string, unknown>).dataSourceRef, ref);
    assert.equal((update.spec as Record<string, unknown>).dataSource, undefined);
  });

  it('LimitRange: only Container items get defaults', () => {
    const lr = obj({
      spec: {
        limits: [
          { type: 'Pod', max: { cpu: '1' } },
          { type: 'Container', min: { cpu: '100m' } },
        ],
      },
    });
    limitRangeStrategy.applyDefaults!(lr, ctx);
    assert.deepEqual((lr.spec as { limits: unknown[] }).limits, [
      { type: 'Pod', max: { cpu: '1' } },
      { type: 'Container', min: { cpu: '100m' }, defaultRequest: { cpu: '100m' } },
    ]);
  });

  it('LimitRange: huge quantities compare ratios on whole values; non-overcommittable defaults must equal requests', () => {
    const item = {
      type: 'Container',
      min: { 'example.com/gpu': '1' },
      max: { 'example.com/gpu': '1e30' },
      maxLimitRequestRatio: { 'example.com/gpu': '2' },
      default: { 'example.com/gpu': '2' },
      defaultRequest: { 'example.com/gpu': '1' },
    };
    assert.deepEqual(limitRangeStrategy.validate!(obj({ spec: { limits: [item] } }), ctx).map(errorMessage), [
      'spec.limits[0].defaultRequest[example.com/gpu]: Invalid value: "1": default value 2 must equal to defaultRequest value 1 in example.com/gpu',
    ]);
  });

  it('StorageClass: an empty topology term is a duplicate once per term, as in Kubernetes', () => {
    const sc = obj({
      provisioner: 'p',
      volumeBindingMode: 'Immediate',
      allowedTopologies: [{}, { matchLabelExpressions: [{ key: 'zone', values: ['a', 'a'] }] }],
    });
    assert.deepEqual(storageClassStrategy.validate!(sc, ctx).map(errorMessage), [
      'allowedTopologies[0].matchLabelExpressions: Duplicate value: ""',
      'allowedTopologies[0].matchLabelExpressions: Duplicate value: ""',
      'allowedTopologies[1].matchLabelExpressions[0].values[1]: Duplicate value: "a"',
    ]);
  });

  it('CSINode: reports invalid topology keys with the whole key list', () => {
    const node = obj({ spec: { drivers: [{ name: 'd.example.com', nodeID: 'n', topologyKeys: ['', 'a/b/c'] }] } });
    const errors = csiNodeStrategy.validate!(node, ctx).map(errorMessage);
    assert.equal(errors[0], 'spec.drivers[0]: Required value');
    assert.match(
      errors[errors.length - 1],
      /^spec\.drivers\[0\]: Invalid value: \[\]string\{"", "a\/b\/c"\}: a qualified name must consist of/,
    );
  });
});
