import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRequestInfo } from '../../../apiserver/endpoints/request/request-info.js';
import { forbiddenError, requestAttributes } from '../../../apiserver/server/filters/with-authorization.js';

const user = { name: 'jane', groups: ['system:authenticated'] };
const refusal = (method: string, url: string, reason = '') =>
  forbiddenError(requestAttributes(parseRequestInfo(method, url), user), reason).status;

test('forbidden: a namespaced resource, with its name', () => {
  const s = refusal('GET', '/apis/apps/v1/namespaces/ns1/deployments/d1');
  assert.equal(s.code, 403);
  assert.equal(s.reason, 'Forbidden');
  assert.equal(
    s.message,
    'deployments.apps "d1" is forbidden: User "jane" cannot get resource "deployments" in API group "apps" in the namespace "ns1"',
  );
  assert.deepEqual(s.details, { name: 'd1', group: 'apps', kind: 'deployments' });
});

test('forbidden: a collection at the cluster scope, a subresource, a reason', () => {
  assert.equal(
    refusal('GET', '/api/v1/pods').message,
    'pods is forbidden: User "jane" cannot list resource "pods" in API group "" at the cluster scope',
  );
  assert.equal(
    refusal('PUT', '/api/v1/namespaces/a/pods/p/status', 'no RBAC policy matched').message,
    'pods "p" is forbidden: User "jane" cannot update resource "pods/status" in API group "" in the namespace "a": no RBAC policy matched',
  );
  assert.deepEqual(refusal('GET', '/api/v1/nodes').details, { kind: 'nodes' });
});

test('forbidden: a list of one name by field selector names it', () => {
  assert.equal(
    refusal('GET', '/api/v1/namespaces/a/secrets?watch=true&fieldSelector=metadata.name%3Ds').message,
    'secrets "s" is forbidden: User "jane" cannot watch resource "secrets" in API group "" in the namespace "a"',
  );
});

test('forbidden: a non-resource path', () => {
  const s = refusal('GET', '/metrics');
  assert.equal(s.message, 'forbidden: User "jane" cannot get path "/metrics"');
  assert.deepEqual(s.details, {});
});
