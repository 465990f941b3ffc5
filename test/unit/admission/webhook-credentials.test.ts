import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readWebhookCredentials } from '../../../apiserver/admission/webhook/credentials.js';

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
  const creds = readWebhookCredentials({ kubeConfigFile: file });
  assert.deepEqual(creds('127.0.0.1', 8443), { authorization: 'Bearer exact', cert: undefined, key: undefined });
  assert.equal(creds('hook.web.svc', 443)?.authorization, `Basic ${Buffer.from('u:p').toString('base64')}`);
  assert.deepEqual(creds('a.example.com', 443), { cert: 'CERT', key: 'KEY', authorization: undefined });
  assert.equal(creds('x.deep.example.com', 443)?.authorization, 'Bearer deeper');
  assert.equal(creds('hook.web.svc', 8443)?.authorization, 'Bearer fallback');
  assert.equal(readWebhookCredentials(undefined)('anything', 443), undefined);
});
