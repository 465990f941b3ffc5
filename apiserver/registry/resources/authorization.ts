/**
 * `authorization.k8s.io/v1` (served as authorization.<domain>/v1): the access reviews. Never stored:
 * a POST is answered by the server's authorizer (authorization/reviews/) and only create is served.
 */
import type { ResourceDeclaration } from '../../api/resource.js';

const review = (kind: string, plural: string, namespaced: boolean): ResourceDeclaration => ({
  kubernetesGroup: 'authorization.k8s.io',
  version: 'v1',
  kind,
  plural,
  singular: plural.slice(0, -1),
  namespaced,
  schema: `authorization.v1.${kind}`,
  nameRule: 'path-segment',
  verbs: ['create'],
  ephemeral: true,
});

export const authorizationResources: ResourceDeclaration[] = [
  review('LocalSubjectAccessReview', 'localsubjectaccessreviews', true),
  review('SelfSubjectAccessReview', 'selfsubjectaccessreviews', false),
  review('SelfSubjectRulesReview', 'selfsubjectrulesreviews', false),
  review('SubjectAccessReview', 'subjectaccessreviews', false),
];
