/**
 * --authorization-mode=AlwaysDeny: like Kubernetes' it has no opinion on anything, so a request
 * is refused unless an authorizer before it (such as the privileged-group one) allows it.
 */
import type { Authorizer, RuleResolver } from './interfaces.js';

/** An authorizer that forbids everything it is asked about; it grants no rules. */
export function newAlwaysDenyAuthorizer(): Authorizer & RuleResolver {
  return {
    async authorize() {
      return { decision: 'NoOpinion', reason: 'Everything is forbidden.' };
    },
    rulesFor() {
      return { resourceRules: [], nonResourceRules: [], incomplete: false, errors: [] };
    },
  };
}
