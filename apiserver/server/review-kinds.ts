/** The access review kinds, answered by the server's authorizer (authorization/reviews/). */
import { ephemeralKey, type EphemeralHandler } from '../endpoints/handlers/ephemeral.js';
import { type ReviewEnv, type ReviewKind, review } from '../authorization/reviews/access-reviews.js';

const KINDS: [ReviewKind, string][] = [
  ['SubjectAccessReview', 'subjectaccessreviews'],
  ['LocalSubjectAccessReview', 'localsubjectaccessreviews'],
  ['SelfSubjectAccessReview', 'selfsubjectaccessreviews'],
  ['SelfSubjectRulesReview', 'selfsubjectrulesreviews'],
];

/** The handlers of the access reviews, by ephemeralKey(). */
export function newReviewKinds(env: ReviewEnv): Map<string, EphemeralHandler> {
  return new Map(
    KINDS.map(([kind, plural]) => [
      ephemeralKey(env.group, plural),
      (r) => review(env, kind, r.object, { user: r.user, namespace: r.namespace }),
    ]),
  );
}
