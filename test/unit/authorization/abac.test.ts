import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PolicyFileError, parsePolicyFile, policyMatches } from '../../../apiserver/authorization/abac.js';
import type { Attributes } from '../../../apiserver/authorization/interfaces.js';
import { newApiDomain } from '../../../apiserver/api/domain.js';

const orch = newApiDomain();

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

test('ABAC policy file: one JSON policy per line, comments and blank lines skipped', () => {
  const text = ['# comment', '', '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"a"}}'].join(
    '\n',
  );
  assert.deepEqual(parsePolicyFile(text, newApiDomain('k8s.io')), [{ user: 'a' }]);
  assert.throws(() => parsePolicyFile('{nope', orch), /line 1: /);
  assert.throws(
    () => parsePolicyFile('\n{"apiVersion":"abac.authorization.kubernetes.io/v2","kind":"Policy","spec":{}}', orch, 'p.jsonl'),
    (e: unknown) =>
      e instanceof PolicyFileError &&
      /^p\.jsonl line 2: want kind Policy of apiVersion abac\.authorization\.kubernetes\.io\/v1beta1, .*abac\.authorization\.orch\.io\/v1beta1.*; got kind "Policy" of apiVersion "abac\.authorization\.kubernetes\.io\/v2"$/.test(
        e.message,
      ),
  );
  assert.throws(
    () => parsePolicyFile('{"apiVersion":"abac.authorization.orch.io/v1beta1","kind":"Policy","spec":{}}', newApiDomain('k8s.io')),
    /want kind Policy/,
  );
});

test("ABAC policy file in the default domain: Kubernetes' apiVersion, the domain's, v0 and unversioned lines", () => {
  const lines = [
    '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"a","namespace":"*","resource":"*","apiGroup":"*"}}',
    '{"apiVersion":"abac.authorization.orch.io/v1beta1","kind":"Policy","spec":{"group":"g","nonResourcePath":"/x"}}',
    '{"apiVersion":"abac.authorization.kubernetes.io/v0","kind":"Policy","user":"b","readonly":true,"resource":"pods"}',
    '{"user":"*"}',
  ];
  assert.deepEqual(parsePolicyFile(lines.join('\n'), orch), [
    { user: 'a', namespace: '*', resource: '*', apiGroup: '*' },
    { group: 'g', nonResourcePath: '/x' },
    { user: 'b', readonly: true, resource: 'pods', namespace: '*', apiGroup: '*' },
    { group: 'system:authenticated', namespace: '*', resource: '*', apiGroup: '*', nonResourcePath: '*' },
  ]);
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
