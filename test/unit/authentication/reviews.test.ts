import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../apiserver/api/object.js';
import type { TokenAuthenticator, UserInfo } from '../../../apiserver/authentication/interfaces.js';
import { newTokenReviewHandler } from '../../../apiserver/authentication/reviews.js';

const review = async (user: UserInfo) => {
  const tokens: TokenAuthenticator = { authenticateToken: async () => user };
  const answer = await newTokenReviewHandler(tokens)({ object: { metadata: {}, spec: { token: 't' } } as ApiObject });
  return (answer.status as { user: { groups: string[] } }).user.groups;
};

test('TokenReview: an authenticated user is in system:authenticated, as kube-apiserver says', async () => {
  const sa = { name: 'system:serviceaccount:ns:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'] };
  assert.deepEqual(await review(sa), ['system:serviceaccounts', 'system:serviceaccounts:ns', 'system:authenticated']);
  assert.deepEqual(await review({ name: 'admin', groups: ['system:masters', 'system:authenticated'] }), [
    'system:masters',
    'system:authenticated',
  ]);
});
