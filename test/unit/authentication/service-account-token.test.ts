import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import type { ApiObject } from '../../../apiserver/api/object.js';
import { AuthenticationError, type ObjectGetter } from '../../../apiserver/authentication/interfaces.js';
import { parsePublicKeys } from '../../../apiserver/authentication/service-account-keys.js';
import { parseSigningKey } from '../../../apiserver/api/serviceaccount/signing-key.js';
import { newTokenIssuer } from '../../../apiserver/authentication/service-account-issuer.js';
import { newServiceAccountAuthenticator } from '../../../apiserver/authentication/service-account-token.js';

const ISSUER = 'https://issuer.test';
const rsa = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const ec = generateKeyPairSync('ec', {
  namedCurve: 'P-384',
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});

const objects = new Map<string, ApiObject>([
  ['serviceaccounts/ns/bot', { metadata: { name: 'bot', namespace: 'ns', uid: 'sa-uid' } }],
  ['secrets/ns/bot-token', { metadata: { name: 'bot-token', namespace: 'ns', uid: 's-uid' }, data: {} }],
]);
let lookups = 0;
const getObject: ObjectGetter = async (resource, namespace, name) => {
  lookups++;
  return objects.get(`${resource}/${namespace}/${name}`) ?? null;
};

function authenticator(lookup = true) {
  return newServiceAccountAuthenticator({
    issuers: [ISSUER],
    keys: [...parsePublicKeys(rsa.publicKey, 'rsa.pub'), ...parsePublicKeys(ec.privateKey, 'ec.key')],
    apiAudiences: [ISSUER],
    lookup,
    getObject,
    extraPrefix: 'authentication.kubernetes.io',
  });
}

const now = () => Math.floor(Date.now() / 1000);
const spec = { namespace: 'ns', serviceAccount: { name: 'bot', uid: 'sa-uid' }, audiences: [ISSUER] };
const rejects = (p: Promise<unknown>, message: RegExp) =>
  assert.rejects(p, (e: unknown) => e instanceof AuthenticationError && message.test(e.message));

test('keys: RSA and ECDSA, public or private PEM; the key id is that of the public key', () => {
  const [fromPublic] = parsePublicKeys(rsa.publicKey, 'a');
  assert.equal(fromPublic.algorithm, 'RS256');
  assert.equal(parseSigningKey(rsa.privateKey, 'b').kid, fromPublic.kid);
  assert.equal(parsePublicKeys(ec.privateKey, 'c')[0].algorithm, 'ES384');
  assert.equal(parsePublicKeys(rsa.publicKey + ec.publicKey, 'd').length, 2);
  assert.throws(() => parsePublicKeys('nothing', 'e.pem'), /e.pem: no RSA or ECDSA key found/);
});

test('a repeated token is verified once; the account is looked up every time', async () => {
  const authn = authenticator();
  const token = newTokenIssuer(ISSUER, rsa.privateKey, 'k').bound({ ...spec, issuedAt: now(), expiresAt: now() + 600 });
  const before = lookups;
  for (let i = 0; i < 5; i++) {
    assert.deepEqual(await authn.authenticateToken(token), {
      name: 'system:serviceaccount:ns:bot',
      uid: 'sa-uid',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'],
    });
  }
  assert.equal(authn.signatureChecks(), 1);
  assert.equal(lookups - before, 5);
});

test('ECDSA tokens verify; tokens of other issuers or not JWTs are not this authenticator’s', async () => {
  const authn = authenticator();
  const token = newTokenIssuer(ISSUER, ec.privateKey, 'k').bound({ ...spec, issuedAt: now(), expiresAt: now() + 600 });
  assert.equal((await authn.authenticateToken(token))?.name, 'system:serviceaccount:ns:bot');
  assert.equal(
    await authn.authenticateToken(
      newTokenIssuer('https://other', ec.privateKey, 'k').bound({ ...spec, issuedAt: now(), expiresAt: now() + 600 }),
    ),
    null,
  );
  assert.equal(await authn.authenticateToken('abc'), null);
  assert.equal(await authn.authenticateToken('a.b.c'), null);
});

