/** Which writes a policy's matchConstraints or a binding's matchResources take in. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import { matchResources } from '../../../../apiserver/admission/policy/match-resources.js';
import type { MatchResources } from '../../../../apiserver/registry/admissionregistration/policy-types.js';
import { attrs, defOf } from '../fixture.js';

const rule = (over: Record<string, unknown> = {}) => ({
  apiGroups: ['apps'],
  apiVersions: ['v1'],
  operations: ['CREATE'],
  resources: ['deployments'],
  scope: '*',
  ...over,
});
const m = (over: MatchResources = {}): MatchResources => ({
  matchPolicy: 'Equivalent',
  namespaceSelector: {},
  objectSelector: {},
  resourceRules: [rule()],
  ...over,
});
const obj = (name: string, labels: Record<string, string> = {}): ApiObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, labels },
});
const write = (name = 'd', labels: Record<string, string> = {}) =>
  attrs({ group: 'apps', resource: 'deployments', namespace: 'ns', object: obj(name, labels) });
const NONE = { equivalents: () => [] };

test('resource rules: operation, group, resource and resourceNames', () => {
  assert.ok(matchResources(NONE, m(), write(), {}));
  assert.equal(matchResources(NONE, m({ resourceRules: [rule({ operations: ['UPDATE'] })] }), write(), {}), undefined);
  assert.equal(matchResources(NONE, m({ resourceRules: [rule({ resources: ['replicasets'] })] }), write(), {}), undefined);
  assert.ok(matchResources(NONE, m({ resourceRules: [{ ...rule(), resourceNames: ['d'] }] }), write('d'), {}));
  assert.equal(matchResources(NONE, m({ resourceRules: [{ ...rule(), resourceNames: ['other'] }] }), write('d'), {}), undefined);
});

test('excludeResourceRules win over resourceRules; no resourceRules match every resource', () => {
  assert.equal(matchResources(NONE, m({ excludeResourceRules: [{ ...rule(), resourceNames: ['d'] }] }), write('d'), {}), undefined);
  assert.ok(matchResources(NONE, m({ excludeResourceRules: [{ ...rule(), resourceNames: ['d'] }] }), write('e'), {}));
  assert.ok(matchResources(NONE, m({ resourceRules: [] }), write(), {}));
});

test('namespace and object selectors', () => {
  const ns = m({ namespaceSelector: { matchLabels: { env: 'test' } } });
  assert.ok(matchResources(NONE, ns, write(), { env: 'test' }));
  assert.equal(matchResources(NONE, ns, write(), { env: 'prod' }), undefined);
  const objects = m({ objectSelector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['web'] }] } });
  assert.ok(matchResources(NONE, objects, write('d', { tier: 'web' }), {}));
  assert.equal(matchResources(NONE, objects, write('d', { tier: 'db' }), {}), undefined);
});

test('matchPolicy Equivalent matches through an equivalent resource, Exact does not', () => {
  const a = write();
  const other = defOf('apps', 'replicasets');
  const env = {
    equivalents: () => [{ def: other, convert: (o: ApiObject) => ({ ...o, kind: 'Converted' }), convertBack: (o: ApiObject) => o }],
  };
  const rules = [rule({ resources: ['replicasets'] })];
  const matched = matchResources(env, m({ resourceRules: rules }), a, {});
  assert.equal(matched?.target.resource, 'replicasets');
  assert.equal(matched?.kind, 'ReplicaSet');
  assert.equal(matched?.convert(obj('x')).kind, 'Converted');
  assert.equal(matchResources(env, m({ resourceRules: rules, matchPolicy: 'Exact' }), a, {}), undefined);
});
