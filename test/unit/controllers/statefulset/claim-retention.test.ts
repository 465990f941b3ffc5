import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import { claimIsStale, claimOwnerRefs } from '../../../../controllers/statefulset/claim-retention.js';

const set: ApiObject = { metadata: { name: 'db', namespace: 'ns', uid: 'set-uid' } };
const pod: ApiObject = { metadata: { name: 'db-1', namespace: 'ns', uid: 'pod-uid' } };
const SET_REF = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 'set-uid' };
const POD_REF = { apiVersion: 'v1', kind: 'Pod', name: 'db-1', uid: 'pod-uid' };
const OTHER = { apiVersion: 'v1', kind: 'ConfigMap', name: 'x', uid: 'x-uid' };
const claim = (...refs: object[]): ApiObject => ({ metadata: { name: 'data-db-1', ownerReferences: refs as never } });

describe('persistentVolumeClaimRetentionPolicy owner references', () => {
  it('Retain/Retain removes both references and keeps others', () => {
    assert.deepEqual(claimOwnerRefs(claim(OTHER, SET_REF, POD_REF), set, pod, { whenDeleted: 'Retain', whenScaled: 'Retain' }, true), [
      OTHER,
    ]);
    assert.deepEqual(claimOwnerRefs(claim(), set, pod, undefined, false), []);
  });

  it('whenDeleted Delete: the set owns the claim, scaled down or not, while whenScaled is Retain', () => {
    const policy = { whenDeleted: 'Delete', whenScaled: 'Retain' };
    assert.deepEqual(claimOwnerRefs(claim(), set, pod, policy, false), [SET_REF]);
    assert.deepEqual(claimOwnerRefs(claim(SET_REF, POD_REF), set, pod, policy, true), [SET_REF]);
  });

  it('whenScaled Delete: a scaled-away Pod owns its claim instead of the set', () => {
    assert.deepEqual(claimOwnerRefs(claim(), set, pod, { whenDeleted: 'Retain', whenScaled: 'Delete' }, true), [POD_REF]);
    assert.deepEqual(claimOwnerRefs(claim(POD_REF), set, pod, { whenDeleted: 'Retain', whenScaled: 'Delete' }, false), []);
    assert.deepEqual(claimOwnerRefs(claim(SET_REF), set, pod, { whenDeleted: 'Delete', whenScaled: 'Delete' }, true), [POD_REF]);
    assert.deepEqual(claimOwnerRefs(claim(POD_REF), set, pod, { whenDeleted: 'Delete', whenScaled: 'Delete' }, false), [SET_REF]);
  });

  it('a claim an earlier Pod of the name owns is stale under whenScaled Delete only', () => {
    assert.equal(claimIsStale(claim(POD_REF), 'db-1', undefined, { whenScaled: 'Delete' }), true);
    assert.equal(claimIsStale(claim(POD_REF), 'db-1', 'pod-uid', { whenScaled: 'Delete' }), false);
    assert.equal(claimIsStale(claim(POD_REF), 'db-1', undefined, { whenScaled: 'Retain' }), false);
    assert.equal(claimIsStale(claim(SET_REF), 'db-1', undefined, { whenScaled: 'Delete' }), false);
  });
});
