/** --authorization-mode=AlwaysAllow: every request is allowed. */
import type { Authorizer, RuleResolver } from './interfaces.js';

/** An authorizer that allows everything; its rules are `*` on everything. */
export function newAlwaysAllowAuthorizer(): Authorizer & RuleResolver {
  return {
    async authorize() {
      return { decision: 'Allow', reason: '' };
    },
    rulesFor() {
      return {
        resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
        nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
        incomplete: false,
        errors: [],
      };
    },
  };
}
