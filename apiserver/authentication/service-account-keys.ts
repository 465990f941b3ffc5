/**
 * Keys of service-account tokens: PEM files holding RSA or ECDSA keys, public or private (a private
 * key verifies with its public half), several per file. Each key has a key id — base64url of the
 * SHA-256 of its DER public key, as Kubernetes computes it — put in the `kid` of the tokens it signs.
 */
import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

/** A verification key and what it accepts. */
export interface VerificationKey {
  key: KeyObject;
  kid: string;
  /** The JWS algorithm of the key (RS256, ES256, ES384, ES512). */
  algorithm: string;
}

const PEM_BLOCK = /-----BEGIN ([A-Z ]+)-----[\s\S]+?-----END \1-----/g;

/** The public keys in a PEM text; `source` names it in errors. */
export function parsePublicKeys(pem: string, source: string): VerificationKey[] {
  const keys: VerificationKey[] = [];
  for (const m of pem.matchAll(PEM_BLOCK)) {
    const type = m[1];
    let key: KeyObject;
    if (type.endsWith('PRIVATE KEY')) key = createPublicKey(createPrivateKey(m[0]));
    else if (type === 'PUBLIC KEY' || type === 'RSA PUBLIC KEY' || type === 'CERTIFICATE') key = createPublicKey(m[0]);
    else continue;
    keys.push({ key, kid: keyId(key), algorithm: algorithmOf(key, source) });
  }
  if (keys.length === 0) throw new Error(`${source}: no RSA or ECDSA key found`);
  return keys;
}

/** The private key in a PEM text, for signing. */
export function parseSigningKey(pem: string, source: string): { key: KeyObject; kid: string; algorithm: string } {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (err) {
    throw new Error(`${source}: not a private key: ${(err as Error).message}`);
  }
  const pub = createPublicKey(key);
  return { key, kid: keyId(pub), algorithm: algorithmOf(pub, source) };
}

/** Kubernetes' key id: base64url(sha256(DER of the public key)). */
export function keyId(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64url');
}

function algorithmOf(key: KeyObject, source: string): string {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'prime256v1') return 'ES256';
    if (curve === 'secp384r1') return 'ES384';
    if (curve === 'secp521r1') return 'ES512';
    throw new Error(`${source}: unsupported ECDSA curve ${curve}`);
  }
  throw new Error(`${source}: unsupported key type ${key.asymmetricKeyType}`);
}
