/**
 * A signing CA (Kubernetes' authority.CertificateAuthority with the PermissiveSigningPolicy): it issues
 * an X.509 v3 certificate for a verified request — the request's subject, public key and
 * subjectAltNames, the asked usages as keyUsage/extKeyUsage, CA:false, the CA's key identifier — valid
 * from now − backdate until now + ttl (− backdate unless short-lived), cut at the CA's own expiry.
 * node-forge encodes the DER; node:crypto signs, so RSA, ECDSA and Ed25519 CA keys all work.
 */
import { createPrivateKey, sign, X509Certificate, type KeyObject } from 'node:crypto';
import forge from 'node-forge';
import type { CertificateRequest } from '../../apiserver/api/certificates/pkcs10.js';
import { randomSerialHex } from '../../apiserver/component-base/certs/certs.js';
import { keyUsagesFromStrings } from './key-usages.js';

const { asn1 } = forge;
const T = asn1.Type;
const U = asn1.Class.UNIVERSAL;
type Node = forge.asn1.Asn1;

export interface SigningPolicy {
  ttlMs: number;
  usages: readonly string[];
  /** NotBefore is this far in the past (5 minutes). */
  backdateMs: number;
  /** Certificates living less than this are not backdated at their end (8 hours). */
  shortMs: number;
  now: Date;
}

const oid = (dotted: string) => asn1.create(U, T.OID, false, asn1.oidToDer(dotted).getBytes());
const seq = (...parts: Node[]) => asn1.create(U, T.SEQUENCE, true, parts);
const octets = (bytes: string) => asn1.create(U, T.OCTETSTRING, false, bytes);
// forge's fromDer options object and bytesFromIP are typed in node-forge-extra.d.ts.
const fromDer = (der: Buffer) => asn1.fromDer(der.toString('binary'), { decodeBitStrings: false });
const toDer = (node: Node) => Buffer.from(asn1.toDer(node).getBytes(), 'binary');
const bin = (b: Buffer) => b.toString('binary');
/** A constructed node's children; the certificate was parsed by node:crypto first, so its structure holds. */
function kids(node: Node): Node[] {
  if (!Array.isArray(node.value)) throw new Error('the CA certificate is malformed: an ASN.1 node is not constructed');
  return node.value;
}

/** A primitive node's content bytes. */
function contents(node: Node): string {
  if (typeof node.value !== 'string') throw new Error('the CA certificate is malformed: an ASN.1 node is not primitive');
  return node.value;
}

/** UTCTime through 2049, GeneralizedTime after (RFC 5280). */
function time(date: Date): Node {
  return date.getUTCFullYear() < 2050
    ? asn1.create(U, T.UTCTIME, false, asn1.dateToUtcTime(date))
    : asn1.create(U, T.GENERALIZEDTIME, false, asn1.dateToGeneralizedTime(date));
}

function extension(id: string, critical: boolean, value: Node): Node {
  const parts = [oid(id)];
  if (critical) parts.push(asn1.create(U, T.BOOLEAN, false, '\xff'));
  return seq(...parts, octets(asn1.toDer(value).getBytes()));
}

/** KeyUsage as a minimal BIT STRING (bit 0 is the first byte's top bit). */
function keyUsageBits(bits: number[]): Node {
  const bytes = Buffer.alloc(bits.some((b) => b >= 8) ? 2 : 1);
  for (const b of bits) bytes[b >> 3] |= 0x80 >> (b & 7);
  let last = bytes.length - 1;
  while (last > 0 && bytes[last] === 0) last--;
  const used = bytes.subarray(0, last + 1);
  let unused = 0;
  while (unused < 7 && !(used[last] & (1 << unused))) unused++;
  return asn1.create(U, T.BITSTRING, false, String.fromCharCode(unused) + bin(used));
}

function subjectAltNames(req: CertificateRequest): Node | undefined {
  const ctx = (tag: number, value: string) => asn1.create(asn1.Class.CONTEXT_SPECIFIC, tag, false, value);
  const ipBytes = (ip: string) => {
    const bytes = forge.util.bytesFromIP(ip);
    // The request's parser read these as IP addresses, so forge knows them too.
    if (bytes === null) throw new Error(`the request's IP address ${ip} cannot be encoded`);
    return bytes;
  };
  const names = [
    ...req.dnsNames.map((n) => ctx(2, n)),
    ...req.emailAddresses.map((n) => ctx(1, n)),
    ...req.ipAddresses.map((n) => ctx(7, ipBytes(n))),
    ...req.uris.map((n) => ctx(6, n)),
  ];
  return names.length > 0 ? seq(...names) : undefined;
}

