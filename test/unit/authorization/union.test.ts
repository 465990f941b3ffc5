import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Attributes, Authorizer, Decision } from '../../../apiserver/authorization/interfaces.js';
import { newUnionAuthorizer } from '../../../apiserver/authorization/union.js';

const request: Attributes = {
  user: { name: 'someone', groups: [] },
  verb: 'get',
  resourceRequest: false,
  apiGroup: '',
  apiVersion: '',
  resource: '',
  subresource: '',
  namespace: '',
  name: '',
  path: '/version',
};

function fixed(decision: Decision, reason = '', calls?: string[]): Authorizer {
  return {
    async authorize() {
      calls?.push(`${decision}:${reason}`);
      return { decision, reason };
    },
  };
}

const failing: Authorizer = {
  async authorize() {
    throw new Error('webhook unreachable');
  },
};

test('the first Allow wins and later authorizers are not asked', async () => {
  const calls: string[] = [];
  const union = newUnionAuthorizer([fixed('NoOpinion', 'a', calls), fixed('Allow', 'b', calls), fixed('Deny', 'c', calls)]);
  assert.deepEqual(await union.authorize(request), { decision: 'Allow', reason: 'b' });
  assert.deepEqual(calls, ['NoOpinion:a', 'Allow:b']);
});

test('the first Deny wins', async () => {
  const union = newUnionAuthorizer([fixed('Deny', 'no'), fixed('Allow')]);
  assert.deepEqual(await union.authorize(request), { decision: 'Deny', reason: 'no' });
});

test('when nobody has an opinion the request is denied with every reason', async () => {
  const union = newUnionAuthorizer([fixed('NoOpinion', 'first'), fixed('NoOpinion'), fixed('NoOpinion', 'second')]);
  assert.deepEqual(await union.authorize(request), { decision: 'NoOpinion', reason: 'first\nsecond' });
  assert.deepEqual(await newUnionAuthorizer([]).authorize(request), { decision: 'NoOpinion', reason: '' });
});

test('an authorizer error does not stop a later decision, but surfaces when none decides', async () => {
  assert.equal((await newUnionAuthorizer([failing, fixed('Allow')]).authorize(request)).decision, 'Allow');
  await assert.rejects(newUnionAuthorizer([failing, fixed('NoOpinion')]).authorize(request), { message: 'webhook unreachable' });
});
