/**
 * Service-account token signing keys, shared by the API server (token issuer and verifier) and the
 * controller manager (legacy token Secrets): RSA or ECDSA keys in PEM, their JWS algorithm and
 * Kubernetes' key id — base64url of the SHA-256 of the DER public key — put in a token's `kid`.
 */
import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { messageOf } from '../thrown.js';

/** The JWS algorithms a signing key can have. */
export type SigningAlgorithm = 'RS256' | 'ES256' | 'ES384' | 'ES512';

export interface SigningKey {
  key: KeyObject;
  kid: string;
  algorithm: SigningAlgorithm;
}

/** Kubernetes' key id: base64url(sha256(DER of the public key)). */
export function keyId(publicKey: KeyObject): string {
  return createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64url');
}

/** The JWS algorithm of a key (RS256 for RSA, ES256/384/512 by ECDSA curve); `source` names it in errors. */
export function signingAlgorithm(key: KeyObject, source: string): SigningAlgorithm {
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

/** The private key in a PEM text, for signing; throws naming `source`. */
export function parseSigningKey(pem: string, source: string): SigningKey {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (err) {
    throw new Error(`${source}: not a private key: ${messageOf(err)}`);
  }
  const pub = createPublicKey(key);
  return { key, kid: keyId(pub), algorithm: signingAlgorithm(pub, source) };
}