/** The signature algorithm a CA key signs with, and node:crypto's hash for it. */
function signatureAlgorithm(key: KeyObject): { id: Node; hash: string | null } {
  const type = key.asymmetricKeyType;
  if (type === 'rsa') return { id: seq(oid('1.2.840.113549.1.1.11'), asn1.create(U, T.NULL, false, '')), hash: 'sha256' };
  if (type === 'ed25519') return { id: seq(oid('1.3.101.112')), hash: null };
  if (type === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'secp384r1') return { id: seq(oid('1.2.840.10045.4.3.3')), hash: 'sha384' };
    if (curve === 'secp521r1') return { id: seq(oid('1.2.840.10045.4.3.4')), hash: 'sha512' };
    return { id: seq(oid('1.2.840.10045.4.3.2')), hash: 'sha256' };
  }
  throw new Error(`unsupported CA key type ${type}`);
}

export class CertificateAuthority {
  readonly certificate: X509Certificate;
  readonly privateKey: KeyObject;
  private readonly subject: Node;
  private readonly keyId?: string;
  readonly notAfter: Date;

  constructor(
    readonly certPem: string,
    keyPem: string,
  ) {
    this.certificate = new X509Certificate(certPem);
    this.privateKey = createPrivateKey(keyPem);
    if (!this.certificate.checkPrivateKey(this.privateKey)) throw new Error('the CA certificate does not match its private key');
    const tbs = kids(kids(fromDer(this.certificate.raw))[0]);
    const offset = tbs[0].tagClass === asn1.Class.CONTEXT_SPECIFIC ? 1 : 0;
    this.subject = tbs[4 + offset];
    this.notAfter = new Date(this.certificate.validTo);
    for (const ext of tbs
      .slice(6 + offset)
      .flatMap((n) => (n.tagClass === asn1.Class.CONTEXT_SPECIFIC && n.type === 3 ? kids(kids(n)[0]) : []))) {
      const parts = kids(ext);
      if (asn1.derToOid(contents(parts[0])) !== '2.5.29.14') continue;
      // extnValue holds an OCTET STRING: the key identifier.
      this.keyId = contents(fromDer(Buffer.from(contents(parts[parts.length - 1]), 'binary')));
    }
  }

  /** A PEM certificate for the (verified) request; throws when the CA has expired. */
  sign(req: CertificateRequest, policy: SigningPolicy): string {
    const now = policy.now.getTime();
    const notBefore = new Date(now - policy.backdateMs);
    let notAfter = new Date(policy.ttlMs < policy.shortMs ? now + policy.ttlMs : now + policy.ttlMs - policy.backdateMs);
    if (notAfter >= this.notAfter) notAfter = this.notAfter;
    if (notBefore >= this.notAfter) throw new Error(`the signer has expired: NotAfter=${this.notAfter.toISOString()}`);
    if (now >= this.notAfter.getTime())
      throw new Error(`refusing to sign a certificate that expired in the past: NotAfter=${this.notAfter.toISOString()}`);
    const { keyUsageBits: bits, extKeyUsageOids } = keyUsagesFromStrings(policy.usages);
    const extensions: Node[] = [];
    if (bits.length > 0) extensions.push(extension('2.5.29.15', true, keyUsageBits(bits)));
    if (extKeyUsageOids.length > 0) extensions.push(extension('2.5.29.37', false, seq(...extKeyUsageOids.map(oid))));
    extensions.push(extension('2.5.29.19', true, seq()));
    if (this.keyId) extensions.push(extension('2.5.29.35', false, seq(asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, false, this.keyId))));
    const san = subjectAltNames(req);
    if (san) extensions.push(extension('2.5.29.17', false, san));
    const serial = Buffer.from(randomSerialHex(), 'hex');
    const algorithm = signatureAlgorithm(this.privateKey);
    const requestSubject = kids(fromDer(req.info))[1];
    const tbs = seq(
      asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [asn1.create(U, T.INTEGER, false, '\x02')]),
      asn1.create(U, T.INTEGER, false, bin(serial)),
      algorithm.id,
      this.subject,
      seq(time(notBefore), time(notAfter)),
      requestSubject,
      fromDer(req.spki),
      asn1.create(asn1.Class.CONTEXT_SPECIFIC, 3, true, [seq(...extensions)]),
    );
    const signature = sign(algorithm.hash, toDer(tbs), this.privateKey);
    const cert = toDer(seq(tbs, algorithm.id, asn1.create(U, T.BITSTRING, false, `\x00${bin(signature)}`)));
    const lines = cert.toString('base64').match(/.{1,64}/g) ?? [];
    return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
  }
}
