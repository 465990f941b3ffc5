/**
 * kubectl against orch-apiserver with each kind of credential: a client certificate, a bearer
 * token, and an exec credential plugin (returning a token, or a client certificate), plus the 401
 * kubectl reports for a plugin's bad token.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ensureCA, newClientCert, type CertKeyFiles } from '../../apiserver/component-base/certs/certs.js';
import { startTestServer, type TestServer } from '../support/api-server.js';
import { newKubectl } from '../support/kubectl.js';

describe('kubectl credentials', () => {
  let s: TestServer;
  let dir: string;
  let ca: CertKeyFiles;

  const kubeconfig = (name: string, user: Record<string, unknown>) => {
    const file = join(dir, `${name}.kubeconfig`);
    writeFileSync(
      file,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'orch', cluster: { server: s.url, 'certificate-authority-data': Buffer.from(s.ca).toString('base64') } }],
        users: [{ name, user }],
        contexts: [{ name: 'orch', context: { cluster: 'orch', user: name } }],
        'current-context': 'orch',
      }),
    );
    return newKubectl(file);
  };
  /** An exec plugin printing `status` as an ExecCredential. */
  const plugin = (name: string, status: Record<string, unknown>) => {
    const file = join(dir, `${name}.mjs`);
    const credential = { apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status };
    writeFileSync(file, `#!${process.execPath}\nprocess.stdout.write(${JSON.stringify(JSON.stringify(credential))});\n`);
    chmodSync(file, 0o755);
    return { apiVersion: 'client.authentication.k8s.io/v1', command: file, interactiveMode: 'Never' };
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-kubectl-creds-'));
    ca = ensureCA(join(dir, 'ca'));
    // AlwaysDeny: only system:masters may list, so each success proves the identity.
    s = await startTestServer({ process: true, args: [`--client-ca-file=${ca.certFile}`, '--authorization-mode=AlwaysDeny'] });
  });
  after(() => s.stop());

  it('a client certificate', async () => {
    const pair = newClientCert(ca, { cn: 'cert-admin', orgs: ['system:masters'] });
    const k = kubeconfig('cert', {
      'client-certificate-data': Buffer.from(pair.certPem).toString('base64'),
      'client-key-data': Buffer.from(pair.keyPem).toString('base64'),
    });
    assert.match(await k.ok(['get', 'ns', '-o', 'name']), /namespace\/default/);
    const plain = newClientCert(ca, { cn: 'nobody' });
    const denied = await kubeconfig('plain', {
      'client-certificate-data': Buffer.from(plain.certPem).toString('base64'),
      'client-key-data': Buffer.from(plain.keyPem).toString('base64'),
    }).run(['get', 'ns']);
    assert.notEqual(denied.code, 0);
    assert.match(denied.stderr, /Forbidden/); // discovery itself is refused to nobody under AlwaysDeny
  });

  it('a bearer token', async () => {
    assert.match(await kubeconfig('token', { token: s.token }).ok(['get', 'ns', '-o', 'name']), /namespace\/default/);
    const bad = await kubeconfig('bad-token', { token: 'nope' }).run(['get', 'ns']);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /Unauthorized|must be logged in/);
  });

  it('an exec credential plugin returning a token or a client certificate', async () => {
    assert.match(
      await kubeconfig('exec-token', { exec: plugin('token', { token: s.token }) }).ok(['get', 'ns', '-o', 'name']),
      /namespace\/default/,
    );
    const pair = newClientCert(ca, { cn: 'exec-admin', orgs: ['system:masters'] });
    const certPlugin = plugin('cert', { clientCertificateData: pair.certPem, clientKeyData: pair.keyPem });
    assert.match(await kubeconfig('exec-cert', { exec: certPlugin }).ok(['get', 'ns', '-o', 'name']), /namespace\/default/);
    const bad = await kubeconfig('exec-bad', { exec: plugin('bad', { token: 'forged' }) }).run(['get', 'ns']);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /Unauthorized|must be logged in/);
  });
});
