import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newRbacAuthorizer } from '../../../../apiserver/authorization/rbac.js';
import { ruleAllows } from '../../../../apiserver/authorization/rbac/rule-matching.js';
import { RBAC_GROUP, binding, clusterRole, group, policy, request, role, serviceAccount, user } from './rbac-fixtures.js';

const jane = { name: 'jane' };

test('rule matching: verbs, groups, resources, names and wildcards', () => {
  const rule = { verbs: ['get', 'list'], apiGroups: ['', 'apps'], resources: ['pods', 'deployments/scale'], resourceNames: [] };
  assert.ok(ruleAllows(request(jane, 'get', { resource: 'pods' }), rule));
  assert.ok(ruleAllows(request(jane, 'list', { group: 'apps', resource: 'deployments', subresource: 'scale' }), rule));
  assert.ok(!ruleAllows(request(jane, 'watch', { resource: 'pods' }), rule));
  assert.ok(!ruleAllows(request(jane, 'get', { group: 'batch', resource: 'pods' }), rule));
  assert.ok(!ruleAllows(request(jane, 'get', { group: 'apps', resource: 'deployments' }), rule));
  assert.ok(!ruleAllows(request(jane, 'get', { resource: 'pods', subresource: 'log' }), rule));
  const star = { verbs: ['*'], apiGroups: ['*'], resources: ['*'] };
  assert.ok(ruleAllows(request(jane, 'escalate', { group: 'x', resource: 'y', subresource: 'z' }), star));
  const anyScale = { verbs: ['update'], apiGroups: ['*'], resources: ['*/scale'] };
  assert.ok(ruleAllows(request(jane, 'update', { group: 'apps', resource: 'deployments', subresource: 'scale' }), anyScale));
  assert.ok(!ruleAllows(request(jane, 'update', { group: 'apps', resource: 'deployments' }), anyScale));
  assert.ok(!ruleAllows(request(jane, 'update', { group: 'apps', resource: 'deployments', subresource: 'status' }), anyScale));
  const named = { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] };
  assert.ok(ruleAllows(request(jane, 'get', { resource: 'configmaps', name: 'a' }), named));
  assert.ok(!ruleAllows(request(jane, 'get', { resource: 'configmaps', name: 'b' }), named));
  assert.ok(!ruleAllows(request(jane, 'list', { resource: 'configmaps' }), named));
});

test('rule matching: non-resource URLs, exact or by a trailing *', () => {
  const rule = { verbs: ['get'], nonResourceURLs: ['/healthz', '/apis/*'] };
  assert.ok(ruleAllows(request(jane, 'get', { path: '/healthz' }), rule));
  assert.ok(!ruleAllows(request(jane, 'get', { path: '/healthz/etcd' }), rule));
  assert.ok(ruleAllows(request(jane, 'get', { path: '/apis/apps/v1' }), rule));
  assert.ok(ruleAllows(request(jane, 'get', { path: '/apis/' }), rule));
  assert.ok(!ruleAllows(request(jane, 'get', { path: '/apis' }), rule));
  assert.ok(!ruleAllows(request(jane, 'post', { path: '/healthz' }), rule));
  assert.ok(ruleAllows(request(jane, 'get', { path: '/anything' }), { verbs: ['get'], nonResourceURLs: ['*'] }));
  // A resource rule never allows a path, a URL rule never a resource.
  assert.ok(!ruleAllows(request(jane, 'get', { path: '/healthz' }), { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }));
  assert.ok(!ruleAllows(request(jane, 'get', { resource: 'pods' }), { verbs: ['*'], nonResourceURLs: ['*'] }));
});

const readPods = { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] };
const editConfigMaps = { verbs: ['*'], apiGroups: [''], resources: ['configmaps'] };

test('RBAC: a RoleBinding grants its Role in its namespace only; rules add up', async () => {
  const authz = newRbacAuthorizer(
    policy({
      roles: [role('a', 'pod-reader', [readPods]), role('a', 'cm-editor', [editConfigMaps])],
      roleBindings: [
        binding('a', 'read', 'Role', 'pod-reader', [user('jane')]),
        binding('a', 'edit', 'Role', 'cm-editor', [group('devs')]),
      ],
    }),
    RBAC_GROUP,
  );
  const allowed = await authz.authorize(request(jane, 'get', { resource: 'pods', namespace: 'a', name: 'p' }));
  assert.deepEqual(allowed, { decision: 'Allow', reason: 'RBAC: allowed by RoleBinding "read/a" of Role "pod-reader" to User "jane"' });
  assert.equal((await authz.authorize(request(jane, 'get', { resource: 'pods', namespace: 'b' }))).decision, 'NoOpinion');
  assert.equal((await authz.authorize(request(jane, 'list', { resource: 'pods' }))).decision, 'NoOpinion');
  assert.equal((await authz.authorize(request(jane, 'delete', { resource: 'configmaps', namespace: 'a' }))).decision, 'NoOpinion');
  const dev = { name: 'jane', groups: ['system:authenticated', 'devs'] };
  assert.equal((await authz.authorize(request(dev, 'delete', { resource: 'configmaps', namespace: 'a' }))).decision, 'Allow');
  assert.equal((await authz.authorize(request(dev, 'watch', { resource: 'pods', namespace: 'a' }))).decision, 'Allow');
});

