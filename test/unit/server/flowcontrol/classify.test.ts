import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newApiDomain } from '../../../../apiserver/api/domain.js';
import type { FlowSchema } from '../../../../apiserver/api/generated/types.js';
import { asKind } from '../../../../apiserver/api/object.js';
import { flowControlBootstrap } from '../../../../apiserver/registry/flowcontrol/bootstrap-configuration.js';
import {
  ClassificationMemo,
  classify,
  matchesNonResourceRule,
  matchingKey,
  matchingOrder,
  type RequestDigest,
} from '../../../../apiserver/server/flowcontrol/classify.js';

const schemas = matchingOrder(flowControlBootstrap(newApiDomain()).flowSchemas.map((o) => asKind<FlowSchema>(o)));
const catchAll = schemas.find((s) => s.metadata.name === 'catch-all')!;
const digest = (over: Partial<RequestDigest>): RequestDigest => ({
  user: { name: 'jane', groups: ['system:authenticated'] },
  isResourceRequest: true,
  verb: 'get',
  apiGroup: '',
  namespace: 'default',
  resource: 'configmaps',
  subresource: '',
  path: '/api/v1/namespaces/default/configmaps/x',
  ...over,
});
const schemaOf = (d: Partial<RequestDigest>) => classify(schemas, catchAll, digest(d)).schema.metadata.name;

test('the bootstrap schemas classify as kube-apiserver 1.28 does', () => {
  assert.equal(schemaOf({ user: { name: 'admin', groups: ['system:masters', 'system:authenticated'] } }), 'exempt');
  assert.equal(schemaOf({}), 'global-default');
  assert.equal(schemaOf({ user: { name: 'system:anonymous', groups: ['system:unauthenticated'] } }), 'global-default');
  assert.equal(schemaOf({ user: { name: 'x', groups: [] } }), 'catch-all');
  const kcm = { name: 'system:kube-controller-manager', groups: ['system:authenticated'] };
  const lease = { apiGroup: 'coordination.orch.io', resource: 'leases', namespace: 'orch-system' };
  assert.equal(schemaOf({ user: kcm, verb: 'update', ...lease }), 'system-leader-election');
  assert.equal(schemaOf({ user: kcm, verb: 'list', ...lease }), 'kube-controller-manager');
  const sa = { name: 'system:serviceaccount:orch-system:job-controller', groups: ['system:serviceaccounts', 'system:authenticated'] };
  assert.equal(schemaOf({ user: sa, verb: 'update', ...lease }), 'system-leader-election');
  assert.equal(schemaOf({ user: sa, resource: 'pods' }), 'kube-system-service-accounts');
  const other = { name: 'system:serviceaccount:apps:builder', groups: ['system:serviceaccounts', 'system:authenticated'] };
  assert.equal(schemaOf({ user: other }), 'service-accounts');
  const node = { name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
  assert.equal(schemaOf({ user: node, resource: 'nodes', subresource: 'status', namespace: '' }), 'system-node-high');
  assert.equal(schemaOf({ user: node, resource: 'pods' }), 'system-nodes');
  // Probes of anyone are exempt; other non-resource paths are not.
  const probe = { isResourceRequest: false, verb: 'get', path: '/readyz', namespace: '', resource: '' };
  assert.equal(schemaOf(probe), 'probes');
  assert.equal(schemaOf({ ...probe, path: '/metrics' }), 'global-default');
});

test('distinguishers: by user, by namespace, or none', () => {
  const kcm = { name: 'system:kube-controller-manager', groups: ['system:authenticated'] };
  assert.equal(classify(schemas, catchAll, digest({})).distinguisher, 'jane');
  assert.equal(classify(schemas, catchAll, digest({ user: kcm, namespace: 'apps' })).distinguisher, 'apps');
  assert.equal(classify(schemas, catchAll, digest({ user: { name: 'a', groups: ['system:masters'] } })).distinguisher, '');
});

test('matching order: precedence, then name; a cluster-scoped request needs clusterScope', () => {
  const fs = (name: string, precedence: number, clusterScope: boolean): FlowSchema => ({
    metadata: { name },
    spec: {
      priorityLevelConfiguration: { name: 'x' },
      matchingPrecedence: precedence,
      rules: [
        {
          subjects: [{ kind: 'User', user: { name: '*' } }],
          resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope }],
        },
      ],
    },
  });
  const ordered = matchingOrder([fs('b', 10, false), fs('a', 10, true), fs('c', 5, false)]);
  assert.deepEqual(
    ordered.map((s) => s.metadata.name),
    ['c', 'a', 'b'],
  );
  assert.equal(classify(ordered, catchAll, digest({})).schema.metadata.name, 'c');
  assert.equal(classify(ordered, catchAll, digest({ namespace: '' })).schema.metadata.name, 'a');
});

