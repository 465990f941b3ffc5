/**
 * End to end (issue 27) with /usr/bin/kubectl in the Kubernetes domain: apply the documentation's
 * ValidatingAdmissionPolicy and binding (replicas <= 5), list them with their columns, then see
 * `kubectl create` of a deployment over the limit refused with Kubernetes' message, and one within it
 * created; a Warn binding's message reaches kubectl's stderr as a warning.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/api-server.js';
import { newKubectl } from '../support/kubectl.js';

const POLICY = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: demo-policy.example.com
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: [apps]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [deployments]
  validations:
  - expression: object.spec.replicas <= 5
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: demo-binding-test.example.com
spec:
  policyName: demo-policy.example.com
  validationActions: [Deny]
  matchResources:
    namespaceSelector:
      matchLabels:
        environment: test
`;

const WARN = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: labels.example.com
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [apps]
      apiVersions: [v1]
      operations: [CREATE]
      resources: [deployments]
  validations:
  - expression: "has(object.metadata.labels) && 'owner' in object.metadata.labels"
    message: deployments should name their owner
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: labels-warn.example.com
spec:
  policyName: labels.example.com
  validationActions: [Warn]
`;

describe('ValidatingAdmissionPolicy with kubectl (k8s.io)', () => {
  let s: TestServer;
  let kubectl: ReturnType<typeof newKubectl>;
  before(async () => {
    s = await startTestServer({ args: ['--api-domain=k8s.io'] });
    kubectl = newKubectl(s.kubeconfig);
  });
  after(async () => {
    await s?.stop();
  });

  it('applies a policy and binding, and kubectl create over the limit shows the denial', async () => {
    await kubectl.ok(['create', 'namespace', 'test']);
    await kubectl.ok(['label', 'namespace', 'test', 'environment=test']);
    const applied = await kubectl.ok(['apply', '-f', '-'], { input: POLICY });
    assert.match(applied, /validatingadmissionpolicy.admissionregistration.k8s.io\/demo-policy.example.com created/);
    assert.match(applied, /validatingadmissionpolicybinding.admissionregistration.k8s.io\/demo-binding-test.example.com created/);
    const listed = await kubectl.ok(['get', 'validatingadmissionpolicies']);
    assert.match(listed, /^NAME\s+VALIDATIONS\s+PARAMKIND\s+AGE\n/);
    assert.match(listed, /demo-policy.example.com\s+1\s+<unset>\s+/);
    const bindings = await kubectl.ok(['get', 'validatingadmissionpolicybindings']);
    assert.match(bindings, /demo-binding-test.example.com\s+demo-policy.example.com\s+<unset>\s+/);

    const denied = await kubectl.run(['create', 'deployment', 'nginx', '--image=nginx', '--replicas=6', '-n', 'test']);
    assert.notEqual(denied.code, 0);
    assert.equal(
      denied.stderr.trim(),
      `error: failed to create deployment: deployments.apps "nginx" is forbidden: ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'demo-binding-test.example.com' denied request: failed expression: object.spec.replicas <= 5`,
    );
    await kubectl.ok(['create', 'deployment', 'nginx', '--image=nginx', '--replicas=5', '-n', 'test']);
    // The binding selects namespaces labelled environment=test only.
    await kubectl.ok(['create', 'deployment', 'big', '--image=nginx', '--replicas=6', '-n', 'default']);
  });

  it('a Warn binding lets the write through with a warning kubectl prints', async () => {
    await kubectl.ok(['apply', '-f', '-'], { input: WARN });
    const r = await kubectl.run(['create', 'deployment', 'unowned', '--image=nginx', '-n', 'default']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /Warning: Validation failed for ValidatingAdmissionPolicy 'labels.example.com' with binding 'labels-warn.example.com': deployments should name their owner/,
    );
  });
});
