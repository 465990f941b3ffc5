/**
 * The `authn` scenario: what authenticating one request costs, in process, through the same request
 * authenticator the server builds (client certificates, bearer tokens, anonymous last): a client
 * certificate (chain verified per request), a static token, and a service-account JWT — repeated
 * (its signature verified once, then remembered) and fresh (a new token each time: a signature
 * check per request). No HTTP, so the numbers are authentication alone.
 */
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiObject } from '../../apiserver/api/object.js';
import { ensureCA, newClientCert } from '../../apiserver/component-base/certs/certs.js';
import type { RequestAuthenticator } from '../../apiserver/authentication/interfaces.js';
import { newAuthenticator } from '../../apiserver/authentication/new-authenticator.js';
import { parsePublicKeys } from '../../apiserver/authentication/service-account-keys.js';
import { newServiceAccountAuthenticator } from '../../apiserver/authentication/service-account-token.js';
import { newTokenIssuer } from '../../apiserver/authentication/service-account-issuer.js';
import { newTokenFileAuthenticator } from '../../apiserver/authentication/token-file.js';
import { percentile, round } from './stats.js';
import type { ScenarioResult } from './workload.js';

const ISSUER = 'https://bench.orch';

export async function runAuthn(seconds: number): Promise<ScenarioResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-bench-authn-'));
  try {
    const ca = ensureCA(dir);
    const client = newClientCert(ca, { cn: 'bench', orgs: ['system:masters'] });
    const tokensFile = join(dir, 'tokens.csv');
    writeFileSync(tokensFile, 'static-bench-token,bench,bench,"system:masters"\n');
    const { privateKey, publicKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const account: ApiObject = { metadata: { name: 'bench', namespace: 'default', uid: 'bench-uid' } };
    const serviceAccounts = newServiceAccountAuthenticator({
      issuers: [ISSUER],
      keys: parsePublicKeys(publicKey, 'bench.pub'),
      apiAudiences: [ISSUER],
      lookup: true,
      getObject: async (resource, _ns, name) => (resource === 'serviceaccounts' && name === 'bench' ? account : null),
      extraPrefix: 'authentication.orch.io',
    });
    const authn = newAuthenticator({
      clientCA: ca.certPem,
      tokenAuthenticators: [newTokenFileAuthenticator(tokensFile), serviceAccounts],
      anonymous: false,
    });
    const issuer = newTokenIssuer(ISSUER, privateKey, 'bench.key');
    const now = Math.floor(Date.now() / 1000);
    const saToken = (i: number) =>
      issuer.bound({
        namespace: 'default',
        serviceAccount: { name: 'bench', uid: 'bench-uid' },
        audiences: [ISSUER],
        issuedAt: now - i,
        expiresAt: now + 3600,
      });

    const raw = new X509Certificate(client.certPem).raw;
    // Stand-in requests with only what the authenticators read (headers, the peer certificate).
    const withCert = {
      headers: {},
      socket: { getPeerCertificate: () => ({ raw, subject: { CN: 'bench', O: 'system:masters' } }) },
    } as unknown as IncomingMessage;
    // As withCert: only the Authorization header is read.
    const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` }, socket: {} }) as unknown as IncomingMessage;
    const repeated = saToken(0);
    // Fresh tokens are signed beforehand, so only verification is timed.
    const fresh = Array.from({ length: 2000 }, (_, i) => saToken(i + 1));

    const results: ScenarioResult[] = [];
    results.push(await measure('authn-client-cert', authn, () => withCert, seconds));
    results.push(await measure('authn-static-token', authn, () => bearer('static-bench-token'), seconds));
    const checks0 = serviceAccounts.signatureChecks();
    const cached = await measure('authn-sa-jwt-cached', authn, () => bearer(repeated), seconds);
    cached.signatureChecks = serviceAccounts.signatureChecks() - checks0;
    results.push(cached);
    const checks1 = serviceAccounts.signatureChecks();
    let next = 0;
    const uncached = await measure('authn-sa-jwt-fresh', authn, () => bearer(fresh[next++ % fresh.length]), seconds, fresh.length);
    uncached.signatureChecks = serviceAccounts.signatureChecks() - checks1;
    results.push(uncached);
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Authenticates requests one after another for `seconds` (at most `max`); rate, p50/p99 and µs per request. */
async function measure(
  scenario: string,
  authn: RequestAuthenticator,
  request: () => IncomingMessage,
  seconds: number,
  max = Number.POSITIVE_INFINITY,
): Promise<ScenarioResult> {
  for (let i = 0; i < 200 && i < max / 10; i++) await authn.authenticate(request()); // warm up
  const samples: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  const t0 = performance.now();
  while (performance.now() < deadline && samples.length < max) {
    const start = performance.now();
    const user = await authn.authenticate(request());
    samples.push(performance.now() - start);
    if (!user) throw new Error(`${scenario}: the request was not authenticated`);
  }
  const elapsed = (performance.now() - t0) / 1000;
  const total = samples.reduce((a, b) => a + b, 0);
  return {
    scenario,
    rate: round(samples.length / elapsed),
    p50Ms: round(percentile(samples, 50)),
    p99Ms: round(percentile(samples, 99)),
    usPerOp: round((total / samples.length) * 1000),
    requests: samples.length,
  };
}
