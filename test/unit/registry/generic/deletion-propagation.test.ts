import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  defaultGarbageCollectionPolicy,
  deletionFinalizers,
  validatePropagation,
} from '../../../../apiserver/registry/generic/deletion-propagation.js';
import type { ApiObject } from '../../../../apiserver/api/object.js';

const configmaps = { kubernetesGroup: '', version: 'v1', plural: 'configmaps' };
const jobs = { kubernetesGroup: 'batch', version: 'v1', plural: 'jobs' };
const rcs = { kubernetesGroup: '', version: 'v1', plural: 'replicationcontrollers' };
const events = { kubernetesGroup: 'events.k8s.io', version: 'v1', plural: 'events' };
const namespaces = { kubernetesGroup: '', version: 'v1', plural: 'namespaces' };

const obj = (finalizers?: string[], deleting = false): ApiObject => ({
  metadata: { name: 'x', finalizers, deletionTimestamp: deleting ? '2024-01-01T00:00:00Z' : undefined },
});

describe('deletion propagation (API server side)', () => {
  it("knows Kubernetes' default policies", () => {
    assert.equal(defaultGarbageCollectionPolicy(configmaps), 'DeleteDependents');
    assert.equal(defaultGarbageCollectionPolicy(jobs), 'OrphanDependents');
    assert.equal(defaultGarbageCollectionPolicy(rcs), 'OrphanDependents');
    assert.equal(defaultGarbageCollectionPolicy({ kubernetesGroup: '', version: 'v1', plural: 'events' }), 'Unsupported');
    assert.equal(defaultGarbageCollectionPolicy(events), 'Unsupported');
    assert.equal(defaultGarbageCollectionPolicy({ kubernetesGroup: 'apps', version: 'v1', plural: 'deployments' }), 'DeleteDependents');
  });

  it('propagationPolicy sets orphan or foregroundDeletion; Background sets neither', () => {
    assert.deepEqual(deletionFinalizers(configmaps, obj(), { propagationPolicy: 'Orphan' }), ['orphan']);
    assert.deepEqual(deletionFinalizers(configmaps, obj(), { propagationPolicy: 'Foreground' }), ['foregroundDeletion']);
    assert.equal(deletionFinalizers(configmaps, obj(), { propagationPolicy: 'Background' }), undefined);
    assert.equal(deletionFinalizers(configmaps, obj(), {}), undefined);
  });

  it('the deprecated orphanDependents: true orphans, false is background', () => {
    assert.deepEqual(deletionFinalizers(configmaps, obj(), { orphanDependents: true }), ['orphan']);
    assert.equal(deletionFinalizers(configmaps, obj(), { orphanDependents: false }), undefined);
    assert.deepEqual(deletionFinalizers(jobs, obj(), { orphanDependents: false }), undefined);
  });

  it("a resource's default applies without options; a finalizer already there wins over the default", () => {
    assert.deepEqual(deletionFinalizers(jobs, obj(), {}), ['orphan']);
    assert.equal(deletionFinalizers(jobs, obj(['foregroundDeletion']), {}), undefined);
    assert.equal(deletionFinalizers(configmaps, obj(['orphan']), {}), undefined);
  });

  it('options replace the other GC finalizer and keep the rest in order', () => {
    assert.deepEqual(deletionFinalizers(configmaps, obj(['a.io/x', 'orphan', 'b.io/y'], true), { propagationPolicy: 'Foreground' }), [
      'a.io/x',
      'b.io/y',
      'foregroundDeletion',
    ]);
    assert.deepEqual(deletionFinalizers(configmaps, obj(['foregroundDeletion'], true), { propagationPolicy: 'Background' }), []);
    assert.equal(deletionFinalizers(configmaps, obj(['a.io/x', 'orphan']), { propagationPolicy: 'Orphan' }), undefined);
  });

  it('resources that take no part lose the GC finalizers whatever is asked', () => {
    assert.equal(deletionFinalizers(events, obj(), { propagationPolicy: 'Orphan' }), undefined);
    assert.deepEqual(deletionFinalizers(events, obj(['orphan', 'a.io/x']), { propagationPolicy: 'Foreground' }), ['a.io/x']);
  });

  it("a namespace's first delete: orphanDependents=false means foreground; nothing asked keeps what it has", () => {
    assert.deepEqual(deletionFinalizers(namespaces, obj(), { orphanDependents: false }), ['foregroundDeletion']);
    assert.deepEqual(deletionFinalizers(namespaces, obj(), { orphanDependents: true }), ['orphan']);
    assert.deepEqual(deletionFinalizers(namespaces, obj(), { propagationPolicy: 'Foreground' }), ['foregroundDeletion']);
    assert.equal(deletionFinalizers(namespaces, obj(['orphan']), {}), undefined);
    // Once terminating, the generic rules apply (orphanDependents=false is background there).
    assert.deepEqual(deletionFinalizers(namespaces, obj(['orphan'], true), { orphanDependents: false }), []);
  });

  it('validates the options like ValidateDeleteOptions', () => {
    assert.deepEqual(validatePropagation({ propagationPolicy: 'Background' }), []);
    assert.deepEqual(validatePropagation({ orphanDependents: true, propagationPolicy: 'Orphan' }), [
      {
        type: 'FieldValueInvalid',
        field: 'propagationPolicy',
        badValue: 'Orphan',
        detail: 'orphanDependents and deletionPropagation cannot be both set',
      },
    ]);
    assert.deepEqual(validatePropagation({ propagationPolicy: 'Sometimes' as never }), [
      {
        type: 'FieldValueNotSupported',
        field: 'propagationPolicy',
        badValue: 'Sometimes',
        detail: 'supported values: "Foreground", "Background", "Orphan", "nil"',
      },
    ]);
  });
});
