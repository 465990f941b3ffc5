/**
 * PKCS#10 certificate requests (Kubernetes' ParseCSR + CheckSignature): the structure read with
 * node-forge's ASN.1 parser, the public key and signature checked with node:crypto, which knows the
 * keys node-forge cannot (ECDSA P-256/P-384, Ed25519) and RSA-PSS. The subject, the subjectAltNames of
 * the extension request and the raw SubjectPublicKeyInfo are what a signer needs; errors say what Go's
 * crypto/x509 says.
 */
import { constants, createPublicKey, verify, type KeyObject } from 'node:crypto';
import forge from 'node-forge';
import { decodePemBlocks } from './pem.js';
import { messageOf } from '../thrown.js';

const { asn1 } = forge;
const T = asn1.Type;

/** A certificate request's facts, as a signer and an approver read them. */
export interface CertificateRequest {
  subject: { commonName: string; organizations: string[] };
  dnsNames: string[];
  emailAddresses: string[];
  /** Textual IPv4 / IPv6 addresses. */
  ipAddresses: string[];
  uris: string[];
  /** The SubjectPublicKeyInfo, DER, as requested. */
  spki: Buffer;
  publicKey: KeyObject;
  /** The DER of CertificationRequestInfo, as signed. */
  info: Buffer;
  signatureAlgorithm: { oid: string; parameters?: forge.asn1.Asn1 };
  signature: Buffer;
}

export class CertificateRequestError extends Error {}

type KeyType = 'rsa' | 'ec' | 'ed25519';

/** Signature algorithm OIDs Go verifies: the hash and the key type they need (RSA-PSS reads its hash from the parameters). */
const ALGORITHMS: Record<string, { hash: string | null; key: KeyType; pss?: true }> = {
  '1.2.840.113549.1.1.5': { hash: 'sha1', key: 'rsa' },
  '1.2.840.113549.1.1.11': { hash: 'sha256', key: 'rsa' },
  '1.2.840.113549.1.1.12': { hash: 'sha384', key: 'rsa' },
  '1.2.840.113549.1.1.13': { hash: 'sha512', key: 'rsa' },
  '1.2.840.113549.1.1.10': { hash: null, key: 'rsa', pss: true },
  '1.2.840.10045.4.1': { hash: 'sha1', key: 'ec' },
  '1.2.840.10045.4.3.2': { hash: 'sha256', key: 'ec' },
  '1.2.840.10045.4.3.3': { hash: 'sha384', key: 'ec' },
  '1.2.840.10045.4.3.4': { hash: 'sha512', key: 'ec' },
  '1.3.101.112': { hash: null, key: 'ed25519' },
};

/** The hashes RSA-PSS may name (Go: SHA-256/384/512, MGF1 with the same hash, salt = hash length). */
const PSS_HASHES: Record<string, { name: string; length: number }> = {
  '2.16.840.1.101.3.4.2.1': { name: 'sha256', length: 32 },
  '2.16.840.1.101.3.4.2.2': { name: 'sha384', length: 48 },
  '2.16.840.1.101.3.4.2.3': { name: 'sha512', length: 64 },
};
const MGF1 = '1.2.840.113549.1.1.8';

/** How Go names each key type, and what it says when a signature does not verify. */
const KEYS: Record<KeyType, { name: string; goType: string; failure: string }> = {
  rsa: { name: 'RSA', goType: '*rsa.PublicKey', failure: 'crypto/rsa: verification error' },
  ec: { name: 'ECDSA', goType: '*ecdsa.PublicKey', failure: 'x509: ECDSA verification failure' },
  ed25519: { name: 'Ed25519', goType: 'ed25519.PublicKey', failure: 'x509: Ed25519 verification failure' },
};

const OID_CN = '2.5.4.3';
const OID_O = '2.5.4.10';
const OID_EXTENSION_REQUEST = '1.2.840.113549.1.9.14';
const OID_SAN = '2.5.29.17';