test('RBAC: a RoleBinding to a ClusterRole grants only in its namespace; a ClusterRoleBinding everywhere', async () => {
  const authz = newRbacAuthorizer(
    policy({
      clusterRoles: [clusterRole('pod-reader', [readPods]), clusterRole('cm-editor', [editConfigMaps])],
      roleBindings: [binding('a', 'read', 'ClusterRole', 'pod-reader', [user('jane')])],
      clusterRoleBindings: [binding('', 'edit-all', 'ClusterRole', 'cm-editor', [user('bob')])],
    }),
    RBAC_GROUP,
  );
  assert.equal((await authz.authorize(request(jane, 'list', { resource: 'pods', namespace: 'a' }))).decision, 'Allow');
  assert.equal((await authz.authorize(request(jane, 'list', { resource: 'pods', namespace: 'b' }))).decision, 'NoOpinion');
  assert.equal((await authz.authorize(request(jane, 'list', { resource: 'pods' }))).decision, 'NoOpinion');
  const bob = { name: 'bob' };
  const everywhere = await authz.authorize(request(bob, 'create', { resource: 'configmaps', namespace: 'z' }));
  assert.deepEqual(everywhere, {
    decision: 'Allow',
    reason: 'RBAC: allowed by ClusterRoleBinding "edit-all" of ClusterRole "cm-editor" to User "bob"',
  });
  assert.equal((await authz.authorize(request(bob, 'list', { resource: 'configmaps' }))).decision, 'Allow');
});

test('RBAC: ServiceAccount subjects, with and without their namespace', async () => {
  const authz = newRbacAuthorizer(
    policy({
      clusterRoles: [clusterRole('pod-reader', [readPods])],
      roleBindings: [binding('a', 'sa-local', 'ClusterRole', 'pod-reader', [serviceAccount('builder')])],
      clusterRoleBindings: [
        binding('', 'sa-global', 'ClusterRole', 'pod-reader', [serviceAccount('robot', 'ops')]),
        binding('', 'sa-no-ns', 'ClusterRole', 'pod-reader', [serviceAccount('ghost')]),
      ],
    }),
    RBAC_GROUP,
  );
  const builder = { name: 'system:serviceaccount:a:builder', groups: ['system:serviceaccounts', 'system:serviceaccounts:a'] };
  assert.equal((await authz.authorize(request(builder, 'get', { resource: 'pods', namespace: 'a' }))).decision, 'Allow');
  assert.equal((await authz.authorize(request(builder, 'get', { resource: 'pods', namespace: 'b' }))).decision, 'NoOpinion');
  const otherBuilder = { name: 'system:serviceaccount:b:builder' };
  assert.equal((await authz.authorize(request(otherBuilder, 'get', { resource: 'pods', namespace: 'a' }))).decision, 'NoOpinion');
  const robot = { name: 'system:serviceaccount:ops:robot' };
  const r = await authz.authorize(request(robot, 'list', { resource: 'pods' }));
  assert.deepEqual(r, {
    decision: 'Allow',
    reason: 'RBAC: allowed by ClusterRoleBinding "sa-global" of ClusterRole "pod-reader" to ServiceAccount "robot/ops"',
  });
  assert.equal(
    (await authz.authorize(request({ name: 'system:serviceaccount::ghost' }, 'list', { resource: 'pods' }))).decision,
    'NoOpinion',
  );
});

