/**
 * Service-account token authentication: JWTs signed by one of the --service-account-key-file keys,
 * issued by one of --service-account-issuer (bound tokens, meant for one of the API's audiences) or
 * by the legacy issuer (token Secrets). A verified signature is remembered per token until it
 * expires, so a repeated token costs a hash and a few map look-ups, not a signature check; the
 * account, Secret and Pod it names are looked up every time (through the server's cache), so a
 * deleted or re-created object revokes its tokens at once. A legacy token's Secret is labelled with
 * the day it was last used (`<prefix>/legacy-token-last-used`, written at most once a day), which
 * the legacy token cleaner reads.
 */
import { createHash } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Secret } from '../api/generated/types.js';
import { type ApiObject, asKind, isOneOf } from '../api/object.js';
import { AuthenticationError, type ObjectGetter, type SecretLabeler, type TokenAuthenticator } from './interfaces.js';
import { LEGACY_ISSUER } from '../api/serviceaccount/legacy-token-claims.js';
import { readClaims, serviceAccountUser, type ServiceAccountClaims } from './service-account-claims.js';
import type { VerificationKey } from './service-account-keys.js';
import { messageOf } from '../api/thrown.js';

export interface ServiceAccountAuthenticatorConfig {
  /** Issuers of bound tokens (--service-account-issuer). */
  issuers: readonly string[];
  keys: readonly VerificationKey[];
  /** Audiences a bound token must name one of when the caller gives none (--api-audiences). */
  apiAudiences: readonly string[];
  /** --service-account-lookup: legacy tokens are checked against their Secret and account. */
  lookup: boolean;
  getObject: ObjectGetter;
  /** Prefix of the extra keys naming the bound Pod ("authentication.kubernetes.io"). */
  extraPrefix: string;
  /** Labels a legacy token's Secret with the day it was used (LegacyServiceAccountTokenTracking). */
  legacyTokenTracking?: { label: string; setLabels: SecretLabeler };
  /** Most verified tokens remembered (default 10000). */
  cacheSize?: number;
  now?: () => number;
}

export interface ServiceAccountAuthenticator extends TokenAuthenticator {
  /** How many signatures were checked so far (a cached token is not checked again). */
  signatureChecks(): number;
}

interface Verified {
  payload: Record<string, unknown>;
  claims: ServiceAccountClaims;
  /** ms since the epoch; Infinity for legacy tokens. */
  expiresAt: number;
}

const ALGORITHMS = ['RS256', 'ES256', 'ES384', 'ES512'] as const;

