/** --authorization-mode=AlwaysAllow: every request is allowed. */
import type { Authorizer } from './interfaces.js';

/** An authorizer that allows everything. */
export function newAlwaysAllowAuthorizer(): Authorizer {
  return {
    async authorize() {
      return { decision: 'Allow', reason: '' };
    },
  };
}
