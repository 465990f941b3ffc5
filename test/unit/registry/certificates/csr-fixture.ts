/**
 * PKCS#10 certificate requests for tests, built from node:crypto keys with a few lines of DER: RSA
 * (sha256WithRSAEncryption), ECDSA P-256 (ecdsa-with-SHA256) and Ed25519, optionally with a broken
 * signature. Shared by the unit and integration tests of CertificateSigningRequest.
 */
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

export type CsrKeyType = 'rsa' | 'ec' | 'ed25519';

function der(tag: number, content: Buffer): Buffer {
  const n = content.length;
  const length = n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, content]);
}

const seq = (...parts: Buffer[]) => der(0x30, Buffer.concat(parts));

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const bytes = [a * 40 + b];
  for (const n of rest) {
    const chunk = [n & 0x7f];
    for (let v = n >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return der(0x06, Buffer.from(bytes));
}

const ALGORITHMS: Record<CsrKeyType, { oid: string; hash: string | null; params: Buffer[] }> = {
  rsa: { oid: '1.2.840.113549.1.1.11', hash: 'sha256', params: [Buffer.from([0x05, 0x00])] },
  ec: { oid: '1.2.840.10045.4.3.2', hash: 'sha256', params: [] },
  ed25519: { oid: '1.3.101.112', hash: null, params: [] },
};

function newKey(type: CsrKeyType): { publicKey: KeyObject; privateKey: KeyObject } {
  if (type === 'rsa') return generateKeyPairSync('rsa', { modulusLength: 2048 });
  if (type === 'ec') return generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return generateKeyPairSync('ed25519');
}

/** PEM text with lines of 64 base64 characters. */
export function toPem(type: string, bytes: Buffer): string {
  const lines = bytes.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${type}-----\n${lines.join('\n')}\n-----END ${type}-----\n`;
}

/** A PEM certificate request for CN=`cn`; `tamper` changes the common name after signing. */
export function newCsrPem(opts: { type?: CsrKeyType; cn?: string; tamper?: boolean } = {}): string {
  const type = opts.type ?? 'ec';
  const cn = Buffer.from(opts.cn ?? 'system:node:test');
  const { publicKey, privateKey } = newKey(type);
  const name = seq(der(0x31, seq(oid('2.5.4.3'), der(0x0c, cn))));
  const info = seq(der(0x02, Buffer.from([0])), name, publicKey.export({ type: 'spki', format: 'der' }), der(0xa0, Buffer.alloc(0)));
  const alg = ALGORITHMS[type];
  const signature = sign(alg.hash, info, privateKey);
  if (opts.tamper) info[info.indexOf(cn)] ^= 0x01;
  return toPem('CERTIFICATE REQUEST', seq(info, seq(oid(alg.oid), ...alg.params), der(0x03, Buffer.concat([Buffer.from([0]), signature]))));
}

/** spec.request as JSON carries it: the PEM in base64. */
export const b64 = (text: string) => Buffer.from(text).toString('base64');
