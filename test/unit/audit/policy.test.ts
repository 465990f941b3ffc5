import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AuditPolicy, checkPolicy } from '../../../apiserver/audit/policy.js';
import type { AuditAttributes, Policy } from '../../../apiserver/audit/types.js';
import { newApiDomain } from '../../../apiserver/api/domain.js';

const V = 'audit.orch.io/v1';
const D = newApiDomain();
const group = (g: string) => (g.endsWith('.k8s.io') ? g.replace(/k8s\.io$/, 'orch.io') : g);
const attrs = (over: Partial<AuditAttributes>): AuditAttributes => ({
  user: { name: 'jane', groups: ['devs', 'system:authenticated'] },
  verb: 'get',
  isResourceRequest: true,
  path: '/api/v1/namespaces/default/pods/p',
  apiGroup: '',
  namespace: 'default',
  resource: 'pods',
  subresource: '',
  name: 'p',
  ...over,
});
const levelOf = (policy: Policy, a: Partial<AuditAttributes>) => new AuditPolicy(policy, group).decide(attrs(a)).level;

describe('audit policy', () => {
  it('takes the first matching rule; no match is None', () => {
    const p: Policy = { rules: [{ level: 'Request', users: ['jane'] }, { level: 'Metadata' }] };
    assert.equal(levelOf(p, {}), 'Request');
    assert.equal(levelOf(p, { user: { name: 'joe', groups: [] } }), 'Metadata');
    assert.equal(levelOf({ rules: [{ level: 'Metadata', verbs: ['list'] }] }, {}), 'None');
  });

  it('matches user groups, verbs and namespaces ("" is cluster scope)', () => {
    const p: Policy = { rules: [{ level: 'Request', userGroups: ['devs'], verbs: ['get'], namespaces: ['default', ''] }] };
    assert.equal(levelOf(p, {}), 'Request');
    assert.equal(levelOf(p, { namespace: '', resource: 'nodes' }), 'Request');
    assert.equal(levelOf(p, { namespace: 'other' }), 'None');
    assert.equal(levelOf(p, { verb: 'list' }), 'None');
    assert.equal(levelOf(p, { user: { name: 'jane', groups: ['ops'] } }), 'None');
    assert.equal(levelOf(p, { isResourceRequest: false, path: '/version' }), 'None', 'namespaced rules never match non-resource requests');
  });

  it('matches resources by group, "*", "res/sub", "*/sub", "res/*" and resource names', () => {
    const rule = (resources: string[], resourceNames?: string[]): Policy => ({
      rules: [{ level: 'Metadata', resources: [{ group: '', resources, resourceNames }] }],
    });
    assert.equal(levelOf(rule(['pods']), {}), 'Metadata');
    assert.equal(levelOf(rule(['pods']), { subresource: 'log' }), 'None');
    assert.equal(levelOf(rule(['pods/log']), { subresource: 'log' }), 'Metadata');
    assert.equal(levelOf(rule(['*/log']), { subresource: 'log' }), 'Metadata');
    assert.equal(levelOf(rule(['*/log']), {}), 'None');
    assert.equal(levelOf(rule(['pods/*']), { subresource: 'status' }), 'Metadata');
    assert.equal(levelOf(rule(['*']), { resource: 'configmaps' }), 'Metadata');
    assert.equal(levelOf(rule(['pods'], ['p']), {}), 'Metadata');
    assert.equal(levelOf(rule(['pods'], ['q']), {}), 'None');
    assert.equal(levelOf(rule(['pods']), { apiGroup: 'apps' }), 'None');
    assert.equal(
      levelOf({ rules: [{ level: 'Metadata', resources: [{ group: 'apps' }] }] }, { apiGroup: 'apps', resource: 'deployments' }),
      'Metadata',
    );
  });

  it('matches non-resource URLs exactly, by prefix*, or "*"', () => {
    const p: Policy = { rules: [{ level: 'Metadata', nonResourceURLs: ['/healthz*', '/version'] }] };
    const nr = (path: string) => levelOf(p, { isResourceRequest: false, path });
    assert.equal(nr('/healthz/etcd'), 'Metadata');
    assert.equal(nr('/version'), 'Metadata');
    assert.equal(nr('/versions'), 'None');
    assert.equal(levelOf(p, { path: '/version' }), 'None', 'resource requests never match non-resource rules');
  });

  it('unions the policy’s and the rule’s omitted stages', () => {
    const d = new AuditPolicy(
      { omitStages: ['RequestReceived'], rules: [{ level: 'Metadata', omitStages: ['ResponseStarted'] }] },
      group,
    ).decide(attrs({}));
    assert.deepEqual([...d.omitStages].sort(), ['RequestReceived', 'ResponseStarted']);
  });

  it('never logs bodies of Secrets, TokenRequests or TokenReviews', () => {
    const p: Policy = { rules: [{ level: 'RequestResponse' }] };
    assert.equal(levelOf(p, { resource: 'secrets' }), 'Metadata');
    assert.equal(levelOf(p, { resource: 'serviceaccounts', subresource: 'token' }), 'Metadata');
    assert.equal(levelOf(p, { resource: 'serviceaccounts' }), 'RequestResponse');
    assert.equal(levelOf(p, { apiGroup: 'authentication.orch.io', resource: 'tokenreviews', namespace: '' }), 'Metadata');
    assert.equal(levelOf({ rules: [{ level: 'None' }] }, { resource: 'secrets' }), 'None');
  });

  it('refuses files of another kind or version, bad levels and stages, and mixed rules', () => {
    const ok = { apiVersion: V, kind: 'Policy', rules: [{ level: 'Metadata' }] };
    assert.deepEqual(checkPolicy(ok, D).rules, [{ level: 'Metadata' }]);
    assert.throws(
      () => checkPolicy({ ...ok, apiVersion: 'audit.k8s.io/v1beta1' }, D),
      /want kind Policy of apiVersion audit.k8s.io\/v1, audit.orch.io\/v1; got kind "Policy" of apiVersion "audit.k8s.io\/v1beta1"/,
    );
    assert.throws(() => checkPolicy({ ...ok, kind: 'AuditPolicy' }, D), /want kind Policy/);
    assert.throws(() => checkPolicy({ ...ok, rules: [{ level: 'Everything' }] }, D), /rules\[0\]\.level: Unsupported value: "Everything"/);
    assert.throws(() => checkPolicy({ ...ok, omitStages: ['Later'] }, D), /omitStages: Unsupported value: "Later"/);
    assert.throws(
      () => checkPolicy({ ...ok, rules: [{ level: 'None', namespaces: ['a'], nonResourceURLs: ['/x'] }] }, D),
      /rules cannot apply to both regular resources and non-resource URLs/,
    );
    assert.throws(() => checkPolicy({ ...ok, rules: [] }, D), /no rules/);
  });

  it("accepts Kubernetes' audit.k8s.io/v1 in the default domain, and only it in k8s.io", () => {
    const kube = { apiVersion: 'audit.k8s.io/v1', kind: 'Policy', rules: [{ level: 'Metadata' }] };
    assert.deepEqual(checkPolicy(kube, D).rules, [{ level: 'Metadata' }]);
    assert.deepEqual(checkPolicy(kube, newApiDomain('k8s.io')).rules, [{ level: 'Metadata' }]);
    assert.throws(
      () => checkPolicy({ ...kube, apiVersion: V }, newApiDomain('k8s.io')),
      /want kind Policy of apiVersion audit.k8s.io\/v1;/,
    );
  });
});
