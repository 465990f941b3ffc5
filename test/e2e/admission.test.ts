/**
 * Admission as kubectl users meet it: PodSecurity warnings on `kubectl apply` of a Deployment into a
 * restricted namespace (and the refusal of a bare pod there), the default StorageClass given to a PVC
 * that names none, and LimitRanger's defaults on a pod.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/api-server.js';
import { newKubectl } from '../support/kubectl.js';

const yaml = (...docs: string[]) => docs.join('\n---\n');

describe('admission through kubectl', () => {
  let s: TestServer;
  let k: ReturnType<typeof newKubectl>;
  before(async () => {
    s = await startTestServer();
    k = newKubectl(s.kubeconfig);
  });
  after(() => s?.stop());

  it('kubectl apply of a Deployment into a restricted namespace prints the PodSecurity warnings', async () => {
    await k.ok(['create', 'namespace', 'locked']);
    await k.ok(['label', 'namespace', 'locked', 'pod-security.orch.io/enforce=restricted']);
    const deployment = yaml(
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: web, namespace: locked}',
      'spec:',
      '  selector: {matchLabels: {app: web}}',
      '  template:',
      '    metadata: {labels: {app: web}}',
      '    spec:',
      '      containers: [{name: nginx, image: nginx}]',
    ).replace(/\n---\n/g, '\n');
    const r = await k.run(['apply', '-f', '-'], { input: deployment });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /deployment.apps\/web created/);
    assert.equal(
      r.stderr.trim(),
      'Warning: would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "nginx" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "nginx" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "nginx" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "nginx" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
    // A bare pod is refused by the enforce level.
    await k.ok(['create', 'serviceaccount', 'default', '-n', 'locked']);
    const pod = await k.run(['run', 'bare', '-n', 'locked', '--image=nginx']);
    assert.notEqual(pod.code, 0);
    assert.match(
      pod.stderr,
      /Error from server \(Forbidden\): pods "bare" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false/,
    );
  });

  it('a PVC without a class gets the default StorageClass', async () => {
    await k.ok(['create', 'namespace', 'store']);
    await k.ok(['apply', '-f', '-'], {
      input: yaml(
        'apiVersion: storage.orch.io/v1\nkind: StorageClass\nmetadata:\n  name: standard\n  annotations: {storageclass.orch.io/is-default-class: "true"}\nprovisioner: example.com/disk',
        'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: store}\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}',
      ),
    });
    assert.equal(await k.ok(['get', 'pvc', 'data', '-n', 'store', '-o', 'jsonpath={.spec.storageClassName}']), 'standard');
  });

  it('LimitRanger defaults what a pod leaves unset', async () => {
    await k.ok(['create', 'namespace', 'limited']);
    await k.ok(['create', 'serviceaccount', 'default', '-n', 'limited']);
    await k.ok(['apply', '-n', 'limited', '-f', '-'], {
      input:
        'apiVersion: v1\nkind: LimitRange\nmetadata: {name: lr}\nspec:\n  limits:\n  - type: Container\n    default: {cpu: 500m}\n    defaultRequest: {cpu: 100m}',
    });
    await k.ok(['run', 'app', '-n', 'limited', '--image=nginx']);
    const resources = JSON.parse(await k.ok(['get', 'pod', 'app', '-n', 'limited', '-o', 'jsonpath={.spec.containers[0].resources}']));
    assert.deepEqual(resources, { limits: { cpu: '500m' }, requests: { cpu: '100m' } });
  });
});
