import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Attributes } from '../../../apiserver/authorization/interfaces.js';
import { newAlwaysAllowAuthorizer } from '../../../apiserver/authorization/always-allow.js';
import { newAlwaysDenyAuthorizer } from '../../../apiserver/authorization/always-deny.js';
import { newPrivilegedGroupsAuthorizer } from '../../../apiserver/authorization/privileged-groups.js';
import { newAuthorizer } from '../../../apiserver/authorization/new-authorizer.js';

/** A request to list pods in `default`, by a user in `groups`. */
function attributes(groups: string[]): Attributes {
  return {
    user: { name: 'someone', groups },
    verb: 'list',
    resourceRequest: true,
    apiGroup: '',
    apiVersion: 'v1',
    resource: 'pods',
    subresource: '',
    namespace: 'default',
    name: '',
    path: '/api/v1/namespaces/default/pods',
  };
}

test('AlwaysAllow allows', async () => {
  assert.deepEqual(await newAlwaysAllowAuthorizer().authorize(attributes([])), { decision: 'Allow', reason: '' });
});

test('AlwaysDeny has no opinion, with a reason', async () => {
  assert.deepEqual(await newAlwaysDenyAuthorizer().authorize(attributes([])), {
    decision: 'NoOpinion',
    reason: 'Everything is forbidden.',
  });
});

test('privileged groups: system:masters is allowed, others get no opinion', async () => {
  const authz = newPrivilegedGroupsAuthorizer();
  assert.equal((await authz.authorize(attributes(['system:authenticated', 'system:masters']))).decision, 'Allow');
  assert.equal((await authz.authorize(attributes(['system:authenticated']))).decision, 'NoOpinion');
  assert.equal((await newPrivilegedGroupsAuthorizer(['admins']).authorize(attributes(['admins']))).decision, 'Allow');
});

test('newAuthorizer: AlwaysAllow allows everyone', async () => {
  assert.equal((await newAuthorizer(['AlwaysAllow']).authorizer.authorize(attributes(['system:unauthenticated']))).decision, 'Allow');
});

test('newAuthorizer: AlwaysDeny denies everyone but system:masters', async () => {
  const authz = newAuthorizer(['AlwaysDeny']).authorizer;
  assert.deepEqual(await authz.authorize(attributes(['system:authenticated'])), {
    decision: 'NoOpinion',
    reason: 'Everything is forbidden.',
  });
  assert.equal((await authz.authorize(attributes(['system:masters']))).decision, 'Allow');
});

test('newAuthorizer: modes are asked in order', async () => {
  assert.equal((await newAuthorizer(['AlwaysDeny', 'AlwaysAllow']).authorizer.authorize(attributes([]))).decision, 'Allow');
});
