/**
 * Chains authorizers like Kubernetes' union authorizer: the first Allow or Deny is final,
 * NoOpinion falls through; when nobody decides the answer is NoOpinion with every reason given
 * along the way (the request filter refuses anything but Allow; an access review reports
 * allowed=false without denied).
 */
import type { Authorizer, RuleResolver, RulesResult } from './interfaces.js';
import { messageOf } from '../api/thrown.js';

/** One authorizer asking `authorizers` in order. */
export function newUnionAuthorizer(authorizers: Authorizer[]): Authorizer {
  return {
    async authorize(a) {
      const reasons: string[] = [];
      const errors: string[] = [];
      for (const authorizer of authorizers) {
        let result;
        try {
          result = await authorizer.authorize(a);
        } catch (err) {
          errors.push(messageOf(err)); // like Kubernetes: another authorizer may still decide
          continue;
        }
        if (result.decision !== 'NoOpinion') return result;
        if (result.reason !== '') reasons.push(result.reason);
      }
      if (errors.length > 0) throw new Error(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
      return { decision: 'NoOpinion', reason: reasons.join('\n') };
    },
  };
}

/** The rules of every mode together; incomplete when any mode's are. */
export function newUnionRuleResolver(resolvers: RuleResolver[]): RuleResolver {
  return {
    rulesFor(user, namespace) {
      const all: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false, errors: [] };
      for (const r of resolvers) {
        const one = r.rulesFor(user, namespace);
        all.resourceRules.push(...one.resourceRules);
        all.nonResourceRules.push(...one.nonResourceRules);
        all.incomplete ||= one.incomplete;
        all.errors.push(...one.errors);
      }
      return all;
    },
  };
}
