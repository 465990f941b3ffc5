import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { createServer, request, type Server } from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import forge from 'node-forge';
import { ensureCA, ensureServingCert, newClientCert, type CertKeyPair } from '../../../apiserver/component-base/certs/certs.js';
import { newX509Authenticator } from '../../../apiserver/authentication/x509.js';
import { AuthenticationError } from '../../../apiserver/authentication/interfaces.js';

let dir: string;
let ca: CertKeyPair;
let server: Server;
/** What the test server authenticates with (some tests swap it). */
let authn: ReturnType<typeof newX509Authenticator>;
let port: number;

/** Starts an HTTPS server that asks for client certificates and reports what the authenticator says. */
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'orch-x509-'));
  ca = ensureCA(join(dir, 'trusted'));
  const serving = ensureServingCert(join(dir, 'trusted'), ca, []);
  authn = newX509Authenticator(ca.certPem);
  server = createServer({ cert: serving.certPem, key: serving.keyPem, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    authn.authenticate(req).then(
      (user) => res.end(JSON.stringify({ user })),
      (err: Error) => res.end(JSON.stringify({ error: err.message, authError: err instanceof AuthenticationError })),
    );
  });
  return new Promise<void>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      port = (server.address() as AddressInfo).port;
      resolve();
    }),
  );
});

after(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

function call(client?: { cert: string; key: string }): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', ca: ca.certPem, ...client }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve(JSON.parse(body)));
    });
    req.on('error', reject);
    req.end();
  });
}

/** An intermediate CA signed by `parent`, built with forge (certs.ts only issues leaves). */
function intermediateCA(parent: CertKeyPair): CertKeyPair {
  const keyPem = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  }).privateKey;
  const key = forge.pki.privateKeyFromPem(keyPem);
  const parentCert = forge.pki.certificateFromPem(parent.certPem);
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = '0a';
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 86_400_000);
  cert.setSubject([{ name: 'commonName', value: 'orch-intermediate' }]);
  cert.setIssuer(parentCert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(parent.keyPem), forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem };
}

test("no client certificate: not this authenticator's credential", async () => {
  assert.deepEqual(await call(), { user: null });
});

test('a certificate signed by the CA names the user (CN) and groups (O)', async () => {
  const client = newClientCert(ca, { cn: 'alice', orgs: ['dev', 'system:masters'] });
  assert.deepEqual(await call({ cert: client.certPem, key: client.keyPem }), {
    user: { name: 'alice', groups: ['dev', 'system:masters'] },
  });
});

test('a certificate without organizations has no groups', async () => {
  const client = newClientCert(ca, { cn: 'bob' });
  assert.deepEqual(await call({ cert: client.certPem, key: client.keyPem }), { user: { name: 'bob', groups: [] } });
});

test('a certificate from another CA is rejected', async () => {
  const otherCA = ensureCA(join(dir, 'other'));
  const client = newClientCert(otherCA, { cn: 'mallory', orgs: ['system:masters'] });
  const answer = await call({ cert: client.certPem, key: client.keyPem });
  assert.equal(answer.authError, true);
  assert.match(
    String(answer.error),
    /^verifying certificate "O=system:masters,CN=mallory" \[serial number=[0-9A-F]+\] failed: x509: certificate signed by unknown authority$/,
  );
});

test('a chain through an intermediate the client sends is accepted', async () => {
  const intermediate = intermediateCA(ca);
  const client = newClientCert(intermediate, { cn: 'carol', orgs: ['ops'] });
  assert.deepEqual(await call({ cert: client.certPem + intermediate.certPem, key: client.keyPem }), {
    user: { name: 'carol', groups: ['ops'] },
  });
  const withoutIntermediate = await call({ cert: client.certPem, key: client.keyPem });
  assert.equal(withoutIntermediate.authError, true);
});

test('a bundle of several CAs accepts certificates of each of them', async () => {
  const second = ensureCA(join(dir, 'second'));
  const saved = authn;
  authn = newX509Authenticator(second.certPem + ca.certPem);
  try {
    for (const [issuer, cn] of [
      [ca, 'from-first'],
      [second, 'from-second'],
    ] as const) {
      const client = newClientCert(issuer, { cn, orgs: ['g'] });
      assert.deepEqual(await call({ cert: client.certPem, key: client.keyPem }), { user: { name: cn, groups: ['g'] } });
    }
    const third = newClientCert(ensureCA(join(dir, 'third')), { cn: 'x' });
    assert.equal((await call({ cert: third.certPem, key: third.keyPem })).authError, true);
  } finally {
    authn = saved;
  }
});

test('a user or group name with control characters is rejected, escaped in the message', async () => {
  const client = newClientCert(ca, { cn: 'eve\nadmin', orgs: ['ok'] });
  const answer = await call({ cert: client.certPem, key: client.keyPem });
  assert.equal(answer.authError, true);
  assert.match(String(answer.error), /CN=eve\\0Aadmin.*control characters$/);
  const group = newClientCert(ca, { cn: 'eve', orgs: ['a\u0007b'] });
  assert.equal((await call({ cert: group.certPem, key: group.keyPem })).authError, true);
});

test('a plain HTTP request has no certificate', async () => {
  const authn = newX509Authenticator(ca.certPem);
  assert.equal(await authn.authenticate({ socket: {} } as never), null);
});

test('the CA bundle must hold a certificate', () => {
  assert.throws(() => newX509Authenticator('not a pem'), /no certificate/);
});
