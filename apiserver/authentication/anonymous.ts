/**
 * The anonymous authenticator: every request is system:anonymous in group system:unauthenticated.
 * It goes last, so it only names requests that carry no credential at all.
 */
import { ALL_UNAUTHENTICATED_GROUP, ANONYMOUS_USER, type RequestAuthenticator } from './interfaces.js';

/** An authenticator that accepts every request as the anonymous user. */
export function newAnonymousAuthenticator(): RequestAuthenticator {
  return {
    async authenticate() {
      return { name: ANONYMOUS_USER, groups: [ALL_UNAUTHENTICATED_GROUP] };
    },
  };
}
