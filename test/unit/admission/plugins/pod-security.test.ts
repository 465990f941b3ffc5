import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPodSecurity } from '../../../../apiserver/admission/plugins/pod-security.js';
import { NAMESPACES, PODS } from '../../../../apiserver/admission/resources.js';
import { attrs, newEnv, Objects, rejection } from '../fixture.js';
import { pod } from './pod-fixture.js';

function world(labels: Record<string, Record<string, string>>, config?: unknown) {
  const objects = new Objects();
  for (const [name, l] of Object.entries(labels))
    objects.put(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: l } });
  return { objects, p: newPodSecurity(newEnv(objects), config) };
}
const RESTRICTED_DETAIL =
  'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

test('PodSecurity enforce refuses a violating pod with Kubernetes’ message', async () => {
  const { p } = world({ locked: { 'pod-security.orch.io/enforce': 'restricted' } });
  const err = await rejection(p.validate!(attrs({ resource: 'pods', namespace: 'locked', object: pod({}, 'locked') })));
  assert.equal(err.code, 403);
  assert.equal(err.status.message, `pods "p" is forbidden: violates PodSecurity "restricted:latest": ${RESTRICTED_DETAIL}`);
});

test('PodSecurity warn adds a warning and admits; warn follows enforce when unset; versions are shown', async () => {
  const { p } = world({
    warned: { 'pod-security.orch.io/warn': 'restricted', 'pod-security.orch.io/warn-version': 'v1.27' },
    base: { 'pod-security.orch.io/enforce': 'baseline' },
  });
  const a = attrs({ resource: 'pods', namespace: 'warned', object: pod({}, 'warned') });
  await p.validate!(a);
  assert.deepEqual(a.warnings, [`would violate PodSecurity "restricted:v1.27": ${RESTRICTED_DETAIL}`]);
  const b = attrs({ resource: 'pods', namespace: 'base', object: pod({ hostNetwork: true }, 'base') });
  await assert.rejects(p.validate!(b), /violates PodSecurity "baseline:latest": host namespaces \(hostNetwork=true\)/);
});

test('PodSecurity warns (never refuses) for workloads’ pod templates', async () => {
  const { p } = world({ locked: { 'pod-security.orch.io/enforce': 'restricted' } });
  const deploy = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', namespace: 'locked' },
    spec: {
      selector: { matchLabels: { a: 'b' } },
      template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
    },
  };
  const a = attrs({ group: 'apps', resource: 'deployments', namespace: 'locked', object: deploy });
  await p.validate!(a);
  assert.deepEqual(a.warnings, [`would violate PodSecurity "restricted:latest": ${RESTRICTED_DETAIL}`]);
  const cron = {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'cj', namespace: 'locked' },
    spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'i' }] } } } } },
  };
  const c = attrs({ group: 'batch', resource: 'cronjobs', namespace: 'locked', object: cron });
  await p.validate!(c);
  assert.equal(c.warnings.length, 1);
});

test('PodSecurity exemptions and defaults come from its configuration', async () => {
  const config = {
    apiVersion: 'pod-security.admission.config.k8s.io/v1',
    kind: 'PodSecurityConfiguration',
    defaults: { enforce: 'baseline' },
    exemptions: { usernames: ['ops'], runtimeClasses: ['kata'], namespaces: ['free'] },
  };
  const { p } = world({ plain: {}, free: {} }, config);
  const host = (ns: string, extra = {}) => pod({ hostPID: true, ...extra }, ns);
  await assert.rejects(p.validate!(attrs({ resource: 'pods', namespace: 'plain', object: host('plain') })), /baseline:latest/);
  await p.validate!(attrs({ resource: 'pods', namespace: 'free', object: host('free') }));
  await p.validate!(attrs({ resource: 'pods', namespace: 'plain', object: host('plain'), user: { name: 'ops', groups: [] } }));
  await p.validate!(attrs({ resource: 'pods', namespace: 'plain', object: host('plain', { runtimeClassName: 'kata' }) }));
  assert.throws(() => newPodSecurity(newEnv(), { defaults: { enforce: 'strict' } }), /defaults.enforce: "strict" must be one of/);
});

test('PodSecurity refuses bad labels (422) and warns which existing pods a stricter enforce level would refuse', async () => {
  const { objects, p } = world({});
  objects.put(PODS, pod({ hostNetwork: true }, 'apps') as never);
  const ns = (labels: Record<string, string>) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'apps', labels } });
  const bad = await rejection(p.validate!(attrs({ resource: 'namespaces', object: ns({ 'pod-security.orch.io/enforce': 'strict' }) })));
  assert.equal(bad.code, 422);
  assert.equal(bad.status.details?.causes?.[0].field, 'metadata.labels[pod-security.orch.io/enforce]');
  const a = attrs({
    operation: 'UPDATE',
    resource: 'namespaces',
    object: ns({ 'pod-security.orch.io/enforce': 'baseline' }),
    oldObject: ns({}),
  });
  await p.validate!(a);
  assert.deepEqual(a.warnings, [
    'existing pods in namespace "apps" violate the new PodSecurity enforce level "baseline:latest"',
    'p: host namespaces',
  ]);
});
