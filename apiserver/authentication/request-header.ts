/**
 * The authenticating proxy (--requestheader-*): a front proxy that authenticated the user passes
 * the identity in headers (X-Remote-User, X-Remote-Group, X-Remote-Extra-<key>). The headers are
 * believed only on a request whose client certificate chains to --requestheader-client-ca-file and,
 * when --requestheader-allowed-names is set, whose CN is one of them. Whatever the outcome, the
 * headers are removed from the request, so nothing later can mistake a client's own for the proxy's.
 */
import type { IncomingMessage } from 'node:http';
import { AuthenticationError, type RequestAuthenticator, type UserInfo } from './interfaces.js';
import { commonName, newClientCertVerifier } from './x509.js';

export interface RequestHeaderConfig {
  usernameHeaders: readonly string[];
  groupHeaders: readonly string[];
  extraHeaderPrefixes: readonly string[];
  /** PEM bundle of the CAs the proxy's client certificate must chain to. */
  clientCA: string;
  /** CNs the proxy's certificate may have; empty = any. */
  allowedNames: readonly string[];
}

export function newRequestHeaderAuthenticator(config: RequestHeaderConfig): RequestAuthenticator {
  const verifier = newClientCertVerifier(config.clientCA);
  const usernames = config.usernameHeaders.map((h) => h.toLowerCase());
  const groups = config.groupHeaders.map((h) => h.toLowerCase());
  const prefixes = config.extraHeaderPrefixes.map((h) => h.toLowerCase());
  const strip = (req: IncomingMessage) => {
    for (const header of Object.keys(req.headers)) {
      if (usernames.includes(header) || groups.includes(header) || prefixes.some((p) => header.startsWith(p))) delete req.headers[header];
    }
  };
  return {
    async authenticate(req) {
      // Read before stripping; believed only below, once the certificate checks out.
      const name = usernames.map((h) => req.headersDistinct[h]?.[0]).find((v) => v !== undefined && v !== '');
      const groupValues = groups.flatMap((h) => req.headersDistinct[h] ?? []);
      const extra: Record<string, string[]> = {};
      for (const [header, values] of Object.entries(req.headersDistinct)) {
        const prefix = prefixes.find((p) => header.startsWith(p));
        if (!prefix || !values) continue;
        let key: string;
        try {
          key = decodeURIComponent(header.slice(prefix.length)).toLowerCase();
        } catch {
          key = header.slice(prefix.length).toLowerCase();
        }
        extra[key] = [...(extra[key] ?? []), ...values];
      }
      strip(req);
      let peer;
      try {
        peer = verifier(req);
      } catch (err) {
        // A certificate from another CA may be a user's own: not this authenticator's.
        if (err instanceof AuthenticationError) return null;
        throw err;
      }
      if (!peer || name === undefined) return null;
      const cn = commonName(peer) ?? '';
      if (config.allowedNames.length > 0 && !config.allowedNames.includes(cn)) {
        throw new AuthenticationError(`client certificate CN ${JSON.stringify(cn)} is not allowed to assert identities in request headers`);
      }
      const user: UserInfo = { name, groups: groupValues };
      if (Object.keys(extra).length > 0) user.extra = extra;
      return user;
    },
  };
}