const bytesOf = (node: forge.asn1.Asn1) => Buffer.from(asn1.toDer(node).getBytes(), 'binary');
const children = (node: forge.asn1.Asn1) => (Array.isArray(node.value) ? node.value : []);
const rawValue = (node: forge.asn1.Asn1) => (typeof node.value === 'string' ? node.value : '');

function fromDer(der: Buffer | string): forge.asn1.Asn1 {
  try {
    // The typings know only the old boolean argument; node-forge takes these options.
    const options = { strict: true, decodeBitStrings: false } as unknown as boolean;
    return asn1.fromDer(typeof der === 'string' ? der : der.toString('binary'), options);
  } catch (err) {
    const msg = messageOf(err);
    throw new CertificateRequestError(/too few bytes/i.test(msg) ? 'asn1: syntax error: data truncated' : `asn1: syntax error: ${msg}`);
  }
}

/** The node's children when it is a universal `type` with at least `tags.length` children of those types. */
function expect(node: forge.asn1.Asn1 | undefined, type: number, tags: number[] = []): forge.asn1.Asn1[] {
  const kids = node ? children(node) : [];
  const ok =
    node?.tagClass === asn1.Class.UNIVERSAL &&
    node.type === type &&
    tags.every((t, i) => kids[i]?.tagClass === asn1.Class.UNIVERSAL && kids[i].type === t);
  if (!ok) throw new CertificateRequestError("asn1: structure error: tags don't match");
  return kids;
}

/** A string attribute value as text (UTF8String decoded; other string types are bytes = characters). */
function text(node: forge.asn1.Asn1): string {
  const raw = rawValue(node);
  return node.type === T.UTF8
    ? forge.util.decodeUtf8(raw)
    : node.type === T.BMPSTRING
      ? Buffer.from(raw, 'binary').swap16().toString('utf16le')
      : raw;
}

function readSubject(name: forge.asn1.Asn1): CertificateRequest['subject'] {
  const subject = { commonName: '', organizations: [] as string[] };
  for (const rdn of children(name)) {
    for (const atv of children(rdn)) {
      const [type, value] = children(atv);
      if (!type || !value || type.type !== T.OID) continue;
      const oid = asn1.derToOid(rawValue(type));
      if (oid === OID_CN) subject.commonName = text(value);
      else if (oid === OID_O) subject.organizations.push(text(value));
    }
  }
  return subject;
}

function ipText(raw: string): string {
  const b = Buffer.from(raw, 'binary');
  if (b.length === 4) return [...b].join('.');
  // node-forge has bytesToIP (compressed IPv6 text) at run time; its typings miss it.
  if (b.length === 16) return (forge.util as unknown as { bytesToIP(bytes: string): string }).bytesToIP(raw);
  throw new CertificateRequestError(`x509: cannot parse IP address of length ${b.length}`);
}

/** subjectAltName entries of the extension request (dNSName, rfc822Name, uniformResourceIdentifier, iPAddress). */
function readAltNames(req: CertificateRequest, attributes: forge.asn1.Asn1 | undefined): void {
  for (const attribute of attributes ? children(attributes) : []) {
    const [type, values] = children(attribute);
    if (type?.type !== T.OID || asn1.derToOid(rawValue(type)) !== OID_EXTENSION_REQUEST) continue;
    for (const extensions of values ? children(values) : []) {
      for (const extension of children(extensions)) {
        const parts = children(extension);
        if (parts[0]?.type !== T.OID || asn1.derToOid(rawValue(parts[0])) !== OID_SAN) continue;
        const value = parts[parts.length - 1];
        for (const general of children(fromDer(rawValue(value)))) {
          if (general.tagClass !== asn1.Class.CONTEXT_SPECIFIC) continue;
          const raw = rawValue(general);
          if (general.type === 1) req.emailAddresses.push(raw);
          else if (general.type === 2) req.dnsNames.push(raw);
          else if (general.type === 6) req.uris.push(raw);
          else if (general.type === 7) req.ipAddresses.push(ipText(raw));
        }
      }
    }
  }
}