test('non-resource URLs: exact, `*`, and a prefix matches below it', () => {
  const d = (path: string) => digest({ isResourceRequest: false, path, verb: 'get' });
  const rule = (url: string) => ({ verbs: ['get'], nonResourceURLs: [url] });
  assert.ok(matchesNonResourceRule(rule('/healthz'), d('/healthz')));
  assert.ok(matchesNonResourceRule(rule('/healthz'), d('/healthz/etcd')));
  assert.ok(matchesNonResourceRule(rule('/apis/*'), d('/apis/apps')));
  assert.ok(!matchesNonResourceRule(rule('/apis/*'), d('/apis')));
  assert.ok(matchesNonResourceRule(rule('*'), d('/anything')));
  assert.ok(!matchesNonResourceRule(rule('/healthz'), d('/healthzz')));
  assert.ok(!matchesNonResourceRule({ verbs: ['post'], nonResourceURLs: ['*'] }, d('/x')));
});

test('the memo classifies as classify does, remembering each matching key until reset', () => {
  const memo = new ClassificationMemo(8);
  const kcm = { name: 'system:kube-controller-manager', groups: ['system:authenticated'] };
  const lease = { apiGroup: 'coordination.orch.io', resource: 'leases', namespace: 'orch-system' };
  const cases: Partial<RequestDigest>[] = [
    {},
    { user: { name: 'admin', groups: ['system:masters'] } },
    { user: kcm, verb: 'update', ...lease },
    { user: kcm, verb: 'list', ...lease },
    { user: kcm, verb: 'update', ...lease, namespace: 'apps' },
    { isResourceRequest: false, verb: 'get', path: '/readyz', namespace: '', resource: '' },
    { isResourceRequest: false, verb: 'get', path: '/metrics', namespace: '', resource: '' },
  ];
  for (let round = 0; round < 2; round++)
    for (const c of cases) {
      const [want, got] = [classify(schemas, catchAll, digest(c)), memo.classify(schemas, catchAll, digest(c))];
      assert.equal(got.schema.metadata.name, want.schema.metadata.name, JSON.stringify(c));
      assert.equal(got.distinguisher, want.distinguisher, JSON.stringify(c));
    }
  assert.equal(memo.size, cases.length);
  // The key tells apart what any field could be made to look like: a name holding a group's name.
  const crafted = digest({ user: { name: 'x\u0000system:masters', groups: [] } });
  const member = digest({ user: { name: 'x', groups: ['system:masters'] } });
  assert.notEqual(matchingKey(crafted), matchingKey(member));
  assert.equal(memo.classify(schemas, catchAll, member).schema.metadata.name, 'exempt');
  assert.equal(memo.classify(schemas, catchAll, crafted).schema.metadata.name, 'catch-all');
  // The distinguisher is the request's own even when the schema is remembered.
  assert.equal(memo.classify(schemas, catchAll, digest({ user: { name: 'joe', groups: ['system:authenticated'] } })).distinguisher, 'joe');
  // Past its capacity the memo starts over; reset (the schemas changed) forgets everything.
  assert.ok(memo.size <= 8);
  for (let i = 0; i < 20; i++) memo.classify(schemas, catchAll, digest({ user: { name: `u${i}`, groups: [] } }));
  assert.ok(memo.size <= 8, `${memo.size} keys held`);
  // A long path (the client's own) is classified, and not held.
  memo.reset();
  const long = digest({ isResourceRequest: false, verb: 'get', path: `/healthz/${'x'.repeat(5000)}`, namespace: '', resource: '' });
  assert.equal(memo.classify(schemas, catchAll, long).schema.metadata.name, classify(schemas, catchAll, long).schema.metadata.name);
  assert.equal(memo.size, 0);
  const other = matchingOrder(schemas.filter((s) => s.metadata.name !== 'global-default'));
  assert.equal(memo.classify(other, catchAll, digest({})).schema.metadata.name, 'catch-all');
});
