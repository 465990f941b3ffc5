import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import forge from 'node-forge';
import { parseCertificateRequestPem } from '../../../../apiserver/api/certificates/pkcs10.js';
import { ensureCA } from '../../../../apiserver/component-base/certs/certs.js';
import { CertificateAuthority, type SigningPolicy } from '../../../../controllers/csrsigning/certificate-authority.js';
import { keyUsagesFromStrings } from '../../../../controllers/csrsigning/key-usages.js';
import { newCsrPem, newKeyPair } from '../../../support/csr-fixture.js';

const HOUR = 3_600_000;
const now = new Date();
const policy = (over: Partial<SigningPolicy> = {}): SigningPolicy => ({
  ttlMs: 24 * HOUR,
  usages: ['digital signature', 'client auth'],
  backdateMs: 5 * 60_000,
  shortMs: 8 * HOUR,
  now,
  ...over,
});

/** The certificate's text as openssl prints it (an independent reader of the DER). */
const opensslText = (pem: string) => execFileSync('openssl', ['x509', '-noout', '-text'], { input: pem }).toString();

describe('CertificateAuthority', () => {
  let dir: string;
  let ca: CertificateAuthority;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-ca-'));
    const files = ensureCA(dir);
    ca = new CertificateAuthority(files.certPem, files.keyPem);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  for (const type of ['rsa', 'ec', 'ec384', 'ed25519'] as const) {
    it(`issues a certificate for a ${type} request, signed by the CA, with the request's subject and key`, () => {
      const keys = newKeyPair(type);
      const req = parseCertificateRequestPem(newCsrPem({ type, keys, cn: 'system:node:n1', orgs: ['system:nodes'] }));
      const cert = new X509Certificate(ca.sign(req, policy()));
      assert.ok(cert.verify(ca.certificate.publicKey));
      assert.ok(cert.checkIssued(ca.certificate));
      assert.equal(cert.subject, 'O=system:nodes\nCN=system:node:n1');
      assert.ok(cert.publicKey.equals(keys.publicKey));
      assert.equal(cert.ca, false);
      assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.2']);
    });
  }

  it('sets the usages, CA:false, the authority key id and the SANs as openssl reads them', () => {
    const req = parseCertificateRequestPem(
      newCsrPem({ cn: 'system:node:n1', orgs: ['system:nodes'], dnsNames: ['n1.example'], ipAddresses: ['10.1.2.3', 'fd00::1'] }),
    );
    const pem = ca.sign(req, policy({ usages: ['digital signature', 'key encipherment', 'server auth'] }));
    const text = opensslText(pem);
    assert.match(text, /X509v3 Key Usage: critical\n\s+Digital Signature, Key Encipherment/);
    assert.match(text, /X509v3 Extended Key Usage: \n\s+TLS Web Server Authentication/);
    assert.match(text, /X509v3 Basic Constraints: critical\n\s+CA:FALSE/);
    assert.match(text, /X509v3 Authority Key Identifier: \n/);
    assert.match(text, /DNS:n1\.example, IP Address:10\.1\.2\.3, IP Address:FD00:0:0:0:0:0:0:1/);
    const authorityKeyId = forge.pki.certificateFromPem(ca.certPem).getExtension('subjectKeyIdentifier') as {
      subjectKeyIdentifier: string;
    };
    assert.match(text.toLowerCase(), new RegExp(authorityKeyId.subjectKeyIdentifier.match(/../g)!.join(':')));
  });

  it('is valid from now − 5 minutes for the ttl (end backdated unless short-lived), never past the CA', () => {
    const req = parseCertificateRequestPem(newCsrPem());
    const long = new X509Certificate(ca.sign(req, policy({ ttlMs: 24 * HOUR })));
    const second = (d: number) => Math.floor(d / 1000) * 1000;
    assert.equal(Date.parse(long.validFrom), second(now.getTime() - 5 * 60_000));
    assert.equal(Date.parse(long.validTo), second(now.getTime() + 24 * HOUR - 5 * 60_000));
    const short = new X509Certificate(ca.sign(req, policy({ ttlMs: HOUR })));
    assert.equal(Date.parse(short.validTo), second(now.getTime() + HOUR));
    const capped = new X509Certificate(ca.sign(req, policy({ ttlMs: 100 * 365 * 24 * HOUR })));
    assert.equal(capped.validTo, ca.certificate.validTo);
  });

  it('refuses to sign once the CA has expired', () => {
    const req = parseCertificateRequestPem(newCsrPem());
    assert.throws(() => ca.sign(req, policy({ now: new Date(ca.notAfter.getTime() + HOUR) })), /the signer has expired/);
  });

  it('refuses a key that does not match the certificate', () => {
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    assert.throws(() => new CertificateAuthority(ca.certPem, other), /does not match/);
  });
});

describe('keyUsagesFromStrings', () => {
  it('maps usages to key usage bits and extended usages in Go order', () => {
    assert.deepEqual(keyUsagesFromStrings(['client auth', 'signing', 'digital signature', 's/mime', 'server auth', 'decipher only']), {
      keyUsageBits: [0, 8],
      extKeyUsageOids: ['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2', '1.3.6.1.5.5.7.3.4'],
    });
    assert.throws(() => keyUsagesFromStrings(['client auth', 'flying']), /unrecognized usage values: \["flying"\]/);
  });
});
