/**
 * A small self-managed PKI: a CA, a serving certificate signed by it, and client certificates.
 * RSA keys come from node:crypto (fast); node-forge builds and signs the certificates.
 */
import { generateKeyPairSync, randomBytes, X509Certificate, createPrivateKey } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { isIP } from 'node:net';
import { join } from 'node:path';
import forge from 'node-forge';

/** A PEM certificate and its PEM private key. */
export interface CertKeyPair {
  certPem: string;
  keyPem: string;
}

/** A certificate and key as stored on disk. */
export interface CertKeyFiles extends CertKeyPair {
  certFile: string;
  keyFile: string;
}

/** Who a client certificate names: CN is the user, each O a group. */
export interface ClientCertSubject {
  cn: string;
  orgs?: string[];
}

const DAY_MS = 24 * 60 * 60 * 1000;
const CA_VALIDITY_MS = 10 * 365 * DAY_MS;
const LEAF_VALIDITY_MS = 365 * DAY_MS;
/** A stored serving certificate closer than this to expiry is replaced. */
const RENEW_BEFORE_MS = 30 * DAY_MS;

/** Hosts every serving certificate covers, besides the ones asked for. */
export function defaultServingHosts(): string[] {
  return ['localhost', '127.0.0.1', '::1', hostname()];
}

/** Loads <dir>/<base>.crt and .key (ca.crt, ca.key), creating a new self-signed CA there the first time. */
export function ensureCA(dir: string, base = 'ca'): CertKeyFiles {
  const certFile = join(dir, `${base}.crt`);
  const keyFile = join(dir, `${base}.key`);
  const haveCert = existsSync(certFile);
  if (haveCert !== existsSync(keyFile)) {
    throw new Error(
      `${haveCert ? keyFile : certFile} is missing while ${haveCert ? certFile : keyFile} exists; remove both to generate a new CA`,
    );
  }
  if (haveCert) return { certFile, keyFile, certPem: readFileSync(certFile, 'utf8'), keyPem: readFileSync(keyFile, 'utf8') };

  const key = newRsaKey();
  const subject = [utf8('commonName', `orch-ca@${Math.floor(Date.now() / 1000)}`)];
  const cert = newCertificate(key, subject, subject, CA_VALIDITY_MS, [
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', critical: true, keyCertSign: true, cRLSign: true, digitalSignature: true, keyEncipherment: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(key.forge, forge.md.sha256.create());
  return writePair(dir, base, { certPem: forge.pki.certificateToPem(cert), keyPem: key.pem });
}

/** `<dir>/<base>.crt` and `.key` when signed by `ca` for `subject` and not about to expire; otherwise issued anew. */
export function ensureClientCert(dir: string, base: string, ca: CertKeyPair, subject: ClientCertSubject): CertKeyFiles {
  const certFile = join(dir, `${base}.crt`);
  const keyFile = join(dir, `${base}.key`);
  if (existsSync(certFile) && existsSync(keyFile)) {
    const pair = { certFile, keyFile, certPem: readFileSync(certFile, 'utf8'), keyPem: readFileSync(keyFile, 'utf8') };
    try {
      const cert = new X509Certificate(pair.certPem);
      const wantSubject = [...(subject.orgs ?? []).map((o) => `O=${o}`), `CN=${subject.cn}`].join('\n');
      if (
        cert.verify(new X509Certificate(ca.certPem).publicKey) &&
        cert.checkPrivateKey(createPrivateKey(pair.keyPem)) &&
        cert.subject === wantSubject &&
        Date.parse(cert.validTo) - Date.now() > RENEW_BEFORE_MS
      ) {
        return pair;
      }
    } catch {
      // unreadable: issued anew below
    }
  }
  return writePair(dir, base, newClientCert(ca, subject));
}

/**
 * Loads <dir>/apiserver.crt and apiserver.key when they are signed by `ca`, match each other, are
 * not about to expire and cover every host; otherwise issues new ones. The certificate covers the
 * default hosts (localhost, 127.0.0.1, ::1, this machine's hostname) plus `hosts` (DNS names or IPs).
 */
export function ensureServingCert(dir: string, ca: CertKeyPair, hosts: string[]): CertKeyFiles {
  const certFile = join(dir, 'apiserver.crt');
  const keyFile = join(dir, 'apiserver.key');
  const all = [...new Set([...defaultServingHosts(), ...hosts])];
  if (existsSync(certFile) && existsSync(keyFile)) {
    const existing = { certFile, keyFile, certPem: readFileSync(certFile, 'utf8'), keyPem: readFileSync(keyFile, 'utf8') };
    if (servingCertUsable(existing, ca, all)) return existing;
  }
  const pair = issue(
    ca,
    [utf8('commonName', `orch-apiserver@${Math.floor(Date.now() / 1000)}`)],
    [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', critical: true, digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: all.map((h) => (isIP(h) ? { type: 7, ip: h } : { type: 2, value: h })) },
    ],
  );
  return writePair(dir, 'apiserver', pair);
}

/** Issues a client certificate signed by `ca` for user `cn` in groups `orgs`. */
export function newClientCert(ca: CertKeyPair, subject: ClientCertSubject): CertKeyPair {
  const attrs = [...(subject.orgs ?? []).map((o) => utf8('organizationName', o)), utf8('commonName', subject.cn)];
  return issue(ca, attrs, [
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', critical: true, digitalSignature: true, keyEncipherment: true },
    { name: 'extKeyUsage', clientAuth: true },
  ]);
}

function servingCertUsable(pair: CertKeyPair, ca: CertKeyPair, hosts: string[]): boolean {
  try {
    const cert = new X509Certificate(pair.certPem);
    const caCert = new X509Certificate(ca.certPem);
    if (!cert.checkIssued(caCert) || !cert.verify(caCert.publicKey)) return false;
    if (!cert.checkPrivateKey(createPrivateKey(pair.keyPem))) return false;
    if (Date.parse(cert.validTo) - Date.now() < RENEW_BEFORE_MS) return false;
    return hosts.every((h) => (isIP(h) ? cert.checkIP(h) !== undefined : cert.checkHost(h, { wildcards: false }) !== undefined));
  } catch {
    return false; // unreadable files are replaced
  }
}

interface RsaKey {
  pem: string;
  forge: forge.pki.rsa.PrivateKey;
  publicKey: forge.pki.rsa.PublicKey;
}

function newRsaKey(): RsaKey {
  const pem = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  }).privateKey;
  const key = forge.pki.privateKeyFromPem(pem);
  return { pem, forge: key, publicKey: forge.pki.setRsaPublicKey(key.n, key.e) };
}

