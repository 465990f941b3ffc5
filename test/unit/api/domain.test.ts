import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newApiDomain } from '../../../apiserver/api/domain.js';

describe('newApiDomain', () => {
  it('moves k8s.io groups to the domain and keeps the others', () => {
    const d = newApiDomain();
    assert.equal(d.group(''), '');
    assert.equal(d.group('apps'), 'apps');
    assert.equal(d.group('batch'), 'batch');
    assert.equal(d.group('storage.k8s.io'), 'storage.orch.io');
    assert.equal(d.group('rbac.authorization.k8s.io'), 'rbac.authorization.orch.io');
    assert.equal(d.metaGroup, 'meta.orch.io');
    assert.deepEqual(d.viewGroups, ['meta.orch.io', 'meta.k8s.io']);
    assert.deepEqual(d.immortalNamespaces, ['default', 'orch-system', 'orch-public']);
    assert.equal(d.nodeLeaseNamespace, 'orch-node-lease');
    assert.deepEqual(d.systemNamespaces, ['orch-system', 'orch-public', 'orch-node-lease', 'default']);
    assert.equal(d.labelPrefix, 'orch.io');
    assert.equal(d.namespaceFinalizer, 'orch');
  });

  it('answers as Kubernetes for k8s.io', () => {
    const d = newApiDomain('k8s.io');
    assert.equal(d.group('storage.k8s.io'), 'storage.k8s.io');
    assert.deepEqual(d.immortalNamespaces, ['default', 'kube-system', 'kube-public']);
    assert.equal(d.nodeLeaseNamespace, 'kube-node-lease');
    assert.deepEqual(d.systemNamespaces, ['kube-system', 'kube-public', 'kube-node-lease', 'default']);
    assert.equal(d.labelPrefix, 'kubernetes.io');
    assert.equal(d.namespaceFinalizer, 'kubernetes');
    assert.deepEqual(d.viewGroups, ['meta.k8s.io']);
  });
});
