import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newEventRateLimit } from '../../../../apiserver/admission/plugins/event-rate-limit.js';
import { newPodSecurity } from '../../../../apiserver/admission/plugins/pod-security.js';
import { newPodTolerationRestriction } from '../../../../apiserver/admission/plugins/pod-toleration-restriction.js';
import type { PluginFactory } from '../../../../apiserver/admission/interfaces.js';
import { newApiDomain } from '../../../../apiserver/api/domain.js';
import { newEnv } from '../fixture.js';

// Each configurable plugin with a body it accepts, the kind its configuration names, and Kubernetes' apiVersions.
const PLUGINS: { name: string; factory: PluginFactory; kind: string; body: object; kube: string[]; orch: string }[] = [
  {
    name: 'EventRateLimit',
    factory: newEventRateLimit,
    kind: 'Configuration',
    body: { limits: [{ type: 'Server', qps: 1, burst: 1 }] },
    kube: ['eventratelimit.admission.k8s.io/v1alpha1'],
    orch: 'eventratelimit.admission.orch.io/v1alpha1',
  },
  {
    name: 'PodSecurity',
    factory: newPodSecurity,
    kind: 'PodSecurityConfiguration',
    body: { defaults: { enforce: 'baseline' } },
    kube: [
      'pod-security.admission.config.k8s.io/v1',
      'pod-security.admission.config.k8s.io/v1beta1',
      'pod-security.admission.config.k8s.io/v1alpha1',
    ],
    orch: 'pod-security.admission.config.orch.io/v1',
  },
  {
    name: 'PodTolerationRestriction',
    factory: newPodTolerationRestriction,
    kind: 'Configuration',
    body: { default: [] },
    kube: ['podtolerationrestriction.admission.k8s.io/v1alpha1'],
    orch: 'podtolerationrestriction.admission.orch.io/v1alpha1',
  },
];

for (const p of PLUGINS) {
  test(`${p.name}: its configuration in Kubernetes' apiVersions and the domain's, untyped, and no other`, () => {
    const env = newEnv();
    for (const apiVersion of [...p.kube, p.orch]) p.factory(env, { apiVersion, kind: p.kind, ...p.body });
    p.factory(env, p.body);
    assert.throws(() => p.factory(env, { apiVersion: `${p.kube[0]}x`, kind: p.kind, ...p.body }), /want kind .* of apiVersion/);
    assert.throws(() => p.factory(env, { apiVersion: p.kube[0], kind: 'Other', ...p.body }), /want kind /);
    const kube = newEnv(undefined, { domain: newApiDomain('k8s.io') });
    for (const apiVersion of p.kube) p.factory(kube, { apiVersion, kind: p.kind, ...p.body });
    assert.throws(() => p.factory(kube, { apiVersion: p.orch, kind: p.kind, ...p.body }), /want kind /);
  });
}
