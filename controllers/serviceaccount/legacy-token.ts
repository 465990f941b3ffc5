/**
 * Legacy service-account tokens (Kubernetes' LegacyClaims and JWTTokenGenerator): a JWT without
 * expiry, issuer `kubernetes/serviceaccount`, subject `system:serviceaccount:<ns>:<name>` and the
 * flat `kubernetes.io/serviceaccount/*` claims naming the namespace, the token Secret and the
 * account — the same claim names under every API domain, so the API server reads them as Kubernetes
 * does. Signed RS256 (RSA key) or ES256/384/512 (ECDSA), `kid` = base64url(sha256(DER public key)).
 */
import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';

export const LEGACY_ISSUER = 'kubernetes/serviceaccount';
const CLAIM_PREFIX = 'kubernetes.io/serviceaccount';

export interface TokenSigningKey {
  key: KeyObject;
  kid: string;
  algorithm: jwt.Algorithm;
}

/** The private key of --service-account-private-key-file; throws naming the file. */
export function parseTokenSigningKey(pem: string, source: string): TokenSigningKey {
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (err) {
    throw new Error(`${source}: not a private key: ${(err as Error).message}`);
  }
  const pub = createPublicKey(key);
  const kid = createHash('sha256')
    .update(pub.export({ type: 'spki', format: 'der' }))
    .digest('base64url');
  return { key, kid, algorithm: algorithmOf(pub, source) };
}

function algorithmOf(key: KeyObject, source: string): jwt.Algorithm {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  const curve = key.asymmetricKeyType === 'ec' ? key.asymmetricKeyDetails?.namedCurve : undefined;
  if (curve === 'prime256v1') return 'ES256';
  if (curve === 'secp384r1') return 'ES384';
  if (curve === 'secp521r1') return 'ES512';
  throw new Error(`${source}: an RSA or ECDSA (P-256, P-384, P-521) private key is required`);
}

export interface LegacyTokenSubject {
  namespace: string;
  serviceAccountName: string;
  serviceAccountUid: string;
  secretName: string;
}

/** The claims of a legacy token. */
export function legacyTokenClaims(s: LegacyTokenSubject): Record<string, string> {
  return {
    iss: LEGACY_ISSUER,
    [`${CLAIM_PREFIX}/namespace`]: s.namespace,
    [`${CLAIM_PREFIX}/secret.name`]: s.secretName,
    [`${CLAIM_PREFIX}/service-account.name`]: s.serviceAccountName,
    [`${CLAIM_PREFIX}/service-account.uid`]: s.serviceAccountUid,
    sub: `system:serviceaccount:${s.namespace}:${s.serviceAccountName}`,
  };
}

export function signLegacyToken(key: TokenSigningKey, s: LegacyTokenSubject): string {
  return jwt.sign(legacyTokenClaims(s), key.key, { algorithm: key.algorithm, keyid: key.kid, noTimestamp: true });
}
