import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readWebhookCredentials } from '../../../apiserver/admission/webhook/credentials.js';
import { newApiDomain } from '../../../apiserver/api/domain.js';

const orch = newApiDomain();

test('webhook credentials are matched as Kubernetes matches kubeconfig users: host:port, service name, wildcard, *', () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-webhook-creds-'));
  writeFileSync(join(dir, 'client.crt'), 'CERT');
  const file = join(dir, 'webhooks.kubeconfig');
  writeFileSync(
    file,
    [
      'users:',
      '- name: 127.0.0.1:8443',
      '  user: {token: exact}',
      '- name: hook.web.svc',
      '  user: {username: u, password: p}',
      '- name: "*.example.com"',
      '  user: {client-certificate: client.crt, client-key-data: S0VZ}',
      '- name: "*.deep.example.com"',
      '  user: {token: deeper}',
      '- name: "*"',
      '  user: {token: fallback}',
    ].join('\n'),
  );
  const creds = readWebhookCredentials({ kubeConfigFile: file }, orch);
  assert.deepEqual(creds('127.0.0.1', 8443), { authorization: 'Bearer exact', cert: undefined, key: undefined });
  assert.equal(creds('hook.web.svc', 443)?.authorization, `Basic ${Buffer.from('u:p').toString('base64')}`);
  assert.deepEqual(creds('a.example.com', 443), { cert: 'CERT', key: 'KEY', authorization: undefined });
  assert.equal(creds('x.deep.example.com', 443)?.authorization, 'Bearer deeper');
  assert.equal(creds('hook.web.svc', 8443)?.authorization, 'Bearer fallback');
  assert.equal(readWebhookCredentials(undefined, orch)('anything', 443), undefined);
});

test("the webhook plugins' configuration: Kubernetes' apiVersions (v1, v1alpha1) and kinds, the domain's, and the kubeconfig's v1", () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-webhook-config-'));
  const file = join(dir, 'webhooks.kubeconfig');
  writeFileSync(file, 'apiVersion: v1\nkind: Config\nusers:\n- name: "*"\n  user: {token: t}\n');
  const configs = [
    { apiVersion: 'apiserver.config.k8s.io/v1', kind: 'WebhookAdmissionConfiguration', kubeConfigFile: file },
    { apiVersion: 'apiserver.config.k8s.io/v1alpha1', kind: 'WebhookAdmission', kubeConfigFile: file },
    { apiVersion: 'apiserver.config.orch.io/v1', kind: 'WebhookAdmissionConfiguration', kubeConfigFile: file },
    { kubeConfigFile: file },
  ];
  for (const c of configs) assert.equal(readWebhookCredentials(c, orch)('h', 443)?.authorization, 'Bearer t', JSON.stringify(c));
  assert.throws(
    () =>
      readWebhookCredentials(
        { apiVersion: 'apiserver.config.k8s.io/v2', kind: 'WebhookAdmissionConfiguration', kubeConfigFile: file },
        orch,
      ),
    /want kind WebhookAdmissionConfiguration or WebhookAdmission of apiVersion apiserver.config.k8s.io\/v1, apiserver.config.k8s.io\/v1alpha1, apiserver.config.orch.io\/v1/,
  );
  const v2 = join(dir, 'v2.kubeconfig');
  writeFileSync(v2, 'apiVersion: v2\nkind: Config\n');
  assert.throws(
    () => readWebhookCredentials({ kubeConfigFile: v2 }, orch),
    /kubeConfigFile .*v2.kubeconfig: want kind Config of apiVersion v1;/,
  );
});
