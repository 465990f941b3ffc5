/**
 * The authentication contract: an authenticator looks at a request and says who sent it.
 */
import type { IncomingMessage } from 'node:http';
import type { UserInfo } from '../api/user-info.js';
import type { ApiObject } from '../api/object.js';

export type { UserInfo };

/** Recognises one kind of credential on a request. */
export interface RequestAuthenticator {
  /**
   * Resolves to the user when the request carries a valid credential of this kind, to null when it
   * carries none; rejects with AuthenticationError when it carries one that is invalid (→ 401).
   */
  authenticate(req: IncomingMessage): Promise<UserInfo | null>;
}

/**
 * Recognises one kind of bearer token (static file, service-account JWT, bootstrap, webhook, OIDC).
 * Resolves to the user for a token it accepts, to null for a token that is not of its kind; rejects
 * with AuthenticationError for a token of its kind that is invalid. `audiences` are those the token
 * must be meant for (the API server's own by default; a TokenReview may name others).
 */
export interface TokenAuthenticator {
  authenticateToken(token: string, audiences?: readonly string[]): Promise<UserInfo | null>;
}

/** A credential was presented but is invalid: the request must be answered 401 Unauthorized. */
export class AuthenticationError extends Error {
  override name = 'AuthenticationError';
}

/** The group every authenticated user belongs to. */
export const ALL_AUTHENTICATED_GROUP = 'system:authenticated';
/** The group the anonymous user belongs to. */
export const ALL_UNAUTHENTICATED_GROUP = 'system:unauthenticated';
/** The name given to requests that carry no credential. */
export const ANONYMOUS_USER = 'system:anonymous';

/**
 * Reads the objects token authenticators check credentials against (ServiceAccounts, their Secrets,
 * bound Pods). The server wires it to the generic store and its watch cache; authenticators never
 * touch storage themselves. Resolves to null when the object does not exist.
 */
export type ObjectGetter = (resource: 'serviceaccounts' | 'secrets' | 'pods', namespace: string, name: string) => Promise<ApiObject | null>;

/**
 * Sets labels on a Secret if it is still the one with `uid` (the legacy token tracking label). The
 * server wires it to the generic store; a failure is the server's to log, never the request's.
 */
export type SecretLabeler = (namespace: string, name: string, uid: string, labels: Record<string, string>) => Promise<void>;
