/**
 * authentication.k8s.io: TokenReview and SelfSubjectReview, never stored — the server answers a POST
 * with what its authenticators say. (TokenRequest is the serviceaccounts/token subresource, in core.ts.)
 */
import type { ResourceDeclaration } from '../../api/resource.js';

const GROUP = 'authentication.k8s.io';

const review = (kind: 'TokenReview' | 'SelfSubjectReview', version: string): ResourceDeclaration => ({
  kubernetesGroup: GROUP,
  version,
  kind,
  plural: `${kind.toLowerCase()}s`,
  singular: kind.toLowerCase(),
  namespaced: false,
  // Kubernetes 1.28 no longer describes v1beta1 TokenReview; its fields are v1's.
  schema: kind === 'TokenReview' ? 'authentication.v1.TokenReview' : `authentication.${version}.${kind}`,
  nameRule: 'dns-subdomain',
  verbs: ['create'],
  ephemeral: true,
});

export const authenticationResources: readonly ResourceDeclaration[] = [
  review('TokenReview', 'v1'),
  review('SelfSubjectReview', 'v1'),
  review('TokenReview', 'v1beta1'),
  review('SelfSubjectReview', 'v1beta1'),
];
