/**
 * Builds the request authenticator kube-apiserver style, from the enabled methods: client
 * certificates first, then bearer tokens (every token method in one union), anonymous last.
 */
import { newAnonymousAuthenticator } from './anonymous.js';
import { newBearerTokenAuthenticator } from './bearer-token.js';
import type { RequestAuthenticator, TokenAuthenticator } from './interfaces.js';
import { newUnionAuthenticator, newUnionTokenAuthenticator } from './union.js';
import { newX509Authenticator } from './x509.js';

/** The enabled methods. */
export interface AuthenticationConfig {
  /** PEM bundle of the CAs client certificates must chain to (--client-ca-file). */
  clientCA?: string;
  /** Request authenticators that go before bearer tokens (the authenticating proxy's request headers). */
  requestAuthenticators?: RequestAuthenticator[];
  /** Token methods, in the order they are asked. */
  tokenAuthenticators: TokenAuthenticator[];
  /** Requests without credentials are system:anonymous. */
  anonymous: boolean;
}

/** The request authenticator of `config`. */
export function newAuthenticator(config: AuthenticationConfig): RequestAuthenticator {
  const list: RequestAuthenticator[] = [...(config.requestAuthenticators ?? [])];
  if (config.clientCA) list.push(newX509Authenticator(config.clientCA));
  if (config.tokenAuthenticators.length > 0) list.push(newBearerTokenAuthenticator(newUnionTokenAuthenticator(config.tokenAuthenticators)));
  if (config.anonymous) list.push(newAnonymousAuthenticator());
  return newUnionAuthenticator(list);
}
