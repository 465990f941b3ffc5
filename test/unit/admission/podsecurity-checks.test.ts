import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describe, evaluate } from '../../../apiserver/admission/podsecurity/checks.js';
import type { PodSpec } from '../../../apiserver/admission/pods.js';

const nginx = (securityContext?: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  name: 'nginx',
  image: 'nginx',
  securityContext,
  ...extra,
});
const spec = (s: Partial<PodSpec>): PodSpec => ({ containers: [nginx()], ...s }) as PodSpec;

test('a plain pod passes baseline and shows Kubernetes’ four restricted violations', () => {
  assert.deepEqual(evaluate('baseline', {}, spec({}), 'orch.io'), []);
  assert.equal(
    describe(evaluate('restricted', {}, spec({}), 'orch.io')),
    'allowPrivilegeEscalation != false (container "nginx" must set securityContext.allowPrivilegeEscalation=false), ' +
      'unrestricted capabilities (container "nginx" must set securityContext.capabilities.drop=["ALL"]), ' +
      'runAsNonRoot != true (pod or container "nginx" must set securityContext.runAsNonRoot=true), ' +
      'seccompProfile (pod or container "nginx" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
  );
  assert.deepEqual(evaluate('privileged', {}, spec({ hostNetwork: true }), 'orch.io'), []);
});

test('a restricted-compliant pod passes', () => {
  const ok = spec({
    securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
    containers: [nginx({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] } })],
    volumes: [{ name: 'cfg', configMap: { name: 'c' } }],
  });
  assert.deepEqual(evaluate('restricted', {}, ok, 'orch.io'), []);
});

test('baseline violations, each with its reason and detail', () => {
  const bad = spec({
    hostNetwork: true,
    hostPID: true,
    containers: [
      nginx(
        { privileged: true, capabilities: { add: ['NET_ADMIN', 'CHOWN'] }, procMount: 'Unmasked' },
        { ports: [{ containerPort: 80, hostPort: 8080 }] },
      ),
    ],
    volumes: [{ name: 'host', hostPath: { path: '/' } }],
    securityContext: { seccompProfile: { type: 'Unconfined' }, sysctls: [{ name: 'kernel.msgmax' }, { name: 'net.ipv4.tcp_syncookies' }] },
  });
  assert.deepEqual(
    evaluate('baseline', { annotations: { 'container.apparmor.security.beta.orch.io/nginx': 'unconfined' } }, bad, 'orch.io').map(
      (v) => `${v.reason}: ${v.detail}`,
    ),
    [
      'forbidden AppArmor profile: container.apparmor.security.beta.orch.io/nginx="unconfined"',
      'non-default capabilities: container "nginx" must not include "NET_ADMIN" in securityContext.capabilities.add',
      'host namespaces: hostNetwork=true, hostPID=true',
      'hostPath volumes: volume "host"',
      'hostPort: container "nginx" uses hostPort 8080',
      'privileged: container "nginx" must not set securityContext.privileged=true',
      'procMount: container "nginx" must not set securityContext.procMount to "Unmasked"',
      'seccompProfile: pod must not set securityContext.seccompProfile.type to "Unconfined"',
      'forbidden sysctls: kernel.msgmax',
    ],
  );
});

test('restricted-only violations: volume types, runAsUser=0, added capabilities', () => {
  const bad = spec({
    securityContext: { runAsNonRoot: true, runAsUser: 0, seccompProfile: { type: 'RuntimeDefault' } },
    containers: [nginx({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'], add: ['CHOWN'] } })],
    volumes: [{ name: 'nfs', nfs: { server: 's', path: '/' } }],
  });
  assert.deepEqual(
    evaluate('restricted', {}, bad, 'orch.io').map((v) => `${v.reason}: ${v.detail}`),
    [
      'unrestricted capabilities: container "nginx" must not include "CHOWN" in securityContext.capabilities.add',
      'restricted volume types: volume "nfs" uses restricted volume type "nfs"',
      'runAsUser=0: pod must not set runAsUser=0',
    ],
  );
});