test('bad tokens are rejected with a reason that never holds the token', async () => {
  const authn = authenticator();
  const issuer = newTokenIssuer(ISSUER, rsa.privateKey, 'k');
  const expired = issuer.bound({ ...spec, issuedAt: now() - 1200, expiresAt: now() - 600 });
  await rejects(authn.authenticateToken(expired), /has expired/);
  await rejects(
    authn.authenticateToken(issuer.bound({ ...spec, audiences: ['other'], issuedAt: now(), expiresAt: now() + 600 })),
    /audiences \["other"\] are invalid/,
  );
  const hs = `${Buffer.from('{"alg":"HS256"}').toString('base64url')}.${Buffer.from(JSON.stringify({ iss: ISSUER })).toString('base64url')}.x`;
  await rejects(authn.authenticateToken(hs), /unsupported signing algorithm "HS256"/);
  const unknownKey = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const forged = newTokenIssuer(ISSUER, unknownKey.privateKey, 'k').bound({ ...spec, issuedAt: now(), expiresAt: now() + 600 });
  await rejects(authn.authenticateToken(forged), /invalid signature/);
  for (const token of [expired, forged]) {
    await assert.rejects(authn.authenticateToken(token), (e: Error) => !e.message.includes(token.split('.')[2]));
  }
  const ghost = issuer.bound({ ...spec, serviceAccount: { name: 'ghost', uid: 'u' }, issuedAt: now(), expiresAt: now() + 600 });
  await rejects(authn.authenticateToken(ghost), /service account ns\/ghost has been deleted/);
  const recreated = issuer.bound({ ...spec, serviceAccount: { name: 'bot', uid: 'old-uid' }, issuedAt: now(), expiresAt: now() + 600 });
  await rejects(authn.authenticateToken(recreated), /uid \(sa-uid\) does not match the token's \(old-uid\)/);
});

test('legacy tokens: checked against their Secret only under --service-account-lookup', async () => {
  const token = newTokenIssuer('ignored', rsa.privateKey, 'k').legacy('ns', { name: 'bot', uid: 'sa-uid' }, 'bot-token');
  await rejects(authenticator(true).authenticateToken(token), /secret ns\/bot-token: token does not match/);
  assert.equal((await authenticator(false).authenticateToken(token))?.name, 'system:serviceaccount:ns:bot');
});

test('legacy tokens in use label their Secret with the day, at most once a day', async () => {
  const token = newTokenIssuer('ignored', rsa.privateKey, 'k').legacy('ns', { name: 'bot', uid: 'sa-uid' }, 'used-token');
  const secret: ApiObject = {
    metadata: { name: 'used-token', namespace: 'ns', uid: 'used-uid' },
    data: { token: Buffer.from(token).toString('base64') },
  };
  objects.set('secrets/ns/used-token', secret);
  const writes: [string, string, string, Record<string, string>][] = [];
  let clock = Date.parse('2026-03-04T23:59:00Z');
  const authn = newServiceAccountAuthenticator({
    issuers: [ISSUER],
    keys: parsePublicKeys(rsa.publicKey, 'rsa.pub'),
    apiAudiences: [ISSUER],
    lookup: true,
    getObject,
    extraPrefix: 'authentication.kubernetes.io',
    legacyTokenTracking: {
      label: 'kubernetes.io/legacy-token-last-used',
      setLabels: async (namespace, name, uid, labels) => {
        writes.push([namespace, name, uid, labels]);
        secret.metadata.labels = { ...secret.metadata.labels, ...labels };
      },
    },
    now: () => clock,
  });
  assert.equal((await authn.authenticateToken(token))?.name, 'system:serviceaccount:ns:bot');
  await authn.authenticateToken(token);
  assert.deepEqual(writes, [['ns', 'used-token', 'used-uid', { 'kubernetes.io/legacy-token-last-used': '2026-03-04' }]]);
  clock += 2 * 60_000;
  await authn.authenticateToken(token);
  assert.equal(writes.length, 2, 'a new day');
  assert.deepEqual(writes[1][3], { 'kubernetes.io/legacy-token-last-used': '2026-03-05' });
  secret.metadata.labels = { 'kubernetes.io/legacy-token-last-used': '2026-03-06' };
  await authn.authenticateToken(token);
  assert.equal(writes.length, 2, "tomorrow's date (a clock ahead) is left alone");
  objects.delete('secrets/ns/used-token');
});
