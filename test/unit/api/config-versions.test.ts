import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CONFIG_FILE_KINDS,
  type ConfigFileKindName,
  acceptedApiVersions,
  assertKubeconfigType,
  configTypeProblem,
} from '../../../apiserver/api/config-versions.js';
import { newApiDomain } from '../../../apiserver/api/domain.js';

const orch = newApiDomain();
const kube = newApiDomain('k8s.io');

// What Kubernetes 1.28's decoders register for each file orch reads, as read from its source.
const KUBERNETES: Record<ConfigFileKindName, string[]> = {
  AuditPolicy: ['audit.k8s.io/v1'],
  AbacPolicy: ['abac.authorization.kubernetes.io/v1beta1', 'abac.authorization.kubernetes.io/v0'],
  AdmissionConfiguration: ['apiserver.config.k8s.io/v1', 'apiserver.k8s.io/v1alpha1'],
  EncryptionConfiguration: ['apiserver.config.k8s.io/v1'],
  WebhookAdmission: ['apiserver.config.k8s.io/v1', 'apiserver.config.k8s.io/v1alpha1'],
  EventRateLimit: ['eventratelimit.admission.k8s.io/v1alpha1'],
  PodTolerationRestriction: ['podtolerationrestriction.admission.k8s.io/v1alpha1'],
  PodSecurity: [
    'pod-security.admission.config.k8s.io/v1',
    'pod-security.admission.config.k8s.io/v1beta1',
    'pod-security.admission.config.k8s.io/v1alpha1',
  ],
  Kubeconfig: ['v1'],
  ExecCredential: ['client.authentication.k8s.io/v1', 'client.authentication.k8s.io/v1beta1'],
};

test("every config kind accepts Kubernetes' apiVersions in both domains and the domain's names in the default one", () => {
  assert.deepEqual(Object.keys(CONFIG_FILE_KINDS).sort(), Object.keys(KUBERNETES).sort());
  for (const [name, versions] of Object.entries(KUBERNETES) as [ConfigFileKindName, string[]][]) {
    const kind = CONFIG_FILE_KINDS[name].kinds[0];
    const renamed = versions.map((v) => v.replace(/k8s\.io\//, 'orch.io/').replace(/kubernetes\.io\//, 'orch.io/'));
    assert.deepEqual(acceptedApiVersions(name, kube), versions, name);
    assert.deepEqual(acceptedApiVersions(name, orch), [...new Set([...versions, ...renamed])], name);
    for (const apiVersion of versions) {
      assert.equal(configTypeProblem(name, { apiVersion, kind }, orch), undefined, `${name} ${apiVersion} in orch.io`);
      assert.equal(configTypeProblem(name, { apiVersion, kind }, kube), undefined, `${name} ${apiVersion} in k8s.io`);
    }
    for (const apiVersion of renamed.filter((v) => !versions.includes(v))) {
      assert.equal(configTypeProblem(name, { apiVersion, kind }, orch), undefined, `${name} ${apiVersion} in orch.io`);
      assert.match(configTypeProblem(name, { apiVersion, kind }, kube) ?? '', /^want kind /, `${name} ${apiVersion} in k8s.io`);
    }
    assert.match(configTypeProblem(name, { apiVersion: `${versions[0]}9`, kind }, orch) ?? '', /^want kind /);
    assert.match(configTypeProblem(name, { apiVersion: versions[0], kind: 'Nope' }, orch) ?? '', /^want kind /);
    assert.match(configTypeProblem(name, {}, orch) ?? '', /got kind "" of apiVersion ""/);
    assert.equal(configTypeProblem(name, { kind }, orch, { allowUntyped: true }), undefined);
  }
});

test('a kubeconfig-format file: v1 Config or no apiVersion', () => {
  assertKubeconfigType({ apiVersion: 'v1', kind: 'Config' }, 'f');
  assertKubeconfigType({ apiVersion: 'v1' }, 'f');
  assertKubeconfigType({ clusters: [] }, 'f');
  assertKubeconfigType(null, 'f');
  assert.throws(
    () => assertKubeconfigType({ apiVersion: 'v2', kind: 'Config' }, 'hook.yaml'),
    /^Error: hook.yaml: want kind Config of apiVersion v1; got kind "Config" of apiVersion "v2"$/,
  );
  assert.throws(() => assertKubeconfigType({ apiVersion: 'v1', kind: 'Pod' }, 'f'), /want kind Config/);
});
