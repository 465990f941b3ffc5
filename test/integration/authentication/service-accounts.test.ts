/**
 * Service-account tokens end to end on a real server: TokenRequest (audiences, expiration rules,
 * Pod and Secret binding), the tokens authenticating as the account, revocation by deletion or
 * re-creation, legacy token Secrets, TokenReview and SelfSubjectReview, and kubectl's `create token`
 * and `auth whoami` in --api-domain=k8s.io mode.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { newTestClient, type TestClient } from '../../support/http-client.js';
import { newKubectl } from '../../support/kubectl.js';
import { newTokenIssuer } from '../../../apiserver/authentication/service-account-issuer.js';

const ISSUER = 'https://orch.test';

function keyFiles(dir: string, type: 'rsa' | 'ec') {
  const pair =
    type === 'rsa'
      ? generateKeyPairSync('rsa', {
          modulusLength: 2048,
          privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
          publicKeyEncoding: { type: 'spki', format: 'pem' },
        })
      : generateKeyPairSync('ec', {
          namedCurve: 'P-256',
          privateKeyEncoding: { type: 'sec1', format: 'pem' },
          publicKeyEncoding: { type: 'spki', format: 'pem' },
        });
  writeFileSync(join(dir, `sa-${type}.key`), pair.privateKey);
  writeFileSync(join(dir, `sa-${type}.pub`), pair.publicKey);
  return { key: join(dir, `sa-${type}.key`), pub: join(dir, `sa-${type}.pub`), privatePem: pair.privateKey };
}

async function serverWithKeys(type: 'rsa' | 'ec', extra: string[] = []) {
  const dir = mkdtempSync(join(tmpdir(), 'orch-sa-'));
  const files = keyFiles(dir, type);
  const s = await startTestServer({
    args: [
      `--service-account-issuer=${ISSUER}`,
      `--service-account-signing-key-file=${files.key}`,
      `--service-account-key-file=${files.pub}`,
      ...extra,
    ],
  });
  return { s, files };
}

const SA = (ns: string, name = '') => `/api/v1/namespaces/${ns}/serviceaccounts${name ? `/${name}` : ''}`;
const tokenRequest = (spec: Record<string, unknown> = {}) => ({ apiVersion: 'authentication.orch.io/v1', kind: 'TokenRequest', spec });

describe('service-account tokens', () => {
  let s: TestServer;
  let privatePem: string;
  const clients: TestClient[] = [];
  const as = (token: string) => {
    const c = newTestClient({ url: s.url, ca: s.ca, token });
    clients.push(c);
    return c;
  };
  const whoami = async (token: string) => {
    const r = await as(token).post('/apis/authentication.orch.io/v1/selfsubjectreviews', {
      apiVersion: 'authentication.orch.io/v1',
      kind: 'SelfSubjectReview',
    });
    return r;
  };
  const mint = async (name: string, spec: Record<string, unknown> = {}) => {
    const r = await s.client.post(`${SA('default', name)}/token`, tokenRequest(spec));
    assert.equal(r.status, 201, r.text);
    return r.body;
  };

  before(async () => {
    const started = await serverWithKeys('rsa');
    s = started.s;
    privatePem = started.files.privatePem;
    assert.equal((await s.client.post(SA('default'), { metadata: { name: 'robot' } })).status, 201);
  });
  after(async () => {
    for (const c of clients) c.close();
    await s.stop();
  });

  it('TokenRequest answers a bound token that authenticates as the account', async () => {
    const before = Date.now();
    const answer = await mint('robot');
    assert.equal(answer.apiVersion, 'authentication.orch.io/v1');
    assert.equal(answer.kind, 'TokenRequest');
    assert.deepEqual(answer.spec, { audiences: [ISSUER], expirationSeconds: 3600 });
    const expires = Date.parse(answer.status.expirationTimestamp);
    assert.ok(Math.abs(expires - before - 3600_000) < 5000);
    const r = await whoami(answer.status.token);
    assert.equal(r.status, 201, r.text);
    const sa = (await s.client.get(SA('default', 'robot'))).body;
    assert.deepEqual(r.body.status.userInfo, {
      username: 'system:serviceaccount:default:robot',
      uid: sa.metadata.uid,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
    });
  });

  it('rejects bad TokenRequests with the right codes', async () => {
    const short = await s.client.post(`${SA('default', 'robot')}/token`, tokenRequest({ expirationSeconds: 599 }));
    assert.equal(short.status, 422);
    assert.match(short.body.message, /spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes/);
    assert.equal((await s.client.post(`${SA('default', 'ghost')}/token`, tokenRequest())).status, 404);
    const kind = await s.client.post(
      `${SA('default', 'robot')}/token`,
      tokenRequest({ boundObjectRef: { kind: 'ConfigMap', apiVersion: 'v1', name: 'x' } }),
    );
    assert.equal(kind.status, 422);
    assert.equal(
      (
        await s.client.post(
          `${SA('default', 'robot')}/token`,
          tokenRequest({ boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'nope' } }),
        )
      ).status,
      404,
    );
    assert.equal((await s.client.get(`${SA('default', 'robot')}/token`)).status, 405);
  });

  it('a token for another audience is refused by the API but passes a TokenReview for that audience', async () => {
    const { status } = await mint('robot', { audiences: ['vault'] });
    assert.equal((await whoami(status.token)).status, 401);
    const review = await s.client.post('/apis/authentication.orch.io/v1/tokenreviews', {
      apiVersion: 'authentication.orch.io/v1',
      kind: 'TokenReview',
      spec: { token: status.token, audiences: ['vault'] },
    });
    assert.equal(review.status, 201, review.text);
    assert.equal(review.body.status.authenticated, true);
    assert.equal(review.body.status.user.username, 'system:serviceaccount:default:robot');
    assert.deepEqual(review.body.status.user.groups, ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated']);
    assert.deepEqual(review.body.status.audiences, ['vault']);
    const bad = await s.client.post('/apis/authentication.orch.io/v1beta1/tokenreviews', {
      apiVersion: 'authentication.orch.io/v1beta1',
      kind: 'TokenReview',
      spec: { token: 'garbage' },
    });
    assert.equal(bad.status, 201);
    assert.equal(bad.body.apiVersion, 'authentication.orch.io/v1beta1');
    assert.equal(bad.body.status.authenticated, undefined);
  });

  it('a token bound to a Secret or Pod dies with it; a re-created account revokes old tokens', async () => {
    const secret = (await s.client.post('/api/v1/namespaces/default/secrets', { metadata: { name: 'binder' } })).body;
    const bound = await mint('robot', { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'binder' } });
    assert.equal(bound.spec.boundObjectRef.uid, secret.metadata.uid);
    assert.equal((await whoami(bound.status.token)).status, 201);
    assert.equal((await s.client.delete('/api/v1/namespaces/default/secrets/binder')).status, 200);
    await waitFor(async () => (await whoami(bound.status.token)).status === 401);

    const pod = await s.client.post('/api/v1/namespaces/default/pods', {
      metadata: { name: 'runner' },
      spec: { serviceAccountName: 'robot', containers: [{ name: 'c', image: 'busybox' }] },
    });
    assert.equal(pod.status, 201, pod.text);
    const podToken = await mint('robot', { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'runner' } });
    const me = await whoami(podToken.status.token);
    assert.deepEqual(me.body.status.userInfo.extra, {
      'authentication.orch.io/pod-name': ['runner'],
      'authentication.orch.io/pod-uid': [pod.body.metadata.uid],
    });

    const plain = await mint('robot');
    assert.equal((await s.client.delete(SA('default', 'robot'))).status, 200);
    await waitFor(async () => (await whoami(plain.status.token)).status === 401);
    assert.equal((await s.client.post(SA('default'), { metadata: { name: 'robot' } })).status, 201);
    // Same name, new uid: the old token stays refused.
    await new Promise((r) => setTimeout(r, 200));
    assert.equal((await whoami(plain.status.token)).status, 401);
    assert.equal((await whoami((await mint('robot')).status.token)).status, 201);
  });

  it('a legacy token Secret authenticates while the Secret holds it', async () => {
    const sa = (await s.client.get(SA('default', 'robot'))).body;
    const token = newTokenIssuer('unused', privatePem, 'test').legacy('default', { name: 'robot', uid: sa.metadata.uid }, 'robot-token');
    assert.equal((await whoami(token)).status, 401); // no such Secret yet
    const created = await s.client.post('/api/v1/namespaces/default/secrets', {
      metadata: {
        name: 'robot-token',
        annotations: { 'orch.io/service-account.name': 'robot', 'orch.io/service-account.uid': sa.metadata.uid },
      },
      type: 'orch.io/service-account-token',
      data: { token: Buffer.from(token).toString('base64') },
    });
    assert.equal(created.status, 201, created.text);
    await waitFor(async () => (await whoami(token)).status === 201);
    assert.equal((await whoami(token)).body.status.userInfo.username, 'system:serviceaccount:default:robot');
  });

  it('expired, forged and alg-none tokens are 401', async () => {
    const sa = (await s.client.get(SA('default', 'robot'))).body;
    const issuer = newTokenIssuer(ISSUER, privatePem, 'test');
    const now = Math.floor(Date.now() / 1000);
    const spec = { namespace: 'default', serviceAccount: { name: 'robot', uid: sa.metadata.uid }, audiences: [ISSUER] };
    const expired = issuer.bound({ ...spec, issuedAt: now - 7200, expiresAt: now - 3600 });
    const valid = issuer.bound({ ...spec, issuedAt: now, expiresAt: now + 3600 });
    const [h, p] = valid.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${p}.`;
    const other = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const forged = newTokenIssuer(ISSUER, other.privateKey, 'other').bound({ ...spec, issuedAt: now, expiresAt: now + 3600 });
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), sub: 'x' })).toString('base64url')}.${valid.split('.')[2]}`;
    const wrongIssuer = newTokenIssuer('https://elsewhere', privatePem, 'test').bound({ ...spec, issuedAt: now, expiresAt: now + 3600 });
    assert.equal((await whoami(valid)).status, 201);
    for (const [what, token] of Object.entries({ expired, none, forged, tampered, wrongIssuer })) {
      const r = await whoami(token);
      assert.equal(r.status, 401, what);
      assert.equal(r.body.reason, 'Unauthorized', what);
    }
  });
});

describe('service-account tokens with ECDSA keys and kubectl in k8s.io mode', () => {
  let s: TestServer;
  before(async () => {
    ({ s } = await serverWithKeys('ec', ['--api-domain=k8s.io', '--service-account-max-token-expiration=2h']));
  });
  after(() => s.stop());

  it('kubectl create token and auth whoami', async () => {
    const kubectl = newKubectl(s.kubeconfig);
    await kubectl.ok(['create', 'serviceaccount', 'builder']);
    const token = (await kubectl.ok(['create', 'token', 'builder', '--duration=10h'])).trim();
    const payload = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
    assert.equal(payload.exp - payload.iat, 7200); // capped by --service-account-max-token-expiration
    assert.equal(JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()).alg, 'ES256');
    const out = await kubectl.ok(['auth', 'whoami', '-o', 'json', '--token', token]);
    const review = JSON.parse(out);
    assert.equal(review.apiVersion, 'authentication.k8s.io/v1');
    assert.equal(review.status.userInfo.username, 'system:serviceaccount:default:builder');
    const admin = JSON.parse(await kubectl.ok(['auth', 'whoami', '-o', 'json']));
    assert.deepEqual(admin.status.userInfo, { username: 'admin', uid: 'admin', groups: ['system:masters', 'system:authenticated'] });
    const resources = await kubectl.ok(['api-resources', '--api-group=authentication.k8s.io', '-o', 'name']);
    assert.match(resources, /^selfsubjectreviews\.authentication\.k8s\.io$/m);
    assert.match(resources, /^tokenreviews\.authentication\.k8s\.io$/m);
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
