import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ensureClusterFiles, writeAdminKubeconfig } from '../../../scripts/cluster-files.js';
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
