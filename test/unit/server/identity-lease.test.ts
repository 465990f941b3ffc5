import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newApiDomain } from '../../../apiserver/api/domain.js';
import { identityLabel, identityLeaseName, isLeaseExpired } from '../../../apiserver/server/identity-lease.js';

describe('identity lease', () => {
  it('is named apiserver-<26 base32 characters>, the same for the same host, port and slot, another for any other', () => {
    const name = identityLeaseName('host-a', 'orch-apiserver', 6443);
    assert.match(name, /^apiserver-[a-z2-7]{26}$/);
    assert.equal(identityLeaseName('host-a', 'orch-apiserver', 6443), name);
    const others = [
      identityLeaseName('host-b', 'orch-apiserver', 6443),
      identityLeaseName('host-a', 'kube-apiserver', 6443),
      identityLeaseName('host-a', 'orch-apiserver', 6444),
      identityLeaseName('host-a', 'orch-apiserver', 6443, 0),
      identityLeaseName('host-a', 'orch-apiserver', 6443, 1),
      // Length-prefixed parts: moving a character between host and component is another input.
      identityLeaseName('host-ao', 'rch-apiserver', 6443),
    ];
    assert.equal(new Set([name, ...others]).size, others.length + 1);
  });

  it('is labelled by the domain: orch.io and orch-apiserver, or Kubernetes’ own with k8s.io', () => {
    assert.deepEqual(identityLabel(newApiDomain()), {
      key: 'apiserver.orch.io/identity',
      value: 'orch-apiserver',
      selector: 'apiserver.orch.io/identity=orch-apiserver',
    });
    assert.equal(identityLabel(newApiDomain('k8s.io')).selector, 'apiserver.kubernetes.io/identity=kube-apiserver');
  });

  it('has expired once renewTime + leaseDurationSeconds has passed, or when either is missing', () => {
    const now = new Date('2026-01-01T12:00:00Z');
    const lease = (spec: object) => ({ apiVersion: 'coordination.orch.io/v1', kind: 'Lease', metadata: { name: 'x' }, spec });
    assert.equal(isLeaseExpired(lease({ renewTime: '2026-01-01T11:30:00.000000Z', leaseDurationSeconds: 3600 }), now), false);
    assert.equal(isLeaseExpired(lease({ renewTime: '2026-01-01T10:59:59.000000Z', leaseDurationSeconds: 3600 }), now), true);
    assert.equal(isLeaseExpired(lease({ leaseDurationSeconds: 3600 }), now), true);
    assert.equal(isLeaseExpired(lease({ renewTime: '2026-01-01T11:30:00.000000Z' }), now), true);
    assert.equal(isLeaseExpired(lease({ renewTime: 'not a time', leaseDurationSeconds: 3600 }), now), true);
  });
});
