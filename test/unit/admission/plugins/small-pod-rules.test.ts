/** LimitPodHardAntiAffinityTopology, ExtendedResourceToleration and SecurityContextDeny: small pod rules. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newExtendedResourceToleration } from '../../../../apiserver/admission/plugins/extended-resource-toleration.js';
import { newLimitPodHardAntiAffinityTopology } from '../../../../apiserver/admission/plugins/limit-pod-hard-anti-affinity-topology.js';
import { newSecurityContextDeny } from '../../../../apiserver/admission/plugins/security-context-deny.js';
import { attrs, newEnv, rejection } from '../fixture.js';
import { pod } from './pod-fixture.js';

const a = (obj: ReturnType<typeof pod>) => attrs({ resource: 'pods', namespace: 'ns', object: obj });

test('LimitPodHardAntiAffinityTopology allows only the hostname key in required anti-affinity', async () => {
  const p = newLimitPodHardAntiAffinityTopology(newEnv(), undefined);
  const term = (topologyKey: string) => ({
    affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey, labelSelector: {} }] } },
  });
  await p.validate!(a(pod(term('orch.io/hostname'))));
  const err = await rejection(p.validate!(a(pod(term('topology.orch.io/zone')))));
  assert.equal(
    err.status.message,
    'pods "p" is forbidden: affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey topology.orch.io/zone but only key orch.io/hostname is allowed',
  );
});

test('ExtendedResourceToleration tolerates the taints of requested extended resources, once each', async () => {
  const p = newExtendedResourceToleration(newEnv(), undefined);
  const obj = pod({
    containers: [
      { name: 'a', image: 'i', resources: { requests: { cpu: '1', 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '1' } } },
      { name: 'b', image: 'i', resources: { limits: { 'example.com/fpga': '2', 'orch.io/thing': '1' } } },
    ],
    tolerations: [{ key: 'example.com/gpu', operator: 'Exists' }],
  });
  await p.admit!(a(obj));
  assert.deepEqual(obj.spec.tolerations, [
    { key: 'example.com/gpu', operator: 'Exists' },
    { key: 'example.com/fpga', operator: 'Exists', effect: 'NoSchedule' },
  ]);
});

test('SecurityContextDeny refuses user, group and SELinux settings on the pod and its containers', async () => {
  const p = newSecurityContextDeny(newEnv(), undefined);
  await p.validate!(a(pod({ securityContext: { runAsNonRoot: true } })));
  const podLevel = await rejection(p.validate!(a(pod({ securityContext: { fsGroup: 2000 } }))));
  assert.equal(podLevel.status.message, 'pods "p" is forbidden: pod.Spec.SecurityContext.FSGroup is forbidden');
  const container = await rejection(p.validate!(a(pod({ containers: [{ name: 'c', image: 'i', securityContext: { runAsUser: 0 } }] }))));
  assert.equal(container.status.message, 'pods "p" is forbidden: SecurityContext.RunAsUser is forbidden');
});
