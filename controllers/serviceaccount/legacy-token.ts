/**
 * Legacy service-account tokens (Kubernetes' JWTTokenGenerator): the claims of
 * api/serviceaccount/legacy-token-claims.ts signed with --service-account-private-key-file
 * (api/serviceaccount/signing-key.ts: RS256 or ES256/384/512, Kubernetes' `kid`), no expiry.
 */
import jwt from 'jsonwebtoken';
import { legacyTokenClaims, type LegacyTokenSubject } from '../../apiserver/api/serviceaccount/legacy-token-claims.js';
import type { SigningKey } from '../../apiserver/api/serviceaccount/signing-key.js';

/** A legacy token for the subject, signed with the key. */
export function signLegacyToken(key: SigningKey, s: LegacyTokenSubject): string {
  return jwt.sign(legacyTokenClaims(s), key.key, { algorithm: key.algorithm, keyid: key.kid, noTimestamp: true });
}
