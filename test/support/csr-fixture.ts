/**
 * PKCS#10 certificate requests for tests, built with node-forge's ASN.1 encoder and signed by
 * node:crypto keys: RSA (sha256WithRSAEncryption), RSA-PSS (SHA-256, MGF1, salt 32), ECDSA P-256 and
 * P-384 and Ed25519; with a subject (CN, O), subjectAltNames and optionally a broken signature.
 */
import { constants, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';
import forge from 'node-forge';

const { asn1 } = forge;
const T = asn1.Type;
const U = asn1.Class.UNIVERSAL;

export type CsrKeyType = 'rsa' | 'rsa-pss' | 'ec' | 'ec384' | 'ed25519';

export interface CsrOptions {
  type?: CsrKeyType;
  cn?: string;
  orgs?: string[];
  dnsNames?: string[];
  ipAddresses?: string[];
  emailAddresses?: string[];
  uris?: string[];
  /** Changes a byte of the signed content after signing. */
  tamper?: boolean;
  /** Use this key pair instead of a new one. */
  keys?: { publicKey: KeyObject; privateKey: KeyObject };
}

const oid = (dotted: string) => asn1.create(U, T.OID, false, asn1.oidToDer(dotted).getBytes());
const seq = (...parts: forge.asn1.Asn1[]) => asn1.create(U, T.SEQUENCE, true, parts);
const utf8 = (s: string) => asn1.create(U, T.UTF8, false, forge.util.encodeUtf8(s));
const bin = (b: Buffer) => b.toString('binary');
const der = (node: forge.asn1.Asn1) => Buffer.from(asn1.toDer(node).getBytes(), 'binary');
const ctx = (tag: number, constructed: boolean, value: string | forge.asn1.Asn1[]) =>
  asn1.create(asn1.Class.CONTEXT_SPECIFIC, tag, constructed, value);

const SHA256 = seq(oid('2.16.840.1.101.3.4.2.1'));
const PSS_PARAMS = seq(
  ctx(0, true, [SHA256]),
  ctx(1, true, [seq(oid('1.2.840.113549.1.1.8'), SHA256)]),
  ctx(2, true, [asn1.create(U, T.INTEGER, false, String.fromCharCode(32))]),
);

const ALGORITHMS: Record<CsrKeyType, { algorithm: forge.asn1.Asn1; hash: string | null }> = {
  rsa: { algorithm: seq(oid('1.2.840.113549.1.1.11'), asn1.create(U, T.NULL, false, '')), hash: 'sha256' },
  'rsa-pss': { algorithm: seq(oid('1.2.840.113549.1.1.10'), PSS_PARAMS), hash: 'sha256' },
  ec: { algorithm: seq(oid('1.2.840.10045.4.3.2')), hash: 'sha256' },
  ec384: { algorithm: seq(oid('1.2.840.10045.4.3.3')), hash: 'sha384' },
  ed25519: { algorithm: seq(oid('1.3.101.112')), hash: null },
};

export function newKeyPair(type: CsrKeyType): { publicKey: KeyObject; privateKey: KeyObject } {
  if (type === 'rsa' || type === 'rsa-pss') return generateKeyPairSync('rsa', { modulusLength: 2048 });
  if (type === 'ec') return generateKeyPairSync('ec', { namedCurve: 'P-256' });
  if (type === 'ec384') return generateKeyPairSync('ec', { namedCurve: 'P-384' });
  return generateKeyPairSync('ed25519');
}

function ipBytes(ip: string): string {
  if (isIP(ip) === 4) return bin(Buffer.from(ip.split('.').map(Number)));
  return forge.util.hexToBytes(
    ip
      .replace('::', `:${'0:'.repeat(8 - ip.split(':').filter(Boolean).length)}`)
      .split(':')
      .filter(Boolean)
      .map((h) => h.padStart(4, '0'))
      .join(''),
  );
}

function extensionRequest(opts: CsrOptions): forge.asn1.Asn1[] {
  const names = [
    ...(opts.emailAddresses ?? []).map((v) => ctx(1, false, v)),
    ...(opts.dnsNames ?? []).map((v) => ctx(2, false, v)),
    ...(opts.uris ?? []).map((v) => ctx(6, false, v)),
    ...(opts.ipAddresses ?? []).map((v) => ctx(7, false, ipBytes(v))),
  ];
  if (names.length === 0) return [];
  const san = seq(oid('2.5.29.17'), asn1.create(U, T.OCTETSTRING, false, asn1.toDer(seq(...names)).getBytes()));
  return [seq(oid('1.2.840.113549.1.9.14'), asn1.create(U, T.SET, true, [seq(san)]))];
}

/** A DER element of `tag` around the concatenated parts. */
function wrap(tag: number, ...parts: Buffer[]): Buffer {
  const content = Buffer.concat(parts);
  const n = content.length;
  const length = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff];
  return Buffer.concat([Buffer.from([tag, ...length]), content]);
}

/** PEM text with lines of 64 base64 characters. */
export function toPem(type: string, bytes: Buffer): string {
  const lines = bytes.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${type}-----\n${lines.join('\n')}\n-----END ${type}-----\n`;
}

/** A PEM certificate request (default: ECDSA P-256, CN=system:node:test). */
export function newCsrPem(opts: CsrOptions = {}): string {
  const type = opts.type ?? 'ec';
  const { publicKey, privateKey } = opts.keys ?? newKeyPair(type);
  const rdn = (attrOid: string, value: string) => asn1.create(U, T.SET, true, [seq(oid(attrOid), utf8(value))]);
  const cn = opts.cn ?? 'system:node:test';
  const name = der(seq(...(opts.orgs ?? []).map((o) => rdn('2.5.4.10', o)), rdn('2.5.4.3', cn)));
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const version = Buffer.from([0x02, 0x01, 0x00]);
  const info = wrap(0x30, version, name, spki, der(ctx(0, true, extensionRequest(opts))));
  const alg = ALGORITHMS[type];
  const key = type === 'rsa-pss' ? { key: privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 } : privateKey;
  const signature = sign(alg.hash, info, key);
  if (opts.tamper) info[info.indexOf(Buffer.from(cn))] ^= 0x01;
  const request = wrap(0x30, info, der(alg.algorithm), wrap(0x03, Buffer.from([0]), signature));
  return toPem('CERTIFICATE REQUEST', request);
}

/** spec.request as JSON carries it: the PEM in base64. */
export const b64 = (text: string) => Buffer.from(text).toString('base64');
