/** The access review kinds, answered by the server's authorizer (authorization/reviews/). */
import { type Answer, answerKey } from '../registry/generic/actions.js';
import { type ReviewEnv, type ReviewKind, review } from '../authorization/reviews/access-reviews.js';

const KINDS: [ReviewKind, string][] = [
  ['SubjectAccessReview', 'subjectaccessreviews'],
  ['LocalSubjectAccessReview', 'localsubjectaccessreviews'],
  ['SelfSubjectAccessReview', 'selfsubjectaccessreviews'],
  ['SelfSubjectRulesReview', 'selfsubjectrulesreviews'],
];

/** The answers of the access reviews, by answerKey(). */
export function newReviewKinds(env: ReviewEnv): Map<string, Answer> {
  return new Map(
    KINDS.map(([kind, plural]) => [
      answerKey(env.group, plural),
      (r) => review(env, kind, r.object, { user: r.user, namespace: r.namespace }),
    ]),
  );
}