type Attribute = { name?: string; type?: string; value: string; valueTagClass: number };

/**
 * A name attribute encoded as UTF8String (forge's default, PrintableString, cannot hold '@' and
 * strict parsers such as Go's reject the certificate).
 */
function utf8(name: string, value: string): Attribute {
  return { name, value, valueTagClass: forge.asn1.Type.UTF8 };
}

/** `cert`'s subject as attributes for another certificate's issuer, encoded the same way. */
function issuerOf(cert: forge.pki.Certificate): Attribute[] {
  // forge parses values as raw bytes but encodes UTF8String values from text: decode them first.
  return (cert.subject.attributes as Attribute[]).map((a) =>
    a.valueTagClass === forge.asn1.Type.UTF8 ? { ...a, value: forge.util.decodeUtf8(a.value) } : a,
  );
}

function newCertificate(
  key: RsaKey,
  subject: Attribute[],
  issuer: Attribute[],
  validityMs: number,
  extensions: object[],
): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = key.publicKey;
  cert.serialNumber = randomSerialHex();
  const now = Date.now();
  cert.validity.notBefore = new Date(now - 60 * 1000); // tolerate small clock skew
  cert.validity.notAfter = new Date(now + validityMs);
  cert.setSubject(subject);
  cert.setIssuer(issuer);
  cert.setExtensions(extensions);
  return cert;
}

/** A new key and a certificate for it, signed by `ca`. */
function issue(ca: CertKeyPair, subject: Attribute[], extensions: object[]): CertKeyPair {
  const caCert = forge.pki.certificateFromPem(ca.certPem);
  const caKey = forge.pki.privateKeyFromPem(ca.keyPem);
  const key = newRsaKey();
  // The authority key identifier must equal the CA's subject key identifier for chain building.
  const caKeyId = (caCert.getExtension('subjectKeyIdentifier') as { subjectKeyIdentifier?: string } | null)?.subjectKeyIdentifier;
  const cert = newCertificate(key, subject, issuerOf(caCert), LEAF_VALIDITY_MS, [
    ...extensions,
    { name: 'subjectKeyIdentifier' },
    ...(caKeyId ? [{ name: 'authorityKeyIdentifier', keyIdentifier: forge.util.hexToBytes(caKeyId) }] : []),
  ]);
  cert.sign(caKey, forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: key.pem };
}

function writePair(dir: string, base: string, pair: CertKeyPair): CertKeyFiles {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const certFile = join(dir, `${base}.crt`);
  const keyFile = join(dir, `${base}.key`);
  writeFileSync(keyFile, pair.keyPem, { mode: 0o600 });
  chmodSync(keyFile, 0o600); // the mode above applies only when the file is new
  writeFileSync(certFile, pair.certPem, { mode: 0o644 });
  return { certFile, keyFile, ...pair };
}

/**
 * A random positive 128-bit serial in DER's minimal form: forge writes the hex as the INTEGER's bytes, so
 * the first byte must be 0x01–0x7f — a leading 0x00 before a byte below 0x80 is "illegal padding" to
 * OpenSSL 3 (the node then refuses the certificate), a first byte of 0x80 or more is a negative number.
 */
export function randomSerialHex(): string {
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f || 0x01;
  return bytes.toString('hex');
}