test('RBAC: resourceNames narrow a grant to named objects', async () => {
  const authz = newRbacAuthorizer(
    policy({
      roles: [role('a', 'one-cm', [{ verbs: ['get', 'update'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'] }])],
      roleBindings: [binding('a', 'b', 'Role', 'one-cm', [user('jane')])],
    }),
    RBAC_GROUP,
  );
  assert.equal(
    (await authz.authorize(request(jane, 'get', { resource: 'configmaps', namespace: 'a', name: 'settings' }))).decision,
    'Allow',
  );
  assert.equal(
    (await authz.authorize(request(jane, 'get', { resource: 'configmaps', namespace: 'a', name: 'other' }))).decision,
    'NoOpinion',
  );
  assert.equal((await authz.authorize(request(jane, 'list', { resource: 'configmaps', namespace: 'a' }))).decision, 'NoOpinion');
});

test('RBAC: non-resource URLs through a ClusterRoleBinding to a group', async () => {
  const authz = newRbacAuthorizer(
    policy({
      clusterRoles: [clusterRole('health', [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz*'] }])],
      clusterRoleBindings: [binding('', 'health', 'ClusterRole', 'health', [group('system:unauthenticated')])],
    }),
    RBAC_GROUP,
  );
  const anon = { name: 'system:anonymous', groups: ['system:unauthenticated'] };
  assert.equal((await authz.authorize(request(anon, 'get', { path: '/healthz' }))).decision, 'Allow');
  assert.equal((await authz.authorize(request(anon, 'get', { path: '/readyz/etcd' }))).decision, 'Allow');
  assert.equal((await authz.authorize(request(anon, 'get', { path: '/metrics' }))).decision, 'NoOpinion');
  // Non-resource requests look at cluster-wide bindings only, whatever namespace.
  assert.equal((await authz.authorize(request(anon, 'get', { resource: 'pods', namespace: 'a' }))).decision, 'NoOpinion');
});

test('RBAC: a binding to a missing role is no opinion with the reason, other bindings still count', async () => {
  const authz = newRbacAuthorizer(
    policy({
      clusterRoles: [clusterRole('pod-reader', [readPods])],
      clusterRoleBindings: [binding('', 'dangling', 'ClusterRole', 'gone', [user('jane')])],
      roleBindings: [binding('a', 'ok', 'ClusterRole', 'pod-reader', [user('jane')])],
    }),
    RBAC_GROUP,
  );
  assert.deepEqual(await authz.authorize(request(jane, 'list', { resource: 'pods', namespace: 'b' })), {
    decision: 'NoOpinion',
    reason: `RBAC: clusterrole.${RBAC_GROUP} "gone" not found`,
  });
  assert.equal((await authz.authorize(request(jane, 'list', { resource: 'pods', namespace: 'a' }))).decision, 'Allow');
});

test('policy cache: updates re-index subjects, deletes unbind, a relist replaces', async () => {
  const cache = policy({ clusterRoles: [clusterRole('pod-reader', [readPods])] });
  const authz = newRbacAuthorizer(cache, RBAC_GROUP);
  const ask = async (who: string) => (await authz.authorize(request({ name: who }, 'list', { resource: 'pods', namespace: 'a' }))).decision;
  cache.put('RoleBinding', binding('a', 'b', 'ClusterRole', 'pod-reader', [user('jane')]));
  assert.equal(await ask('jane'), 'Allow');
  cache.put('RoleBinding', binding('a', 'b', 'ClusterRole', 'pod-reader', [user('bob')]));
  assert.equal(await ask('jane'), 'NoOpinion');
  assert.equal(await ask('bob'), 'Allow');
  cache.remove('RoleBinding', binding('a', 'b', 'ClusterRole', 'pod-reader', []));
  assert.equal(await ask('bob'), 'NoOpinion');
  cache.put('RoleBinding', binding('a', 'c', 'ClusterRole', 'pod-reader', [user('bob'), group('system:authenticated')]));
  assert.equal(await ask('bob'), 'Allow');
  cache.replace('RoleBinding', []);
  assert.equal(await ask('bob'), 'NoOpinion');
  assert.deepEqual(cache.counts(), { Role: 0, ClusterRole: 1, RoleBinding: 0, ClusterRoleBinding: 0 });
  cache.put('ClusterRole', clusterRole('pod-reader', []));
  cache.put('RoleBinding', binding('a', 'b', 'ClusterRole', 'pod-reader', [user('jane')]));
  assert.equal(await ask('jane'), 'NoOpinion');
});

test('RBAC: impersonation is a verb on users, groups and serviceaccounts, restricted by resourceNames', async () => {
  const authz = newRbacAuthorizer(
    policy({
      clusterRoles: [
        clusterRole('impersonate-jane', [
          { verbs: ['impersonate'], apiGroups: [''], resources: ['users'], resourceNames: ['jane'] },
          { verbs: ['impersonate'], apiGroups: [''], resources: ['groups'], resourceNames: ['devs'] },
        ]),
      ],
      clusterRoleBindings: [binding('', 'support', 'ClusterRole', 'impersonate-jane', [user('support')])],
    }),
    RBAC_GROUP,
  );
  const support = { name: 'support' };
  const ask = async (resource: string, name: string) =>
    (await authz.authorize(request(support, 'impersonate', { resource, name }))).decision;
  assert.equal(await ask('users', 'jane'), 'Allow');
  assert.equal(await ask('users', 'admin'), 'NoOpinion');
  assert.equal(await ask('groups', 'devs'), 'Allow');
  assert.equal(await ask('groups', 'system:masters'), 'NoOpinion');
  assert.equal(await ask('serviceaccounts', 'jane'), 'NoOpinion');
});
