import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newApiDomain } from '../../../../apiserver/api/domain.js';
import { buildReview } from '../../../../apiserver/admission/webhook/review.js';
import { targetOf } from '../../../../apiserver/admission/webhook/matching.js';
import { attrs, defOf } from '../fixture.js';

const review = (domain: string, a: ReturnType<typeof attrs>) =>
  JSON.parse(buildReview(newApiDomain(domain), 'v1', a, targetOf(a.resource, ''), a.resource.kind, a.object, a.oldObject).body.toString())
    .request;

test('request.options names its kind and the meta group: meta.k8s.io/v1 as Kubernetes, meta.orch.io/v1 by default', () => {
  const a = attrs({ resource: 'configmaps', namespace: 'ns', object: { metadata: { name: 'c' } } });
  a.options = { kind: 'CreateOptions', fieldManager: 'kubectl-create' };
  assert.deepEqual(review('k8s.io', a).options, { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'kubectl-create' });
  assert.deepEqual(review('orch.io', a).options, { kind: 'CreateOptions', apiVersion: 'meta.orch.io/v1', fieldManager: 'kubectl-create' });
  assert.equal(defOf('', 'configmaps').kind, 'ConfigMap');
});

test('request.options is absent for CONNECT, whose object is the connect options', () => {
  const a = attrs({ resource: 'pods', subresource: 'exec', operation: 'CONNECT', namespace: 'ns', name: 'p' });
  assert.equal(review('k8s.io', a).options, undefined);
});
