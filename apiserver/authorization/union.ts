/**
 * Chains authorizers like Kubernetes' union authorizer: the first Allow or Deny is final,
 * NoOpinion falls through. As the top-level authorizer, a request nobody has an opinion on is
 * denied, with the reasons given along the way.
 */
import type { Authorizer } from './interfaces.js';

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
          errors.push((err as Error).message); // like Kubernetes: another authorizer may still decide
          continue;
        }
        if (result.decision !== 'NoOpinion') return result;
        if (result.reason !== '') reasons.push(result.reason);
      }
      if (errors.length > 0) throw new Error(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
      return { decision: 'Deny', reason: reasons.join('\n') };
    },
  };
}
