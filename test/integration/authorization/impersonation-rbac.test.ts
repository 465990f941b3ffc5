/**
 * Impersonation authorized by RBAC on a real server: the impersonate verb is checked with the
 * impersonated value as the resource name, so resourceNames in a (Cluster)Role decide exactly
 * which users, groups and ServiceAccounts a requester may become.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { newTestClient, type TestClient } from '../../support/http-client.js';

const RBAC = '/apis/rbac.authorization.orch.io/v1';
const WHOAMI = '/apis/authentication.orch.io/v1/selfsubjectreviews';
const review = { apiVersion: 'authentication.orch.io/v1', kind: 'SelfSubjectReview' };

/** Polls `check` until it holds (the authorizer sees writes through its watch, a moment later). */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail(`never: ${what}`);
}

describe('impersonation through RBAC resourceNames', () => {
  let s: TestServer;
  let eve: TestClient;
  const as = (headers: Record<string, string>) => eve.request('POST', WHOAMI, { body: review, headers });

  before(async () => {
    s = await startTestServer({ args: ['--authorization-mode=RBAC'], tokens: ['eve-token,eve,2001,"staff"'] });
    eve = newTestClient({ url: s.url, token: 'eve-token', ca: s.ca });
    assert.equal((await s.client.post('/api/v1/namespaces', { metadata: { name: 'ns1' } })).status, 201);
    const clusterRole = {
      metadata: { name: 'impersonate-jane' },
      rules: [
        { verbs: ['impersonate'], apiGroups: [''], resources: ['users'], resourceNames: ['jane'] },
        { verbs: ['impersonate'], apiGroups: [''], resources: ['groups'], resourceNames: ['devs'] },
      ],
    };
    assert.equal((await s.client.post(`${RBAC}/clusterroles`, clusterRole)).status, 201);
    const clusterBinding = {
      metadata: { name: 'eve-impersonates-jane' },
      roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'impersonate-jane' },
      subjects: [{ kind: 'User', name: 'eve' }],
    };
    assert.equal((await s.client.post(`${RBAC}/clusterrolebindings`, clusterBinding)).status, 201);
    const role = {
      metadata: { name: 'impersonate-bot' },
      rules: [{ verbs: ['impersonate'], apiGroups: [''], resources: ['serviceaccounts'], resourceNames: ['bot'] }],
    };
    assert.equal((await s.client.post(`${RBAC}/namespaces/ns1/roles`, role)).status, 201);
    const binding = {
      metadata: { name: 'eve-impersonates-bot' },
      roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'impersonate-bot' },
      subjects: [{ kind: 'User', name: 'eve' }],
    };
    assert.equal((await s.client.post(`${RBAC}/namespaces/ns1/rolebindings`, binding)).status, 201);
    await eventually(async () => (await as({ 'Impersonate-User': 'jane' })).status === 201, 'eve may impersonate jane');
    await eventually(
      async () => (await as({ 'Impersonate-User': 'system:serviceaccount:ns1:bot' })).status === 201,
      'eve may impersonate ns1/bot',
    );
  });
  after(async () => {
    eve.close();
    await s.stop();
  });

  it('the named user and group are allowed; the request runs as them', async () => {
    const r = await as({ 'Impersonate-User': 'jane', 'Impersonate-Group': 'devs' });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.status.userInfo.username, 'jane');
    assert.deepEqual(r.body.status.userInfo.groups, ['devs', 'system:authenticated']);
    // jane has no grant of her own: the request is authorized as her, not as eve.
    const read = await eve.request('GET', '/api/v1/namespaces/ns1/configmaps', { headers: { 'Impersonate-User': 'jane' } });
    assert.equal(read.status, 403);
    assert.match(read.body.message, /User "jane" cannot list resource "configmaps"/);
  });

  it('a user or group outside resourceNames is refused with 403 naming the check', async () => {
    const bob = await as({ 'Impersonate-User': 'bob' });
    assert.equal(bob.status, 403);
    assert.equal(bob.body.reason, 'Forbidden');
    assert.match(
      bob.body.message,
      /^users "bob" is forbidden: User "eve" cannot impersonate resource "users" in API group "" at the cluster scope/,
    );
    const masters = await as({ 'Impersonate-User': 'jane', 'Impersonate-Group': 'system:masters' });
    assert.equal(masters.status, 403);
    assert.match(masters.body.message, /User "eve" cannot impersonate resource "groups" in API group "" at the cluster scope/);
  });

  it('a ServiceAccount is allowed by a Role in its namespace with its name only', async () => {
    const bot = await as({ 'Impersonate-User': 'system:serviceaccount:ns1:bot' });
    assert.equal(bot.status, 201, bot.text);
    assert.equal(bot.body.status.userInfo.username, 'system:serviceaccount:ns1:bot');
    for (const other of ['system:serviceaccount:ns1:other', 'system:serviceaccount:default:bot']) {
      const r = await as({ 'Impersonate-User': other });
      assert.equal(r.status, 403, other);
      assert.match(r.body.message, /User "eve" cannot impersonate resource "serviceaccounts" in API group "" in the namespace/);
    }
  });
});
