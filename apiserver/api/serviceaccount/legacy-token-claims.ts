/**
 * The claims of a legacy service-account token (a token Secret's `token`, Kubernetes' LegacyClaims):
 * no expiry, issuer `kubernetes/serviceaccount`, subject `system:serviceaccount:<ns>:<name>` and flat
 * `kubernetes.io/serviceaccount/*` claims naming the namespace, the Secret and the account — the same
 * names under every API domain, so tokens read alike everywhere. The controller manager writes them,
 * the API server reads them.
 */

export const LEGACY_ISSUER = 'kubernetes/serviceaccount';
/** The prefix of the flat claims. */
export const LEGACY_CLAIM_PREFIX = 'kubernetes.io/serviceaccount';

export interface LegacyTokenSubject {
  namespace: string;
  serviceAccountName: string;
  serviceAccountUid: string;
  secretName: string;
}

/** The JWT payload of a legacy token. */
export function legacyTokenClaims(s: LegacyTokenSubject): Record<string, string> {
  return {
    iss: LEGACY_ISSUER,
    [`${LEGACY_CLAIM_PREFIX}/namespace`]: s.namespace,
    [`${LEGACY_CLAIM_PREFIX}/secret.name`]: s.secretName,
    [`${LEGACY_CLAIM_PREFIX}/service-account.name`]: s.serviceAccountName,
    [`${LEGACY_CLAIM_PREFIX}/service-account.uid`]: s.serviceAccountUid,
    sub: `system:serviceaccount:${s.namespace}:${s.serviceAccountName}`,
  };
}
