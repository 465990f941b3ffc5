/**
 * Bootstrap token Secrets as the bootstrap controllers read them (Kubernetes' cluster-bootstrap
 * secret helpers): `bootstrap-token-<id>` of type `bootstrap.<prefix>/token` in the system
 * namespace, data `token-id`, `token-secret`, `expiration` (RFC 3339), `usage-bootstrap-*`.
 */
import type { ApiDomain } from '../../apiserver/api/domain.js';
import type { Secret } from '../../apiserver/api/generated/types.js';

export const BOOTSTRAP_TOKEN_SECRET_PREFIX = 'bootstrap-token-';
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** bootstrap.orch.io/token (bootstrap.kubernetes.io/token for k8s.io). */
export const bootstrapTokenSecretType = (domain: ApiDomain) => `bootstrap.${domain.labelPrefix}/token`;

/** A data value as text ('' when absent). */
export function secretData(secret: Secret, key: string): string {
  const value = secret.data?.[key];
  return value === undefined ? '' : Buffer.from(value, 'base64').toString('utf8');
}

export function isBootstrapTokenSecret(secret: Secret, domain: ApiDomain): boolean {
  return secret.metadata.namespace === domain.systemNamespace && secret.type === bootstrapTokenSecretType(domain);
}

/**
 * How long until the token expires: { expired: false, remainingMs: 0 } without an expiration; an
 * unparseable expiration counts as expired.
 */
export function tokenExpiration(secret: Secret, now: Date): { expired: boolean; remainingMs: number } {
  const expiration = secretData(secret, 'expiration');
  if (!expiration) return { expired: false, remainingMs: 0 };
  const at = RFC3339.test(expiration) ? Date.parse(expiration) : Number.NaN;
  if (Number.isNaN(at)) return { expired: true, remainingMs: 0 };
  const remainingMs = at - now.getTime();
  return remainingMs <= 0 ? { expired: true, remainingMs: 0 } : { expired: false, remainingMs };
}

/** The id and secret of a token Secret that may sign cluster-info: named for its id, not expired, usage-bootstrap-signing=true. */
export function signingToken(secret: Secret, now: Date): { id: string; secret: string } | undefined {
  const name = secret.metadata.name ?? '';
  if (!name.startsWith(BOOTSTRAP_TOKEN_SECRET_PREFIX)) return undefined;
  const id = secretData(secret, 'token-id');
  if (!id || name !== `${BOOTSTRAP_TOKEN_SECRET_PREFIX}${id}`) return undefined;
  const tokenSecret = secretData(secret, 'token-secret');
  if (!tokenSecret || tokenExpiration(secret, now).expired) return undefined;
  if (secretData(secret, 'usage-bootstrap-signing') !== 'true') return undefined;
  return { id, secret: tokenSecret };
}
