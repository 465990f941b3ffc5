import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newApiDomain } from '../../../../apiserver/api/domain.js';
import { builtInSigners } from '../../../../apiserver/api/certificates/signers.js';

test("the built-in signers are Kubernetes' under k8s.io and named for orch under orch.io", () => {
  assert.deepEqual(builtInSigners(newApiDomain('k8s.io')), {
    apiServerClient: 'kubernetes.io/kube-apiserver-client',
    apiServerClientNode: 'kubernetes.io/kube-apiserver-client-kubelet',
    nodeServing: 'kubernetes.io/kubelet-serving',
    legacyUnknown: 'kubernetes.io/legacy-unknown',
  });
  assert.deepEqual(builtInSigners(newApiDomain()), {
    apiServerClient: 'orch.io/orch-apiserver-client',
    apiServerClientNode: 'orch.io/orch-apiserver-client-orchlet',
    nodeServing: 'orch.io/orchlet-serving',
    legacyUnknown: 'orch.io/legacy-unknown',
  });
});
