/**
 * The methods that trust something outside the server, over real TLS: the authenticating proxy
 * (request headers with a front-proxy client certificate), bootstrap-token Secrets, a token webhook
 * server and an OIDC issuer (discovery and JWKS over TLS, RS256 and ES256 keys).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ensureCA, newClientCert, type CertKeyFiles } from '../../../apiserver/component-base/certs/certs.js';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { newTestClient, type TestClient } from '../../support/http-client.js';
import { startIssuerServer, type IssuerServer } from './token-issuer-server.js';

const WHOAMI = '/apis/authentication.orch.io/v1/selfsubjectreviews';
const REVIEW = { apiVersion: 'authentication.orch.io/v1', kind: 'SelfSubjectReview' };

describe('authenticating proxy, bootstrap tokens, token webhook, OIDC', () => {
  let s: TestServer;
  let idp: IssuerServer;
  let front: CertKeyFiles;
  let users: CertKeyFiles;
  const clients: TestClient[] = [];
  const client = (config: { token?: string; cert?: string; key?: string }) => {
    const c = newTestClient({ url: s.url, ca: s.ca, ...config });
    clients.push(c);
    return c;
  };
  const whoami = async (c: TestClient, headers: Record<string, string> = {}) => c.request('POST', WHOAMI, { body: REVIEW, headers });
  const withToken = (token: string) => whoami(client({ token }));

  before(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-external-'));
    idp = await startIssuerServer();
    front = ensureCA(join(dir, 'front'));
    users = ensureCA(join(dir, 'users'));
    const webhookConfig = join(dir, 'webhook.yaml');
    writeFileSync(
      webhookConfig,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          {
            name: 'hook',
            cluster: { server: `${idp.url}/webhook`, 'certificate-authority-data': Buffer.from(idp.caPem).toString('base64') },
          },
        ],
        users: [{ name: 'orch', user: {} }],
        contexts: [{ name: 'hook', context: { cluster: 'hook', user: 'orch' } }],
        'current-context': 'hook',
      }),
    );
    const idpCA = join(dir, 'idp-ca.crt');
    writeFileSync(idpCA, idp.caPem);
    s = await startTestServer({
      args: [
        `--client-ca-file=${users.certFile}`,
        `--requestheader-client-ca-file=${front.certFile}`,
        '--requestheader-username-headers=X-Remote-User',
        '--requestheader-group-headers=X-Remote-Group',
        '--requestheader-extra-headers-prefix=X-Remote-Extra-',
        '--requestheader-allowed-names=front-proxy',
        '--enable-bootstrap-token-auth',
        `--authentication-token-webhook-config-file=${webhookConfig}`,
        '--authentication-token-webhook-version=v1',
        '--authentication-token-webhook-cache-ttl=1h',
        `--oidc-issuer-url=${idp.url}`,
        '--oidc-client-id=orch',
        `--oidc-ca-file=${idpCA}`,
        '--oidc-groups-claim=groups',
        '--oidc-groups-prefix=oidc:',
        '--oidc-required-claim=hd=example.com',
        '--oidc-signing-algs=RS256,ES256',
      ],
    });
  });
  after(async () => {
    for (const c of clients) c.close();
    await s.stop();
    await idp.close();
  });

  it('the front proxy asserts user, groups and extra in headers', async () => {
    const proxy = newClientCert(front, { cn: 'front-proxy' });
    const r = await whoami(client({ cert: proxy.certPem, key: proxy.keyPem }), {
      'X-Remote-User': 'jane',
      'X-Remote-Group': 'devs',
      'X-Remote-Extra-Acme.com%2FProject': 'p1',
    });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body.status.userInfo, {
      username: 'jane',
      groups: ['devs', 'system:authenticated'],
      extra: { 'acme.com/project': ['p1'] },
    });
  });

  it('headers are ignored from a user certificate and refused from a proxy CN not allowed', async () => {
    const user = newClientCert(users, { cn: 'mallory' });
    const r = await whoami(client({ cert: user.certPem, key: user.keyPem }), {
      'X-Remote-User': 'admin',
      'X-Remote-Group': 'system:masters',
    });
    assert.equal(r.status, 201);
    assert.deepEqual(r.body.status.userInfo, { username: 'mallory', groups: ['system:authenticated'] });
    const other = newClientCert(front, { cn: 'not-the-proxy' });
    assert.equal((await whoami(client({ cert: other.certPem, key: other.keyPem }), { 'X-Remote-User': 'admin' })).status, 401);
    assert.equal((await whoami(s.anonymous, { 'X-Remote-User': 'admin' })).status, 401);
  });

  it('bootstrap tokens authenticate through their Secret until it expires or forbids it', async () => {
    const secret = (id: string, data: Record<string, string>) =>
      s.client.post('/api/v1/namespaces/orch-system/secrets', {
        metadata: { name: `bootstrap-token-${id}` },
        type: 'bootstrap.orch.io/token',
        stringData: { 'token-id': id, 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true', ...data },
      });
    assert.equal((await secret('abcdef', { 'auth-extra-groups': 'system:bootstrappers:worker' })).status, 201);
    assert.equal((await secret('expird', { expiration: '2020-01-01T00:00:00Z' })).status, 201);
    assert.equal((await secret('nousag', { 'usage-bootstrap-authentication': 'false' })).status, 201);
    assert.equal((await secret('badgrp', { 'auth-extra-groups': 'admins' })).status, 201);
    let r = await withToken('abcdef.0123456789abcdef');
    for (let i = 0; i < 50 && r.status !== 201; i++) {
      await new Promise((res) => setTimeout(res, 50)); // the cache catches up with the create
      r = await withToken('abcdef.0123456789abcdef');
    }
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body.status.userInfo, {
      username: 'system:bootstrap:abcdef',
      groups: ['system:bootstrappers', 'system:bootstrappers:worker', 'system:authenticated'],
    });
    for (const token of [
      'abcdef.0123456789abcdee',
      'expird.0123456789abcdef',
      'nousag.0123456789abcdef',
      'badgrp.0123456789abcdef',
      'zzzzzz.0123456789abcdef',
    ]) {
      assert.equal((await withToken(token)).status, 401, token);
    }
  });

  it('the token webhook names users, its decisions are cached, its failures are 401', async () => {
    idp.reviews.set('hook-good', { user: { username: 'hooked', uid: 'h1', groups: ['hookers'], extra: { scope: ['a'] } } });
    idp.reviews.set('hook-bad', { error: 'revoked' });
    idp.reviews.set('hook-500', { httpStatus: 500 });
    const calls = idp.webhookCalls;
    const r = await withToken('hook-good');
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body.status.userInfo, {
      username: 'hooked',
      uid: 'h1',
      groups: ['hookers', 'system:authenticated'],
      extra: { scope: ['a'] },
    });
    assert.equal((await withToken('hook-good')).status, 201);
    assert.equal(idp.webhookCalls - calls, 1);
    assert.equal((await withToken('hook-bad')).status, 401);
    const failed = await withToken('hook-500');
    assert.equal(failed.status, 401);
    assert.equal(failed.body.message, 'Unauthorized');
  });

  it('OIDC ID tokens signed with RS256 or ES256 keys of the issuer', async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: idp.url, aud: 'orch', sub: 'alice', groups: ['dev'], hd: 'example.com', iat: now, exp: now + 600 };
    for (const key of idp.keys) {
      const r = await withToken(idp.sign(claims, key.kid));
      assert.equal(r.status, 201, `${key.alg}: ${r.text}`);
      assert.deepEqual(r.body.status.userInfo, { username: `${idp.url}#alice`, groups: ['oidc:dev', 'system:authenticated'] });
    }
    const bad: Record<string, string> = {
      'wrong audience': idp.sign({ ...claims, aud: 'other' }),
      expired: idp.sign({ ...claims, exp: now - 10 }),
      'missing required claim': idp.sign({ ...claims, hd: 'evil.com' }),
      'no username claim': idp.sign({ ...claims, sub: undefined }),
      'alg none': `${Buffer.from('{"alg":"none","kid":"rs256-1"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`,
      'unknown kid': (() => {
        const t = idp.sign(claims).split('.');
        return [Buffer.from('{"alg":"RS256","kid":"nope"}').toString('base64url'), t[1], t[2]].join('.');
      })(),
    };
    for (const [what, token] of Object.entries(bad)) assert.equal((await withToken(token)).status, 401, what);
  });
});
