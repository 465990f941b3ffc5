/**
 * Signs service-account tokens with --service-account-signing-key-file: bound tokens for
 * TokenRequest and legacy tokens for token Secrets. The key id goes in the header, so verifiers with
 * several keys try the right one first.
 */
import jwt from 'jsonwebtoken';
import { boundClaims, legacyClaims, type BoundTokenSpec, type ObjectRef } from './service-account-claims.js';
import { parseSigningKey } from '../api/serviceaccount/signing-key.js';

export interface TokenIssuer {
  /** The issuer new tokens name (the first --service-account-issuer). */
  readonly issuer: string;
  bound(spec: Omit<BoundTokenSpec, 'issuer'>): string;
  legacy(namespace: string, serviceAccount: ObjectRef, secretName: string): string;
}

/** An issuer signing with the private key in `pem`. */
export function newTokenIssuer(issuer: string, pem: string, source: string): TokenIssuer {
  const { key, kid, algorithm } = parseSigningKey(pem, source);
  const sign = (payload: Record<string, unknown>) => jwt.sign(payload, key, { algorithm, keyid: kid });
  return {
    issuer,
    bound: (spec) => sign(boundClaims({ ...spec, issuer })),
    legacy: (namespace, serviceAccount, secretName) => sign(legacyClaims(namespace, serviceAccount, secretName)),
  };
}
