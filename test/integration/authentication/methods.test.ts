/**
 * Authentication over real HTTPS: client certificates from a bundle of two CAs, static tokens, the
 * 401 answers to every bad credential (also with anonymous access on), and the user's attributes
 * reaching the registry unchanged (a CertificateSigningRequest records its requestor).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { ensureCA, newClientCert, type CertKeyPair } from '../../../apiserver/component-base/certs/certs.js';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { newTestClient, type TestClient } from '../../support/http-client.js';
import { b64, newCsrPem } from '../../support/csr-fixture.js';

const CSRS = '/apis/certificates.orch.io/v1/certificatesigningrequests';
const UNAUTHORIZED = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'Unauthorized',
  reason: 'Unauthorized',
  code: 401,
};

const csr = (name: string) => ({
  apiVersion: 'certificates.orch.io/v1',
  kind: 'CertificateSigningRequest',
  metadata: { name },
  spec: { request: b64(newCsrPem({ cn: name })), signerName: 'example.com/x', usages: ['client auth'] },
});

describe('authentication methods', () => {
  let s: TestServer;
  let caA: CertKeyPair;
  let caB: CertKeyPair;
  const clients: TestClient[] = [];
  const client = (config: { token?: string; cert?: string; key?: string }) => {
    const c = newTestClient({ url: s.url, ca: s.ca, ...config });
    clients.push(c);
    return c;
  };

  before(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-authn-'));
    caA = ensureCA(join(dir, 'a'));
    caB = ensureCA(join(dir, 'b'));
    await writeFile(join(dir, 'client-ca.crt'), caA.certPem + caB.certPem);
    // AlwaysDeny keeps anonymous access on; system:masters is allowed regardless.
    // -v=2 logs why each credential was rejected (checked below never to hold the credential).
    s = await startTestServer({ args: [`--client-ca-file=${join(dir, 'client-ca.crt')}`, '--authorization-mode=AlwaysDeny', '--v=2'] });
  });
  after(async () => {
    for (const c of clients) c.close();
    await s.stop();
  });

  it('a client certificate of either CA names the user and groups, plus system:authenticated', async () => {
    for (const [ca, cn] of [
      [caA, 'alice'],
      [caB, 'bob'],
    ] as const) {
      const pair = newClientCert(ca, { cn, orgs: ['system:masters', 'team'] });
      const r = await client({ cert: pair.certPem, key: pair.keyPem }).post(CSRS, csr(`from-${cn}`));
      assert.equal(r.status, 201, r.text);
      assert.equal(r.body.spec.username, cn);
      assert.deepEqual(r.body.spec.groups, ['system:masters', 'team', 'system:authenticated']);
    }
  });

  it('a static token names user, uid and groups', async () => {
    const r = await s.client.post(CSRS, csr('from-admin'));
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(
      { username: r.body.spec.username, uid: r.body.spec.uid, groups: r.body.spec.groups },
      { username: 'admin', uid: 'admin', groups: ['system:masters', 'system:authenticated'] },
    );
  });

  it('anonymous requests are system:anonymous, refused by AlwaysDeny with 403', async () => {
    const r = await s.anonymous.get('/api/v1/secrets');
    assert.equal(r.status, 403);
    assert.match(r.body.message, /User "system:anonymous" cannot list/);
  });

  it('every bad credential is a 401 Status even with anonymous access on', async () => {
    const untrusted = newClientCert(ensureCA(join(s.dataDir, 'untrusted')), { cn: 'mallory', orgs: ['system:masters'] });
    const cases: [string, TestClient, Record<string, string>][] = [
      ['unknown token', client({ token: 'not-a-token' }), {}],
      ['garbage JWT', client({ token: 'eyJhbGciOiJub25lIn0.e30.' }), {}],
      ['untrusted CA', client({ cert: untrusted.certPem, key: untrusted.keyPem }), {}],
      ['Basic scheme', s.anonymous, { Authorization: 'Basic YWRtaW46YWRtaW4=' }],
      ['empty bearer', s.anonymous, { Authorization: 'Bearer' }],
      ['two tokens', s.anonymous, { Authorization: 'Bearer a b' }],
      ['huge token', s.anonymous, { Authorization: `Bearer ${'a'.repeat(100_000)}` }],
    ];
    for (const [what, c, headers] of cases) {
      const r = await c.request('GET', '/api/v1/secrets', { headers });
      assert.equal(r.status, 401, what);
      assert.deepEqual(r.body, UNAUTHORIZED, what);
    }
    // Still serving.
    assert.equal((await s.client.get('/api/v1/namespaces/default')).status, 200);
    // The reasons are logged; the credentials are not.
    const logs = s.logs();
    assert.match(logs, /unable to authenticate the request/);
    for (const secret of ['not-a-token', 'eyJhbGciOiJub25lIn0', 'YWRtaW46YWRtaW4=', 'a'.repeat(64)]) {
      assert.ok(!logs.includes(secret), `the log holds ${secret.slice(0, 20)}…`);
    }
  });

  it('a valid client certificate is asked first and wins over a bad token on the same request', async () => {
    const pair = newClientCert(caA, { cn: 'alice', orgs: ['system:masters'] });
    const both = client({ cert: pair.certPem, key: pair.keyPem, token: 'wrong' });
    assert.equal((await both.get('/api/v1/namespaces/default')).status, 200);
  });
});
