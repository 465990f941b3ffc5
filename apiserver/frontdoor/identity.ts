/**
 * Who a request through the front door is, as the replicas will hear it. Identity headers a client
 * sent are always removed (only the proxy asserts identities). A client certificate that chains to
 * --client-ca-file is authenticated exactly as the API server does it (user = CN, groups = O) and
 * forwarded in the request headers, over the proxy's own client certificate; a certificate that
 * does not verify is refused. Anything else (bearer tokens, anonymous requests) passes through
 * untouched, and the replica authenticates it.
 */
import type { IncomingMessage } from 'node:http';
import type { UserInfo } from '../api/user-info.js';
import type { RequestAuthenticator } from '../authentication/interfaces.js';
import { newX509Authenticator } from '../authentication/x509.js';

export interface IdentityHeaderNames {
  usernameHeader: string;
  groupHeader: string;
  extraHeaderPrefix: string;
}

/** What to forward: identity headers to add (over the proxy certificate), or none (pass through). */
export type ForwardedIdentity = { user: UserInfo; headers: Record<string, string | string[]> } | { user: null };

export interface IdentityForwarder {
  /** Strips the client's identity headers; throws AuthenticationError for a certificate that does not verify. */
  identify(req: IncomingMessage): Promise<ForwardedIdentity>;
}

export function newIdentityForwarder(clientCA: string | undefined, names: IdentityHeaderNames): IdentityForwarder {
  const authenticator: RequestAuthenticator | undefined = clientCA ? newX509Authenticator(clientCA) : undefined;
  const username = names.usernameHeader.toLowerCase();
  const group = names.groupHeader.toLowerCase();
  const prefix = names.extraHeaderPrefix.toLowerCase();
  return {
    async identify(req) {
      for (const header of Object.keys(req.headers)) {
        if (header === username || header === group || header.startsWith(prefix)) delete req.headers[header];
      }
      const user = authenticator ? await authenticator.authenticate(req) : null;
      if (!user) return { user: null };
      return { user, headers: identityHeaders(user, names) };
    },
  };
}

/** The request headers naming `user`: one for the name, one per group, one per extra key and value. */
export function identityHeaders(user: UserInfo, names: IdentityHeaderNames): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = { [names.usernameHeader]: user.name };
  if (user.groups.length > 0) headers[names.groupHeader] = [...user.groups];
  for (const [key, values] of Object.entries(user.extra ?? {})) headers[`${names.extraHeaderPrefix}${encodeURIComponent(key)}`] = values;
  return headers;
}
