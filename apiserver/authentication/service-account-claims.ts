/**
 * The claims of service-account tokens, in Kubernetes' shapes so tokens mean the same to every tool:
 * bound tokens (TokenRequest) carry a private `kubernetes.io` claim naming the namespace, the account
 * and the Pod or Secret they are bound to; legacy tokens (token Secrets) carry flat
 * `kubernetes.io/serviceaccount/*` claims and the fixed issuer `kubernetes/serviceaccount`.
 */
import { LEGACY_CLAIM_PREFIX, LEGACY_ISSUER, legacyTokenClaims } from '../api/serviceaccount/legacy-token-claims.js';
import { nameIsDNSLabel, nameIsDNSSubdomain } from '../api/validation/names.js';
import type { UserInfo } from './interfaces.js';

/** Group of every service account. */
export const ALL_SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';

export interface ObjectRef {
  name: string;
  uid: string;
}

/** What a service-account token asserts, whichever its shape. */
export interface ServiceAccountClaims {
  namespace: string;
  serviceAccount: ObjectRef;
  /** Bound tokens: the Pod or Secret the token lives and dies with. */
  pod?: ObjectRef;
  secret?: ObjectRef;
  /** Legacy tokens: the token Secret's name (its uid is not in the token). */
  legacySecretName?: string;
}

export interface BoundTokenSpec extends ServiceAccountClaims {
  issuer: string;
  audiences: string[];
  /** Seconds since the epoch. */
  issuedAt: number;
  expiresAt: number;
}

/** The JWT payload of a bound token. */
export function boundClaims(t: BoundTokenSpec): Record<string, unknown> {
  const priv: Record<string, unknown> = { namespace: t.namespace, serviceaccount: t.serviceAccount };
  if (t.pod) priv.pod = t.pod;
  if (t.secret) priv.secret = t.secret;
  return {
    aud: t.audiences,
    exp: t.expiresAt,
    iat: t.issuedAt,
    iss: t.issuer,
    nbf: t.issuedAt,
    sub: serviceAccountUsername(t.namespace, t.serviceAccount.name),
    'kubernetes.io': priv,
  };
}

/** The JWT payload of a legacy token Secret's token. */
export function legacyClaims(namespace: string, serviceAccount: ObjectRef, secretName: string): Record<string, unknown> {
  return legacyTokenClaims({ namespace, serviceAccountName: serviceAccount.name, serviceAccountUid: serviceAccount.uid, secretName });
}

/** The claims of a verified payload, or a message saying what is missing. */
export function readClaims(payload: Record<string, unknown>): ServiceAccountClaims | string {
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  if (payload.iss === LEGACY_ISSUER) {
    const namespace = str(payload[`${LEGACY_CLAIM_PREFIX}/namespace`]);
    const name = str(payload[`${LEGACY_CLAIM_PREFIX}/service-account.name`]);
    const uid = str(payload[`${LEGACY_CLAIM_PREFIX}/service-account.uid`]);
    const secret = str(payload[`${LEGACY_CLAIM_PREFIX}/secret.name`]);
    if (!namespace || !name || !uid || !secret) return 'token lacks the service account claims';
    return { namespace, serviceAccount: { name, uid }, legacySecretName: secret };
  }
  const priv = payload['kubernetes.io'] as Record<string, unknown> | undefined;
  if (typeof priv !== 'object' || priv === null) return 'token lacks the kubernetes.io claim';
  const ref = (v: unknown): ObjectRef | undefined => {
    const o = v as Record<string, unknown> | undefined;
    const name = str(o?.name);
    const uid = str(o?.uid);
    return name && uid ? { name, uid } : undefined;
  };
  const namespace = str(priv.namespace);
  const serviceAccount = ref(priv.serviceaccount);
  if (!namespace || !serviceAccount) return 'token lacks the service account claims';
  const claims: ServiceAccountClaims = { namespace, serviceAccount };
  if (priv.pod !== undefined) claims.pod = ref(priv.pod);
  if (priv.secret !== undefined) claims.secret = ref(priv.secret);
  if ((priv.pod !== undefined && !claims.pod) || (priv.secret !== undefined && !claims.secret))
    return 'token has a malformed bound object reference';
  return claims;
}

export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

const SERVICE_ACCOUNT_USERNAME_PREFIX = 'system:serviceaccount:';

/**
 * The namespace and name of a service account's user name, or undefined when `username` is not one
 * serviceAccountUsername makes (Kubernetes' serviceaccount.SplitUsername): exactly two parts after
 * the prefix, a namespace name and an account name that are valid as such.
 */
export function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SERVICE_ACCOUNT_USERNAME_PREFIX)) return undefined;
  const parts = username.slice(SERVICE_ACCOUNT_USERNAME_PREFIX.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts;
  if (nameIsDNSLabel(namespace, false).length > 0 || nameIsDNSSubdomain(name, false).length > 0) return undefined;
  return { namespace, name };
}

/** The user a token's claims name: the account, its groups, and the bound Pod in extra. */
export function serviceAccountUser(claims: ServiceAccountClaims, extraPrefix: string): UserInfo {
  const user: UserInfo = {
    name: serviceAccountUsername(claims.namespace, claims.serviceAccount.name),
    uid: claims.serviceAccount.uid,
    groups: [ALL_SERVICE_ACCOUNTS_GROUP, `${ALL_SERVICE_ACCOUNTS_GROUP}:${claims.namespace}`],
  };
  if (claims.pod) {
    user.extra = { [`${extraPrefix}/pod-name`]: [claims.pod.name], [`${extraPrefix}/pod-uid`]: [claims.pod.uid] };
  }
  return user;
}