/** Parses a DER PKCS#10 request; throws CertificateRequestError. */
export function parseCertificateRequest(der: Buffer): CertificateRequest {
  const [info, algorithm, signature] = expect(fromDer(der), T.SEQUENCE, [T.SEQUENCE, T.SEQUENCE, T.BITSTRING]);
  const [, name, spkiNode, attributes] = expect(info, T.SEQUENCE, [T.INTEGER, T.SEQUENCE, T.SEQUENCE]);
  const [oid, parameters] = expect(algorithm, T.SEQUENCE, [T.OID]);
  const spki = bytesOf(spkiNode);
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey({ key: spki, format: 'der', type: 'spki' });
  } catch {
    throw new CertificateRequestError('x509: failed to parse public key');
  }
  const req: CertificateRequest = {
    subject: readSubject(name),
    dnsNames: [],
    emailAddresses: [],
    ipAddresses: [],
    uris: [],
    spki,
    publicKey,
    info: bytesOf(info),
    signatureAlgorithm: { oid: asn1.derToOid(rawValue(oid)), parameters },
    // A BIT STRING's first content byte counts the unused bits of the last one (0 for signatures).
    signature: Buffer.from(rawValue(signature), 'binary').subarray(1),
  };
  readAltNames(req, attributes);
  return req;
}

/** RSASSA-PSS-params as Go accepts them: SHA-256/384/512, MGF1 with the same hash, salt length = hash length. */
function pssHash(parameters: forge.asn1.Asn1 | undefined): { name: string; length: number } | undefined {
  const fields = new Map(children(parameters ?? asn1.create(0, T.SEQUENCE, true, [])).map((f) => [f.type, children(f)[0]]));
  const oidOf = (node: forge.asn1.Asn1 | undefined) => {
    const first = node && children(node)[0];
    return first?.type === T.OID ? asn1.derToOid(rawValue(first)) : undefined;
  };
  const hash = PSS_HASHES[oidOf(fields.get(0)) ?? ''];
  const mgf = fields.get(1);
  const mgfHash = mgf && children(mgf)[1];
  const salt = fields.get(2);
  if (!hash || oidOf(mgf) !== MGF1 || !mgfHash || PSS_HASHES[oidOf(mgfHash) ?? '']?.name !== hash.name) return undefined;
  if (!salt || Number.parseInt(forge.util.bytesToHex(rawValue(salt)), 16) !== hash.length) return undefined;
  return hash;
}

/** Why the request's signature does not verify against its own key; undefined when it does. */
export function checkRequestSignature(req: CertificateRequest): string | undefined {
  const algorithm = ALGORITHMS[req.signatureAlgorithm.oid];
  const pss = algorithm?.pss ? pssHash(req.signatureAlgorithm.parameters) : undefined;
  if (!algorithm || (algorithm.pss && !pss)) return 'x509: cannot verify signature: algorithm unimplemented';
  const keyType = req.publicKey.asymmetricKeyType as string;
  const want = KEYS[algorithm.key];
  if (keyType !== algorithm.key) {
    const have = (KEYS as Record<string, { goType: string } | undefined>)[keyType]?.goType ?? keyType;
    return `x509: signature algorithm specifies an ${want.name} public key, but have public key of type ${have}`;
  }
  const key = pss
    ? { key: req.publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: pss.length }
    : algorithm.key === 'rsa'
      ? { key: req.publicKey, padding: constants.RSA_PKCS1_PADDING }
      : req.publicKey;
  let ok = false;
  try {
    ok = verify(pss?.name ?? algorithm.hash, req.info, key, req.signature);
  } catch {
    ok = false;
  }
  return ok ? undefined : want.failure;
}

/** The first PEM "CERTIFICATE REQUEST" in `pem`, parsed and its signature verified; throws CertificateRequestError. */
export function parseCertificateRequestPem(pem: Buffer | string): CertificateRequest {
  const block = decodePemBlocks(typeof pem === 'string' ? pem : pem.toString('latin1'))[0];
  if (block?.type !== 'CERTIFICATE REQUEST') throw new CertificateRequestError('PEM block type must be CERTIFICATE REQUEST');
  const req = parseCertificateRequest(block.bytes);
  const error = checkRequestSignature(req);
  if (error) throw new CertificateRequestError(error);
  return req;
}
