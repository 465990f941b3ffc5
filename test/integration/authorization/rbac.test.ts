/** --authorization-mode=RBAC on a real server: bindings take effect through the store's watch, 403s read as Kubernetes'. */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { newTestClient, type TestClient } from '../../support/http-client.js';

const RBAC = '/apis/rbac.authorization.orch.io/v1';

/** Polls `check` until it holds (the authorizer sees writes through its watch, a moment later). */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail(`never: ${what}`);
}

describe('RBAC authorization', () => {
  let s: TestServer;
  let jane: TestClient;
  let builder: TestClient;
  before(async () => {
    s = await startTestServer({
      args: ['--authorization-mode=RBAC'],
      tokens: [
        'jane-token,jane,1001,"devs"',
        'sa-token,system:serviceaccount:team:builder,1002,"system:serviceaccounts,system:serviceaccounts:team"',
        'esc-token,esc,1003,""',
      ],
    });
    jane = newTestClient({ url: s.url, token: 'jane-token', ca: s.ca });
    builder = newTestClient({ url: s.url, token: 'sa-token', ca: s.ca });
    assert.equal((await s.client.post('/api/v1/namespaces', { metadata: { name: 'team' } })).status, 201);
    const reader = {
      metadata: { name: 'reader' },
      rules: [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['configmaps'] }],
    };
    assert.equal((await s.client.post(`${RBAC}/namespaces/team/roles`, reader)).status, 201);
  });
  after(async () => {
    jane.close();
    builder.close();
    await s.stop();
  });

  it('refuses a user with no binding, in Kubernetes words', async () => {
    const r = await jane.get('/api/v1/namespaces/team/configmaps');
    assert.equal(r.status, 403);
    assert.equal(
      r.body.message,
      'configmaps is forbidden: User "jane" cannot list resource "configmaps" in API group "" in the namespace "team"',
    );
    const path = await jane.get('/metrics');
    assert.equal(path.status, 403);
    assert.equal(path.body.message, 'forbidden: User "jane" cannot get path "/metrics"');
  });

  it('a RoleBinding to a read-only Role lets a token user read and nothing more', async () => {
    const rb = {
      metadata: { name: 'jane-reads' },
      roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'reader' },
      subjects: [{ kind: 'User', name: 'jane' }],
    };
    assert.equal((await s.client.post(`${RBAC}/namespaces/team/rolebindings`, rb)).status, 201);
    await eventually(async () => (await jane.get('/api/v1/namespaces/team/configmaps')).status === 200, 'jane lists');
    const create = await jane.post('/api/v1/namespaces/team/configmaps', { metadata: { name: 'x' } });
    assert.equal(create.status, 403);
    assert.equal(
      create.body.message,
      'configmaps is forbidden: User "jane" cannot create resource "configmaps" in API group "" in the namespace "team"',
    );
    assert.equal((await jane.get('/api/v1/namespaces/default/configmaps')).status, 403);
    assert.equal((await jane.get('/api/v1/configmaps')).status, 403);
    // A watch is a verb of its own, granted by the Role.
    const w = await jane.watch('/api/v1/namespaces/team/configmaps?watch=true');
    assert.equal(w.status, 200);
    w.close();
    // Deleting the binding takes the grant away.
    assert.equal((await s.client.delete(`${RBAC}/namespaces/team/rolebindings/jane-reads`)).status, 200);
    await eventually(async () => (await jane.get('/api/v1/namespaces/team/configmaps')).status === 403, 'jane refused again');
  });

  it('a ServiceAccount token bound to a read-only role reads in its namespace only', async () => {
    const rb = {
      metadata: { name: 'builder-reads' },
      roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'builder' }],
    };
    assert.equal((await s.client.post(`${RBAC}/namespaces/team/rolebindings`, rb)).status, 201);
    await eventually(async () => (await builder.get('/api/v1/namespaces/team/configmaps')).status === 200, 'builder lists');
    const del = await builder.delete('/api/v1/namespaces/team/configmaps/x');
    assert.equal(del.status, 403);
    assert.equal(
      del.body.message,
      'configmaps "x" is forbidden: User "system:serviceaccount:team:builder" cannot delete resource "configmaps" in API group "" in the namespace "team"',
    );
  });

  it('a RoleBinding to a ClusterRole grants in its namespace; a group ClusterRoleBinding everywhere', async () => {
    const secrets = { metadata: { name: 'secret-reader' }, rules: [{ verbs: ['list'], apiGroups: [''], resources: ['secrets'] }] };
    assert.equal((await s.client.post(`${RBAC}/clusterroles`, secrets)).status, 201);
    const rb = {
      metadata: { name: 'devs-secrets' },
      roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'secret-reader' },
      subjects: [{ kind: 'Group', name: 'devs' }],
    };
    assert.equal((await s.client.post(`${RBAC}/namespaces/team/rolebindings`, rb)).status, 201);
    await eventually(async () => (await jane.get('/api/v1/namespaces/team/secrets')).status === 200, 'devs list secrets in team');
    assert.equal((await jane.get('/api/v1/namespaces/default/secrets')).status, 403);
    assert.equal((await jane.get('/api/v1/secrets')).status, 403);
    const crb = { ...rb, metadata: { name: 'devs-secrets-everywhere' } };
    assert.equal((await s.client.post(`${RBAC}/clusterrolebindings`, crb)).status, 201);
    await eventually(async () => (await jane.get('/api/v1/secrets')).status === 200, 'devs list secrets everywhere');
    assert.equal((await jane.get('/api/v1/namespaces/default/secrets')).status, 200);
  });

  it('escalation: a writer grants only what they hold, or what `escalate` / `bind` by name allows', async () => {
    const manager = {
      metadata: { name: 'rbac-manager' },
      rules: [
        { verbs: ['create', 'update', 'get'], apiGroups: ['rbac.authorization.orch.io'], resources: ['roles', 'rolebindings'] },
        { verbs: ['get', 'list'], apiGroups: [''], resources: ['configmaps'] },
      ],
    };
    const ref = (kind: string, name: string) => ({ apiGroup: 'rbac.authorization.orch.io', kind, name });
    assert.equal((await s.client.post(`${RBAC}/namespaces/team/roles`, manager)).status, 201);
    const rb = { metadata: { name: 'jane-manages' }, roleRef: ref('Role', 'rbac-manager'), subjects: [{ kind: 'User', name: 'jane' }] };
    assert.equal((await s.client.post(`${RBAC}/namespaces/team/rolebindings`, rb)).status, 201);
    const held = { metadata: { name: 'cm-reader' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }] };
    await eventually(async () => (await jane.post(`${RBAC}/namespaces/team/roles`, held)).status === 201, 'jane writes a role she holds');
    const more = {
      metadata: { name: 'cm-writer' },
      rules: [{ verbs: ['get', 'delete'], apiGroups: [''], resources: ['configmaps', 'pods'] }],
    };
    const refused = await jane.post(`${RBAC}/namespaces/team/roles`, more);
    assert.equal(refused.status, 403);
    assert.equal(
      refused.body.message,
      'roles.rbac.authorization.orch.io "cm-writer" is forbidden: user "jane" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["configmaps"], Verbs:["delete"]}\n{APIGroups:[""], Resources:["pods"], Verbs:["get" "delete"]}',
    );
    // Binding a role she holds is fine; binding one she does not is refused until she may `bind` it.
    const bindHeld = { metadata: { name: 'bob-reads' }, roleRef: ref('Role', 'cm-reader'), subjects: [{ kind: 'User', name: 'bob' }] };
    assert.equal((await jane.post(`${RBAC}/namespaces/team/rolebindings`, bindHeld)).status, 201);
    const bindMore = { metadata: { name: 'bob-manages' }, roleRef: ref('Role', 'reader'), subjects: [{ kind: 'User', name: 'bob' }] };
    assert.equal(
      (
        await s.client.patch(
          `${RBAC}/namespaces/team/roles/reader`,
          { rules: [{ verbs: ['*'], apiGroups: [''], resources: ['configmaps'] }] },
          'application/merge-patch+json',
        )
      ).status,
      200,
    );
    const r = await jane.post(`${RBAC}/namespaces/team/rolebindings`, bindMore);
    assert.equal(r.status, 403);
    assert.match(
      r.body.message,
      /^rolebindings.rbac.authorization.orch.io "bob-manages" is forbidden: user "jane" .* not currently held:\n\{APIGroups:\[""\], Resources:\["configmaps"\], Verbs:\["\*"\]\}$/,
    );
    const binder = {
      metadata: { name: 'binder' },
      rules: [{ verbs: ['bind'], apiGroups: ['rbac.authorization.orch.io'], resources: ['roles'], resourceNames: ['reader'] }],
    };
    assert.equal((await s.client.post(`${RBAC}/namespaces/team/roles`, binder)).status, 201);
    const rb2 = { metadata: { name: 'jane-binds' }, roleRef: ref('Role', 'binder'), subjects: [{ kind: 'User', name: 'jane' }] };
    assert.equal((await s.client.post(`${RBAC}/namespaces/team/rolebindings`, rb2)).status, 201);
    await eventually(async () => (await jane.post(`${RBAC}/namespaces/team/rolebindings`, bindMore)).status === 201, 'jane binds reader');
  });

  it('escalate restricted by resourceNames covers updates of those names, never a create by POST (the empty name)', async () => {
    const esc = newTestClient({ url: s.url, token: 'esc-token', ca: s.ca });
    try {
      const rbac = ['rbac.authorization.orch.io'];
      const escalator = {
        metadata: { name: 'escalates-x' },
        rules: [
          { verbs: ['create', 'update', 'get'], apiGroups: rbac, resources: ['roles', 'clusterroles'] },
          { verbs: ['escalate'], apiGroups: rbac, resources: ['roles', 'clusterroles'], resourceNames: ['x'] },
        ],
      };
      assert.equal((await s.client.post(`${RBAC}/clusterroles`, escalator)).status, 201);
      const crb = {
        metadata: { name: 'esc-escalates-x' },
        roleRef: { apiGroup: rbac[0], kind: 'ClusterRole', name: 'escalates-x' },
        subjects: [{ kind: 'User', name: 'esc' }],
      };
      assert.equal((await s.client.post(`${RBAC}/clusterrolebindings`, crb)).status, 201);
      const empty = { metadata: { name: 'nothing' }, rules: [] };
      await eventually(async () => (await esc.post(`${RBAC}/namespaces/team/roles`, empty)).status === 201, 'esc writes a role');

      const everything = [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }];
      const notHeld =
        'user "esc" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:["*"], Resources:["*"], Verbs:["*"]}';
      const role = await esc.post(`${RBAC}/namespaces/team/roles`, { metadata: { name: 'x' }, rules: everything });
      assert.equal(role.status, 403);
      assert.equal(role.body.message, `roles.rbac.authorization.orch.io "x" is forbidden: ${notHeld}`);
      const clusterRole = await esc.post(`${RBAC}/clusterroles`, { metadata: { name: 'x' }, rules: everything });
      assert.equal(clusterRole.status, 403);
      assert.equal(clusterRole.body.message, `clusterroles.rbac.authorization.orch.io "x" is forbidden: ${notHeld}`);
      assert.equal((await s.client.get(`${RBAC}/namespaces/team/roles/x`)).status, 404);
      assert.equal((await s.client.get(`${RBAC}/clusterroles/x`)).status, 404);

      // Addressing the name (an update, or a PUT that creates) is what the grant covers, as in Kubernetes.
      assert.equal((await s.client.post(`${RBAC}/namespaces/team/roles`, { metadata: { name: 'x' }, rules: [] })).status, 201);
      const x = (await esc.get(`${RBAC}/namespaces/team/roles/x`)).body;
      assert.equal((await esc.put(`${RBAC}/namespaces/team/roles/x`, { ...x, rules: everything })).status, 200);
      const put = await esc.put(`${RBAC}/clusterroles/x`, { metadata: { name: 'x' }, rules: everything });
      assert.equal(put.status, 201);
    } finally {
      esc.close();
    }
  });

  it('roleRef cannot change', async () => {
    const rb = await s.client.get(`${RBAC}/namespaces/team/rolebindings/devs-secrets`);
    rb.body.roleRef.name = 'other';
    const r = await s.client.put(`${RBAC}/namespaces/team/rolebindings/devs-secrets`, rb.body);
    assert.equal(r.status, 422);
    assert.match(r.body.message, /roleRef: Invalid value: .*cannot change roleRef/);
  });
});

