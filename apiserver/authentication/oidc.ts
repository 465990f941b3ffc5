/**
 * OpenID Connect ID tokens (--oidc-*): JWTs whose `iss` is --oidc-issuer-url, signed by a key of
 * the issuer's JWKS (found through its discovery document, fetched over TLS and cached; fetched
 * again when a token names an unknown `kid`, at most once per REFRESH_MIN_MS), meant for the client
 * id (`aud`), with the required claims. The username comes from --oidc-username-claim (prefixed by
 * --oidc-username-prefix; other than `email`, by default the issuer URL and '#'), the groups from
 * --oidc-groups-claim (prefixed by --oidc-groups-prefix).
 */
import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { httpsJson } from './https-json.js';
import { AuthenticationError, type TokenAuthenticator, type UserInfo } from './interfaces.js';
import { messageOf } from '../api/thrown.js';

export interface OidcConfig {
  issuerURL: string;
  clientID: string;
  /** PEM CA bundle of the issuer's TLS certificate; default the system's. */
  ca?: string;
  usernameClaim: string;
  /** undefined = the default (issuer + '#' unless the claim is email); '-' = none. */
  usernamePrefix?: string;
  groupsClaim?: string;
  groupsPrefix?: string;
  requiredClaims: Record<string, string>;
  signingAlgs: readonly string[];
  now?: () => number;
  /** Least time between two fetches of the keys on unknown kids (default 10s). */
  refreshMinMs?: number;
}

const REFRESH_MIN_MS = 10_000;

export function newOidcAuthenticator(config: OidcConfig): TokenAuthenticator {
  const now = config.now ?? Date.now;
  const usernamePrefix =
    config.usernamePrefix === '-' ? '' : (config.usernamePrefix ?? (config.usernameClaim === 'email' ? '' : `${config.issuerURL}#`));
  let keys: Map<string, KeyObject> | undefined;
  let loading: Promise<void> | undefined;
  let lastFetch = 0;

  const fetchKeys = async () => {
    lastFetch = now();
    const discovery = await httpsJson(`${config.issuerURL.replace(/\/$/, '')}/.well-known/openid-configuration`, { ca: config.ca });
    const doc = discovery.body as { issuer?: string; jwks_uri?: string };
    if (discovery.status !== 200 || typeof doc?.jwks_uri !== 'string') throw new Error('oidc: discovery document has no jwks_uri');
    if (doc.issuer !== config.issuerURL) throw new Error(`oidc: discovery names issuer ${JSON.stringify(doc.issuer)}`);
    const jwks = await httpsJson(doc.jwks_uri, { ca: config.ca });
    const list = (jwks.body as { keys?: (JsonWebKey & { kid?: string; use?: string })[] })?.keys;
    if (jwks.status !== 200 || !Array.isArray(list)) throw new Error('oidc: JWKS has no keys');
    const next = new Map<string, KeyObject>();
    list.forEach((jwk, i) => {
      if (jwk.use && jwk.use !== 'sig') return;
      try {
        next.set(jwk.kid ?? `#${i}`, createPublicKey({ key: jwk, format: 'jwk' }));
      } catch {
        // a key this runtime cannot read is skipped
      }
    });
    keys = next;
  };
  const refresh = (force: boolean) => {
    if (!loading && (!keys || (force && now() - lastFetch >= (config.refreshMinMs ?? REFRESH_MIN_MS)))) {
      loading = fetchKeys().finally(() => {
        loading = undefined;
      });
    }
    return loading ?? Promise.resolve();
  };

  return {
    async authenticateToken(token) {
      const decoded = jwt.decode(token, { complete: true });
      if (!decoded || typeof decoded.payload !== 'object' || decoded.payload.iss !== config.issuerURL) return null;
      const { header } = decoded;
      if (!config.signingAlgs.includes(header.alg))
        throw new AuthenticationError(`oidc: signing algorithm ${JSON.stringify(header.alg)} is not accepted`);
      try {
        await refresh(false);
        if (header.kid !== undefined && !keys?.has(header.kid)) await refresh(true);
      } catch (err) {
        throw new AuthenticationError(`oidc: issuer keys unavailable: ${messageOf(err)}`);
      }
      const candidates = header.kid !== undefined ? [keys?.get(header.kid)].filter((k) => k !== undefined) : [...(keys?.values() ?? [])];
      if (candidates.length === 0) throw new AuthenticationError('oidc: no key of the issuer matches the token');
      let payload: jwt.JwtPayload | undefined;
      let lastError = '';
      for (const key of candidates) {
        try {
          payload = jwt.verify(token, key, {
            algorithms: [header.alg as jwt.Algorithm],
            audience: config.clientID,
            issuer: config.issuerURL,
            clockTimestamp: Math.floor(now() / 1000),
          }) as jwt.JwtPayload;
          break;
        } catch (err) {
          lastError = messageOf(err);
          if (err instanceof jwt.TokenExpiredError || err instanceof jwt.NotBeforeError) break;
        }
      }
      if (!payload) throw new AuthenticationError(`oidc: ${lastError}`);
      for (const [claim, value] of Object.entries(config.requiredClaims)) {
        if (payload[claim] !== value)
          throw new AuthenticationError(`oidc: required claim ${claim} not present or not equal to ${JSON.stringify(value)}`);
      }
      const username = payload[config.usernameClaim];
      if (typeof username !== 'string' || username === '') throw new AuthenticationError(`oidc: claim ${config.usernameClaim} not present`);
      if (config.usernameClaim === 'email' && 'email_verified' in payload && payload.email_verified !== true) {
        throw new AuthenticationError('oidc: email not verified');
      }
      const user: UserInfo = { name: `${usernamePrefix}${username}`, groups: [] };
      if (config.groupsClaim && payload[config.groupsClaim] !== undefined) {
        const raw = payload[config.groupsClaim];
        const groups = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : undefined;
        if (!groups || groups.some((g) => typeof g !== 'string'))
          throw new AuthenticationError(`oidc: claim ${config.groupsClaim} is not a string or list of strings`);
        user.groups = groups.map((g) => `${config.groupsPrefix ?? ''}${g}`);
      }
      return user;
    },
  };
}
