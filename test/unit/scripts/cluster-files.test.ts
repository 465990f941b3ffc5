import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ensureClusterFiles, writeAdminKubeconfig, writeClientCertKubeconfig } from '../../../scripts/cluster-files.js';
import { parseTokenFile } from '../../../apiserver/authentication/token-file.js';

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'orch-cluster-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('first call creates certificates and an admin token; the second reuses them', (t) => {
  const dir = tempDir(t);
  const files = ensureClusterFiles(dir, ['lb']);
  assert.equal(files.caFile, join(dir, 'certs', 'ca.crt'));
  assert.equal(files.caKeyFile, join(dir, 'certs', 'ca.key'));
  assert.equal(files.certFile, join(dir, 'certs', 'apiserver.crt'));
  assert.equal(files.keyFile, join(dir, 'certs', 'apiserver.key'));
  assert.equal(new X509Certificate(readFileSync(files.certFile)).checkHost('lb'), 'lb');
  assert.equal(statSync(files.tokensFile).mode & 0o777, 0o600);
  assert.deepEqual(parseTokenFile(readFileSync(files.tokensFile, 'utf8'), files.tokensFile), [
    { token: files.token, line: 1, user: { name: 'admin', uid: 'admin', groups: ['system:masters'] } },
  ]);
  assert.match(files.token, /^[A-Za-z0-9_-]{43}$/);

  const again = ensureClusterFiles(dir, ['lb']);
  assert.deepEqual(again, files);
  assert.equal(readFileSync(again.certFile, 'utf8'), readFileSync(files.certFile, 'utf8'));
});

test('a token file without an admin is refused', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'tokens.csv'), 'tok,bob,bob\n');
  assert.throws(() => ensureClusterFiles(dir), /tokens\.csv has no token for user admin/);
});

test('the admin kubeconfig points at the server, trusts the CA and carries the token', (t) => {
  const dir = tempDir(t);
  const files = ensureClusterFiles(dir);
  const file = join(dir, 'admin.kubeconfig');
  writeAdminKubeconfig(file, 'https://127.0.0.1:7443', files);
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.deepEqual(parse(readFileSync(file, 'utf8')), {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'orch',
        cluster: { server: 'https://127.0.0.1:7443', 'certificate-authority-data': Buffer.from(files.caPem).toString('base64') },
      },
    ],
    users: [{ name: 'admin', user: { token: files.token } }],
    contexts: [{ name: 'orch', context: { cluster: 'orch', user: 'admin' } }],
    'current-context': 'orch',
    preferences: {},
  });
});

test('client certificates of the admin and the controller manager, and the service-account key pair, are created once', (t) => {
  const dir = tempDir(t);
  const files = ensureClusterFiles(dir);
  const ca = new X509Certificate(files.caPem);
  const admin = new X509Certificate(files.admin.certPem);
  assert.equal(admin.subject, 'O=system:masters\nCN=admin');
  assert.ok(admin.verify(ca.publicKey));
  assert.equal(new X509Certificate(files.controllerManager.certPem).subject, 'CN=system:kube-controller-manager');
  assert.equal(statSync(files.admin.keyFile).mode & 0o777, 0o600);
  assert.equal(statSync(files.serviceAccountKeyFile).mode & 0o777, 0o600);
  assert.match(readFileSync(files.serviceAccountPublicKeyFile, 'utf8'), /BEGIN PUBLIC KEY/);
  const again = ensureClusterFiles(dir);
  assert.equal(again.admin.certPem, files.admin.certPem);
  assert.equal(readFileSync(again.serviceAccountKeyFile, 'utf8'), readFileSync(files.serviceAccountKeyFile, 'utf8'));
});

test('a client-certificate kubeconfig carries the certificate and key', (t) => {
  const dir = tempDir(t);
  const files = ensureClusterFiles(dir);
  const file = join(dir, 'cm.kubeconfig');
  writeClientCertKubeconfig(file, 'https://127.0.0.1:7443', files.caPem, 'system:kube-controller-manager', files.controllerManager);
  const config = parse(readFileSync(file, 'utf8'));
  assert.deepEqual(config.users, [
    {
      name: 'system:kube-controller-manager',
      user: {
        'client-certificate-data': Buffer.from(files.controllerManager.certPem).toString('base64'),
        'client-key-data': Buffer.from(files.controllerManager.keyPem).toString('base64'),
      },
    },
  ]);
  assert.equal(config.contexts[0].context.user, 'system:kube-controller-manager');
});