describe('RBAC without the watch cache', () => {
  it('keeps its view from the storage watch: a new binding takes effect, a deleted one stops', async () => {
    const s = await startTestServer({ args: ['--authorization-mode=RBAC', '--watch-cache=false'], tokens: ['jane-token,jane,1001,""'] });
    const jane = newTestClient({ url: s.url, token: 'jane-token', ca: s.ca });
    try {
      assert.equal((await jane.get('/api/v1/namespaces/default/configmaps')).status, 403);
      const rb = {
        metadata: { name: 'jane-views' },
        roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'view' },
        subjects: [{ kind: 'User', name: 'jane' }],
      };
      assert.equal((await s.client.post(`${RBAC}/namespaces/default/rolebindings`, rb)).status, 201);
      // `view` is filled by the aggregation controller, which does not run here: give it a rule.
      const view = (await s.client.get(`${RBAC}/clusterroles/view`)).body;
      view.rules = [{ verbs: ['list'], apiGroups: [''], resources: ['configmaps'] }];
      assert.equal((await s.client.put(`${RBAC}/clusterroles/view`, view)).status, 200);
      await eventually(async () => (await jane.get('/api/v1/namespaces/default/configmaps')).status === 200, 'jane lists');
      assert.equal((await s.client.delete(`${RBAC}/namespaces/default/rolebindings/jane-views`)).status, 200);
      await eventually(async () => (await jane.get('/api/v1/namespaces/default/configmaps')).status === 403, 'jane refused');
    } finally {
      jane.close();
      await s.stop();
    }
  });
});
