/** The access review kinds, answered by the server's authorizer (authorization/reviews/). */
import type { VirtualCreate } from '../endpoints/handlers/scope.js';
import { type ReviewEnv, type ReviewKind, review } from '../authorization/reviews/access-reviews.js';

const KINDS: ReviewKind[] = ['SubjectAccessReview', 'LocalSubjectAccessReview', 'SelfSubjectAccessReview', 'SelfSubjectRulesReview'];

export function newReviewKinds(env: ReviewEnv): Map<string, VirtualCreate> {
  return new Map(KINDS.map((kind) => [kind, (object, request) => review(env, kind, object, request)]));
}
