/**
 * Reads `Authorization: Bearer <token>` and hands the token to a token authenticator. A request
 * with no Authorization header is not this authenticator's; one whose header is present but is not a
 * usable bearer token (another scheme, an empty token, control characters) is rejected, so a client
 * that meant to send a credential never falls through to anonymous access.
 */
import { AuthenticationError, type RequestAuthenticator, type TokenAuthenticator } from './interfaces.js';

/** Tokens longer than this are refused before any authenticator parses them. */
export const MAX_TOKEN_BYTES = 64 * 1024;

/** A request authenticator for bearer tokens checked by `tokens`. */
export function newBearerTokenAuthenticator(tokens: TokenAuthenticator): RequestAuthenticator {
  return {
    async authenticate(req) {
      const header = req.headers.authorization;
      if (header === undefined) return null;
      const token = bearerToken(header);
      const user = await tokens.authenticateToken(token);
      if (!user) throw new AuthenticationError('invalid bearer token');
      return user;
    },
  };
}

/** The token of an Authorization header, or AuthenticationError saying what is wrong with it (never echoing it). */
export function bearerToken(header: string): string {
  const parts = header.trim().split(' ');
  if (parts.length < 2 || parts[0].toLowerCase() !== 'bearer')
    throw new AuthenticationError('invalid Authorization header: not a bearer token');
  const token = parts[1];
  if (token === '' || parts.length > 2) throw new AuthenticationError('invalid Authorization header: malformed bearer token');
  if (token.length > MAX_TOKEN_BYTES) throw new AuthenticationError('invalid bearer token: too long');
  if (/[\x00-\x20\x7f]/.test(token)) throw new AuthenticationError('invalid bearer token: control characters');
  return token;
}
