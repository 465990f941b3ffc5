import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newAuthorizer } from '../../../../apiserver/authorization/new-authorizer.js';
import { EscalationCheck } from '../../../../apiserver/authorization/rbac/escalation.js';
import { compactRules, compactString, uncoveredRules } from '../../../../apiserver/authorization/rbac/policy-comparator.js';
import { RuleResolver } from '../../../../apiserver/authorization/rbac/rule-resolver.js';
import type { PolicyCache } from '../../../../apiserver/authorization/rbac/policy-cache.js';
import { RBAC_GROUP, binding, clusterRole, policy, role, user } from './rbac-fixtures.js';

test('covers: owner rules must hold every verb × group × resource × name of the servant', () => {
  const owner = [
    { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'configmaps'] },
    { verbs: ['update'], apiGroups: ['*'], resources: ['*/scale'] },
    { verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a'] },
    { verbs: ['get'], nonResourceURLs: ['/logs/*'] },
  ];
  assert.deepEqual(uncoveredRules(owner, [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]), []);
  assert.deepEqual(uncoveredRules(owner, [{ verbs: ['update'], apiGroups: ['apps'], resources: ['deployments/scale'] }]), []);
  assert.deepEqual(uncoveredRules(owner, [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a'] }]), []);
  assert.deepEqual(uncoveredRules(owner, [{ verbs: ['get'], nonResourceURLs: ['/logs/x'] }]), []);
  assert.deepEqual(uncoveredRules(owner, [{ verbs: ['get', 'watch'], apiGroups: [''], resources: ['pods', 'secrets'] }]), [
    { apiGroups: [''], resources: ['pods'], verbs: ['watch'] },
    { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
    { apiGroups: [''], resources: ['secrets'], verbs: ['watch'] },
  ]);
  // A rule on every name is not covered by a rule on one name; `*` is not covered by its parts.
  assert.equal(uncoveredRules(owner, [{ verbs: ['get'], apiGroups: [''], resources: ['*'] }]).length, 1);
  assert.equal(uncoveredRules(owner, [{ verbs: ['*'], apiGroups: [''], resources: ['pods'] }]).length, 1);
});

test('compact: the missing rules joined per resource and printed as Kubernetes does', () => {
  const missing = compactRules([
    { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
    { apiGroups: [''], resources: ['secrets'], verbs: ['watch'] },
    { nonResourceURLs: ['/metrics'], verbs: ['get'] },
  ]).map(compactString);
  assert.deepEqual(missing.sort(), [
    '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "watch"]}',
    '{NonResourceURLs:["/metrics"], Verbs:["get"]}',
  ]);
});

const podRules = [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }];
const secretRules = [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }];
/** The writer's power: may manage RBAC objects in `a`, read pods there; optionally escalate or bind. */
function setup(extra: { escalate?: string[]; bind?: string[] } = {}): { check: EscalationCheck; cache: PolicyCache } {
  const writer = [
    {
      verbs: ['get', 'list', 'create', 'update', 'patch', 'delete'],
      apiGroups: [RBAC_GROUP],
      resources: ['roles', 'rolebindings', 'clusterroles', 'clusterrolebindings'],
    },
    ...podRules,
  ];
  if (extra.escalate)
    writer.push({ verbs: ['escalate'], apiGroups: [RBAC_GROUP], resources: ['roles'], resourceNames: extra.escalate } as never);
  if (extra.bind)
    writer.push({ verbs: ['bind'], apiGroups: [RBAC_GROUP], resources: ['clusterroles'], resourceNames: extra.bind } as never);
  const cache = policy({
    clusterRoles: [clusterRole('writer', writer), clusterRole('secret-reader', secretRules), clusterRole('pod-reader', podRules)],
    roleBindings: [binding('a', 'writer', 'ClusterRole', 'writer', [user('jane')])],
  });
  const { authorizer } = newAuthorizer(['RBAC'], { rbac: cache, rbacGroup: RBAC_GROUP });
  return { check: new EscalationCheck(authorizer, new RuleResolver(cache, RBAC_GROUP), RBAC_GROUP), cache };
}
const jane = { name: 'jane', groups: ['system:authenticated'] };

test('escalation: a role writer must hold every rule of the role, in its namespace', async () => {
  const { check } = setup();
  const write = (rules: unknown[], namespace = 'a') => ({
    kind: 'Role' as const,
    namespace,
    requestName: 'r',
    user: jane,
    object: role(namespace, 'r', rules as never),
  });
  assert.equal(await check.refusal(write(podRules)), undefined);
  assert.equal(
    await check.refusal(write([...podRules, ...secretRules])),
    'user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}',
  );
  // The writer's rules are those of the role's namespace.
  assert.match(
    (await check.refusal(write(podRules, 'b'))) ?? '',
    /not currently held:\n\{APIGroups:\[""\], Resources:\["pods"\], Verbs:\["get" "list"\]\}/,
  );
  // system:masters may write anything.
  assert.equal(await check.refusal({ ...write(secretRules), user: { name: 'root', groups: ['system:masters'] } }), undefined);
});

test('escalation: `escalate` on the role (restricted by resourceNames) lets a writer grant what they lack', async () => {
  const { check } = setup({ escalate: ['r'] });
  const old = role('a', 'r', []);
  const write = (name: string) => ({
    kind: 'Role' as const,
    namespace: 'a',
    requestName: name,
    user: jane,
    object: role('a', name, secretRules),
    oldObject: { ...old, metadata: { ...old.metadata, name } },
  });
  assert.equal(await check.refusal(write('r')), undefined);
  assert.match((await check.refusal(write('other'))) ?? '', /attempting to grant RBAC permissions not currently held/);
});

test('escalation: a create by POST is authorized against the empty name, which `escalate` restricted by resourceNames never covers', async () => {
  // As Kubernetes' RoleEscalationAuthorized, which reads requestInfo.Name ('' when POSTing to the collection).
  const all = [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }];
  const { check } = setup({ escalate: ['r'] });
  const post = { kind: 'Role' as const, namespace: 'a', requestName: '', user: jane, object: role('a', 'r', all) };
  assert.match((await check.refusal(post)) ?? '', /attempting to grant RBAC permissions not currently held:\n\{APIGroups:\["\*"\]/);
  // A PUT or apply that creates addresses the name, as in Kubernetes (whose Update path checks it).
  assert.equal(await check.refusal({ ...post, requestName: 'r' }), undefined);
  // `escalate` on every name covers a POST create.
  const { check: anyName } = setup({ escalate: [] });
  assert.equal(await anyName.refusal(post), undefined);
});

test('escalation: an update that only changes what a garbage collector changes is never refused', async () => {
  const { check } = setup();
  const old = role('a', 'r', secretRules);
  const updated = { ...old, metadata: { ...old.metadata, finalizers: ['x'], ownerReferences: [] } };
  assert.equal(
    await check.refusal({ kind: 'Role', namespace: 'a', requestName: 'r', user: jane, object: updated, oldObject: old }),
    undefined,
  );
  const widened = { ...old, rules: [...secretRules, ...podRules] };
  assert.notEqual(
    await check.refusal({ kind: 'Role', namespace: 'a', requestName: 'r', user: jane, object: widened, oldObject: old }),
    undefined,
  );
});

test('escalation: an aggregationRule takes cluster-admin', async () => {
  const { check } = setup();
  const agg = { ...clusterRole('agg', []), aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] } };
  const admin = { name: 'admin-ish', groups: ['admins'] };
  assert.equal(
    await check.refusal({ kind: 'ClusterRole', namespace: '', requestName: 'agg', user: jane, object: agg }),
    'must have cluster-admin privileges to use the aggregationRule',
  );
  const { check: check2, cache } = setup();
  cache.put(
    'ClusterRole',
    clusterRole('all', [
      { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
      { verbs: ['*'], nonResourceURLs: ['*'] },
    ]),
  );
  cache.put('ClusterRoleBinding', binding('', 'admins', 'ClusterRole', 'all', [{ kind: 'Group', name: 'admins' }]));
  assert.equal(await check2.refusal({ kind: 'ClusterRole', namespace: '', requestName: 'agg', user: admin, object: agg }), undefined);
});

test('escalation: a binding writer must hold the role, or `bind` it by name', async () => {
  const bindingTo = (roleName: string) => ({
    kind: 'RoleBinding' as const,
    namespace: 'a',
    requestName: 'b',
    user: jane,
    object: binding('a', 'b', 'ClusterRole', roleName, [user('bob')]),
  });
  const { check } = setup();
  assert.equal(await check.refusal(bindingTo('pod-reader')), undefined);
  assert.equal(
    await check.refusal(bindingTo('secret-reader')),
    'user "jane" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}',
  );
  assert.equal(await check.refusal(bindingTo('missing')), `clusterrole.${RBAC_GROUP} "missing" not found`);
  const { check: withBind } = setup({ bind: ['secret-reader'] });
  assert.equal(await withBind.refusal(bindingTo('secret-reader')), undefined);
  assert.match((await withBind.refusal(bindingTo('missing'))) ?? '', /not found/);
  // A ClusterRoleBinding is checked at the cluster scope, where the writer holds nothing.
  const crb = {
    ...bindingTo('pod-reader'),
    kind: 'ClusterRoleBinding' as const,
    namespace: '',
    object: binding('', 'b', 'ClusterRole', 'pod-reader', []),
  };
  assert.match((await check.refusal(crb)) ?? '', /not currently held/);
});
