/**
 * spec.request of a CertificateSigningRequest: a PEM "CERTIFICATE REQUEST" (PKCS#10) whose signature
 * verifies against its own public key (Kubernetes' ParseCSR + CheckSignature). RSA (PKCS #1 v1.5),
 * ECDSA and Ed25519 signatures are checked with node:crypto; the messages follow Go's.
 */
import { createPublicKey, verify, constants, type KeyObject } from 'node:crypto';
import { decodePemBlocks } from './pem.js';
import { DerError, readChildren, readElement, readOid } from './der.js';

const SEQUENCE = 0x30;
const INTEGER = 0x02;
const OID = 0x06;
const BIT_STRING = 0x03;

type KeyType = 'rsa' | 'ec' | 'ed25519';

/** Signature algorithm OIDs Go verifies: the hash and the key type they need. */
const ALGORITHMS: Record<string, { hash: string | null; key: KeyType }> = {
  '1.2.840.113549.1.1.5': { hash: 'sha1', key: 'rsa' },
  '1.2.840.113549.1.1.11': { hash: 'sha256', key: 'rsa' },
  '1.2.840.113549.1.1.12': { hash: 'sha384', key: 'rsa' },
  '1.2.840.113549.1.1.13': { hash: 'sha512', key: 'rsa' },
  '1.2.840.10045.4.1': { hash: 'sha1', key: 'ec' },
  '1.2.840.10045.4.3.2': { hash: 'sha256', key: 'ec' },
  '1.2.840.10045.4.3.3': { hash: 'sha384', key: 'ec' },
  '1.2.840.10045.4.3.4': { hash: 'sha512', key: 'ec' },
  '1.3.101.112': { hash: null, key: 'ed25519' },
};

/** How Go names each key type, and what it says when a signature does not verify. */
const KEYS: Record<KeyType, { name: string; goType: string; failure: string }> = {
  rsa: { name: 'RSA', goType: '*rsa.PublicKey', failure: 'crypto/rsa: verification error' },
  ec: { name: 'ECDSA', goType: '*ecdsa.PublicKey', failure: 'x509: ECDSA verification failure' },
  ed25519: { name: 'Ed25519', goType: 'ed25519.PublicKey', failure: 'x509: Ed25519 verification failure' },
};

interface ParsedRequest {
  /** The DER of CertificationRequestInfo, as signed. */
  info: Buffer;
  publicKey: KeyObject;
  algorithm: string;
  signature: Buffer;
}

function parseRequest(der: Buffer): ParsedRequest {
  const outer = readElement(der, 0);
  if (outer.tag !== SEQUENCE) throw new DerError("asn1: structure error: tags don't match");
  const [info, algorithm, signature] = readChildren(der, outer, [SEQUENCE, SEQUENCE, BIT_STRING]);
  const [, , spki] = readChildren(der, info, [INTEGER, SEQUENCE, SEQUENCE]);
  const [oid] = readChildren(der, algorithm, [OID]);
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey({ key: der.subarray(spki.start, spki.end), format: 'der', type: 'spki' });
  } catch {
    throw new DerError('x509: failed to parse public key');
  }
  return {
    info: der.subarray(info.start, info.end),
    publicKey,
    algorithm: readOid(der, oid),
    // A BIT STRING's first content byte counts the unused bits of the last one (0 for signatures).
    signature: der.subarray(signature.contentStart + 1, signature.end),
  };
}

function checkSignature(req: ParsedRequest): string | undefined {
  const algorithm = ALGORITHMS[req.algorithm];
  if (!algorithm) return 'x509: cannot verify signature: algorithm unimplemented';
  const keyType = req.publicKey.asymmetricKeyType as string;
  const want = KEYS[algorithm.key];
  if (keyType !== algorithm.key) {
    const have = (KEYS as Record<string, { goType: string } | undefined>)[keyType]?.goType ?? keyType;
    return `x509: signature algorithm specifies an ${want.name} public key, but have public key of type ${have}`;
  }
  const key = algorithm.key === 'rsa' ? { key: req.publicKey, padding: constants.RSA_PKCS1_PADDING } : req.publicKey;
  let ok = false;
  try {
    ok = verify(algorithm.hash, req.info, key, req.signature);
  } catch {
    ok = false;
  }
  return ok ? undefined : want.failure;
}

/** Why spec.request (the decoded bytes) is not a valid, correctly signed request; undefined when it is. */
export function csrRequestError(request: Buffer): string | undefined {
  const block = decodePemBlocks(request.toString('latin1'))[0];
  if (block?.type !== 'CERTIFICATE REQUEST') return 'PEM block type must be CERTIFICATE REQUEST';
  try {
    return checkSignature(parseRequest(block.bytes));
  } catch (err) {
    if (err instanceof DerError) return err.message;
    throw err;
  }
}
