import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { AuthenticationError } from '../../../apiserver/authentication/interfaces.js';
import { newOidcAuthenticator, type OidcConfig } from '../../../apiserver/authentication/oidc.js';
import { startIssuerServer, type IssuerServer } from './token-issuer-server.js';

let idp: IssuerServer;
before(async () => {
  idp = await startIssuerServer();
});
after(() => idp.close());

const config = (extra: Partial<OidcConfig> = {}): OidcConfig => ({
  issuerURL: idp.url,
  clientID: 'orch',
  ca: idp.caPem,
  usernameClaim: 'sub',
  requiredClaims: {},
  signingAlgs: ['RS256', 'ES256'],
  refreshMinMs: 0,
  ...extra,
});
const claims = (extra: Record<string, unknown> = {}) => {
  const now = Math.floor(Date.now() / 1000);
  return { iss: idp.url, aud: ['orch', 'other'], sub: 'alice', iat: now, exp: now + 600, ...extra };
};

test('keys are fetched once, and again when a token names a new key', async () => {
  const authn = newOidcAuthenticator(config());
  const fetches = idp.jwksFetches;
  assert.equal((await authn.authenticateToken(idp.sign(claims())))?.name, `${idp.url}#alice`);
  assert.equal((await authn.authenticateToken(idp.sign(claims())))?.name, `${idp.url}#alice`);
  assert.equal(idp.jwksFetches - fetches, 1);
  const rotated = idp.addKey('ES256');
  assert.equal((await authn.authenticateToken(idp.sign(claims(), rotated.kid)))?.name, `${idp.url}#alice`);
  assert.equal(idp.jwksFetches - fetches, 2);
});

test('username prefixes: issuer# by default, none for email, "-" for none, or the given one', async () => {
  const email = claims({ email: 'a@example.com', email_verified: true });
  assert.equal((await newOidcAuthenticator(config({ usernameClaim: 'email' })).authenticateToken(idp.sign(email)))?.name, 'a@example.com');
  assert.equal((await newOidcAuthenticator(config({ usernamePrefix: '-' })).authenticateToken(idp.sign(claims())))?.name, 'alice');
  assert.equal((await newOidcAuthenticator(config({ usernamePrefix: 'oidc:' })).authenticateToken(idp.sign(claims())))?.name, 'oidc:alice');
  await assert.rejects(
    newOidcAuthenticator(config({ usernameClaim: 'email' })).authenticateToken(
      idp.sign(claims({ email: 'a@example.com', email_verified: false })),
    ),
    (e: unknown) => e instanceof AuthenticationError && e.message === 'oidc: email not verified',
  );
});

test('tokens of other issuers are not OIDC tokens; an unreachable issuer is a rejection', async () => {
  assert.equal(await newOidcAuthenticator(config()).authenticateToken(idp.sign(claims({ iss: 'https://elsewhere' }))), null);
  const unreachable = newOidcAuthenticator(config({ issuerURL: 'https://127.0.0.1:1' }));
  await assert.rejects(unreachable.authenticateToken(idp.sign(claims({ iss: 'https://127.0.0.1:1' }))), /issuer keys unavailable/);
});