export function newServiceAccountAuthenticator(config: ServiceAccountAuthenticatorConfig): ServiceAccountAuthenticator {
  const now = config.now ?? Date.now;
  const cacheSize = config.cacheSize ?? 10_000;
  const cache = new Map<string, Verified>();
  let checks = 0;

  const verify = (token: string, header: Record<string, unknown>): Verified => {
    const alg = header.alg;
    if (!isOneOf(ALGORITHMS, alg)) {
      throw new AuthenticationError(
        `service account token: unsupported signing algorithm ${JSON.stringify(String(header.alg)).slice(0, 40)}`,
      );
    }
    const candidates = config.keys.filter((k) => k.algorithm === header.alg);
    const byKid = candidates.filter((k) => k.kid === header.kid);
    let lastError = 'no key for the token';
    for (const k of byKid.length > 0 ? byKid : candidates) {
      checks++;
      try {
        // The key's algorithm is the header's (candidates), one of ALGORITHMS.
        const payload = jwt.verify(token, k.key, { algorithms: [alg], clockTimestamp: Math.floor(now() / 1000) });
        if (typeof payload !== 'object' || payload === null)
          throw new AuthenticationError('service account token: payload is not an object');
        const claims = readClaims(payload);
        if (typeof claims === 'string') throw new AuthenticationError(`service account token: ${claims}`);
        const exp = payload.exp;
        return {
          payload,
          claims,
          expiresAt: typeof exp === 'number' ? exp * 1000 : Number.POSITIVE_INFINITY,
        };
      } catch (err) {
        if (err instanceof AuthenticationError) throw err;
        if (err instanceof jwt.TokenExpiredError) throw new AuthenticationError('service account token has expired');
        if (err instanceof jwt.NotBeforeError) throw new AuthenticationError('service account token is not valid yet');
        lastError = messageOf(err);
      }
    }
    throw new AuthenticationError(`service account token: ${lastError}`);
  };

  const lookup = async (claims: ServiceAccountClaims, token: string): Promise<void> => {
    const { namespace } = claims;
    const live = async (resource: 'serviceaccounts' | 'secrets' | 'pods', name: string, uid?: string) => {
      const obj = await config.getObject(resource, namespace, name);
      const what = `${resource.slice(0, -1).replace('serviceaccount', 'service account')} ${namespace}/${name}`;
      if (!obj || obj.metadata.deletionTimestamp) throw new AuthenticationError(`${what} has been deleted`);
      if (uid !== undefined && obj.metadata.uid !== uid) {
        throw new AuthenticationError(`${what}: uid (${obj.metadata.uid}) does not match the token's (${uid})`);
      }
      return obj;
    };
    let legacySecret: ApiObject | undefined;
    if (claims.legacySecretName !== undefined) {
      if (!config.lookup) return;
      legacySecret = await live('secrets', claims.legacySecretName);
      const stored = asKind<Secret>(legacySecret).data?.token;
      if (stored === undefined || Buffer.from(stored, 'base64').toString('utf8') !== token) {
        throw new AuthenticationError(`secret ${namespace}/${claims.legacySecretName}: token does not match`);
      }
    }
    await live('serviceaccounts', claims.serviceAccount.name, claims.serviceAccount.uid);
    if (claims.secret) await live('secrets', claims.secret.name, claims.secret.uid);
    if (claims.pod) await live('pods', claims.pod.name, claims.pod.uid);
    if (legacySecret) await trackUse(legacySecret);
  };

  /** Labels the Secret with today's date unless it says today (or, by a clock ahead, tomorrow). */
  const trackUse = async (secret: ApiObject): Promise<void> => {
    const tracking = config.legacyTokenTracking;
    if (!tracking) return;
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const today = day(now());
    const lastUsed = secret.metadata.labels?.[tracking.label];
    if (lastUsed === today || lastUsed === day(now() + 86_400_000)) return;
    await tracking.setLabels(secret.metadata.namespace ?? '', secret.metadata.name!, secret.metadata.uid!, { [tracking.label]: today });
  };

  return {
    signatureChecks: () => checks,
    async authenticateToken(token, audiences) {
      const key = createHash('sha256').update(token).digest('base64url');
      let verified = cache.get(key);
      if (verified && verified.expiresAt <= now()) {
        cache.delete(key);
        throw new AuthenticationError('service account token has expired');
      }
      if (!verified) {
        const parts = token.split('.');
        if (parts.length !== 3) return null;
        const header = decodeSegment(parts[0]);
        const unverified = decodeSegment(parts[1]);
        if (!header || !unverified) return null;
        const claimed = unverified.iss;
        if (typeof claimed !== 'string' || (claimed !== LEGACY_ISSUER && !config.issuers.includes(claimed))) return null; // not ours
        verified = verify(token, header);
        const oldest = cache.size >= cacheSize ? cache.keys().next() : undefined;
        if (oldest && !oldest.done) cache.delete(oldest.value);
        cache.set(key, verified);
      }
      const iss = verified.payload.iss;
      if (iss !== LEGACY_ISSUER) {
        const aud = verified.payload.aud;
        const tokenAudiences = Array.isArray(aud) ? aud : typeof aud === 'string' ? [aud] : [];
        const wanted = audiences && audiences.length > 0 ? audiences : config.apiAudiences;
        if (!tokenAudiences.some((a) => wanted.includes(a))) {
          throw new AuthenticationError(
            `service account token audiences ${JSON.stringify(tokenAudiences)} are invalid for the target audiences ${JSON.stringify(wanted)}`,
          );
        }
      }
      await lookup(verified.claims, token);
      return serviceAccountUser(verified.claims, config.extraPrefix);
    },
  };
}

function decodeSegment(segment: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
