import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PolicyFileError, parsePolicyFile, policyMatches } from '../../../apiserver/authorization/abac.js';
import type { Attributes } from '../../../apiserver/authorization/interfaces.js';

const attrs = (user: string, groups: string[], verb: string, what: Partial<Attributes>): Attributes => ({
  user: { name: user, groups },
  verb,
  resourceRequest: what.path === undefined,
  apiGroup: '',
  apiVersion: 'v1',
  resource: '',
  subresource: '',
  namespace: '',
  name: '',
  path: '',
  ...what,
});

test('ABAC policy file: one JSON policy per line, comments and blank lines skipped, the domain apiVersion only', () => {
  const text = ['# comment', '', '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"a"}}'].join(
    '\n',
  );
  assert.deepEqual(parsePolicyFile(text, 'kubernetes.io'), [{ user: 'a' }]);
  assert.throws(
    () => parsePolicyFile(text, 'orch.io', 'p.jsonl'),
    (e: unknown) =>
      e instanceof PolicyFileError && /^p\.jsonl line 3: not a abac\.authorization\.orch\.io\/v1beta1 Policy$/.test(e.message),
  );
  assert.throws(() => parsePolicyFile('{nope', 'orch.io'), /line 1: /);
});

test('ABAC matching: subject, readonly, resource or path', () => {
  const p = { user: 'jane', namespace: 'team', resource: 'pods', apiGroup: '', readonly: true };
  assert.ok(policyMatches(p, attrs('jane', [], 'list', { namespace: 'team', resource: 'pods' })));
  assert.ok(!policyMatches(p, attrs('jane', [], 'delete', { namespace: 'team', resource: 'pods' })));
  assert.ok(!policyMatches(p, attrs('bob', [], 'get', { namespace: 'team', resource: 'pods' })));
  assert.ok(!policyMatches(p, attrs('jane', [], 'get', { namespace: 'other', resource: 'pods' })));
  assert.ok(policyMatches({ group: '*', nonResourcePath: '/api*' }, attrs('x', ['g'], 'post', { path: '/apis/apps' })));
  assert.ok(!policyMatches({ group: 'g', nonResourcePath: '/api*' }, attrs('x', ['h'], 'get', { path: '/api' })));
  // A user and a group both must match; a policy naming neither matches nobody.
  assert.ok(
    !policyMatches({ user: 'x', group: 'g', resource: '*', namespace: '*', apiGroup: '*' }, attrs('x', ['h'], 'get', { resource: 'pods' })),
  );
  assert.ok(!policyMatches({ resource: '*', namespace: '*', apiGroup: '*' }, attrs('x', [], 'get', { resource: 'pods' })));
});
