/** The access reviews over HTTP, and `kubectl auth can-i` (with --list) as a restricted user in k8s.io mode. */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { newTestClient, type TestClient } from '../../support/http-client.js';
import { newKubectl } from '../../support/kubectl.js';
import { writeAdminKubeconfig } from '../../../scripts/cluster-files.js';

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  assert.fail(`never: ${what}`);
}

describe('access reviews', () => {
  let s: TestServer;
  let jane: TestClient;
  let kubectlJane: ReturnType<typeof newKubectl>;
  const AUTHZ = '/apis/authorization.k8s.io/v1';
  const RBAC = '/apis/rbac.authorization.k8s.io/v1';
  before(async () => {
    s = await startTestServer({ args: ['--authorization-mode=RBAC', '--api-domain=k8s.io'], tokens: ['jane-token,jane,1001,"devs"'] });
    jane = newTestClient({ url: s.url, token: 'jane-token', ca: s.ca });
    const kubeconfig = join(s.dataDir, 'jane.kubeconfig');
    writeAdminKubeconfig(kubeconfig, s.url, { caPem: s.ca, token: 'jane-token' });
    kubectlJane = newKubectl(kubeconfig);
    assert.equal((await s.client.post('/api/v1/namespaces', { metadata: { name: 'team' } })).status, 201);
    const reader = {
      metadata: { name: 'reader' },
      rules: [
        { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['configmaps'] },
        { verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['public'] },
      ],
    };
    assert.equal((await s.client.post(`${RBAC}/namespaces/team/roles`, reader)).status, 201);
    const rb = {
      metadata: { name: 'jane-reads' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
      subjects: [{ kind: 'User', name: 'jane' }],
    };
    assert.equal((await s.client.post(`${RBAC}/namespaces/team/rolebindings`, rb)).status, 201);
    await eventually(async () => (await jane.get('/api/v1/namespaces/team/configmaps')).status === 200, 'jane reads');
  });
  after(async () => {
    jane.close();
    await s.stop();
  });

  it('SelfSubjectAccessReview answers for the caller', async () => {
    const ask = async (resourceAttributes: object) =>
      (await jane.post(`${AUTHZ}/selfsubjectaccessreviews`, { spec: { resourceAttributes } })).body;
    const yes = await ask({ namespace: 'team', verb: 'list', resource: 'configmaps' });
    assert.equal(yes.kind, 'SelfSubjectAccessReview');
    assert.deepEqual(yes.status, {
      allowed: true,
      reason: 'RBAC: allowed by RoleBinding "jane-reads/team" of Role "reader" to User "jane"',
    });
    assert.deepEqual((await ask({ namespace: 'team', verb: 'delete', resource: 'configmaps' })).status, { allowed: false });
    assert.equal((await ask({ namespace: 'team', verb: 'get', resource: 'secrets', name: 'public' })).status.allowed, true);
    assert.equal((await ask({ namespace: 'team', verb: 'get', resource: 'secrets', name: 'private' })).status.allowed, false);
    const path = await jane.post(`${AUTHZ}/selfsubjectaccessreviews`, {
      spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } },
    });
    assert.equal(path.status, 201);
    assert.equal(path.body.status.allowed, true);
    const bad = await jane.post(`${AUTHZ}/selfsubjectaccessreviews`, { spec: {} });
    assert.equal(bad.status, 422);
    assert.equal(
      bad.body.message,
      'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified',
    );
  });

  it('has no Table form: asked only as=Table, a review is 406 (as kube-apiserver, whose reviews have no table convertor)', async () => {
    const sar = { spec: { nonResourceAttributes: { path: '/', verb: 'get' } } };
    const table = await jane.request('POST', `${AUTHZ}/selfsubjectaccessreviews`, {
      body: sar,
      headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    });
    assert.equal(table.status, 406);
    assert.equal(table.body.reason, 'NotAcceptable');
    const either = await jane.request('POST', `${AUTHZ}/selfsubjectaccessreviews`, {
      body: sar,
      headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io, application/json' },
    });
    assert.equal(either.status, 201);
    assert.equal(either.body.kind, 'SelfSubjectAccessReview');
  });

  it('SubjectAccessReview asks about anyone, for those allowed to create one', async () => {
    const sar = {
      spec: { user: 'jane', groups: ['devs'], resourceAttributes: { namespace: 'team', verb: 'watch', resource: 'configmaps' } },
    };
    const r = await s.client.post(`${AUTHZ}/subjectaccessreviews`, sar);
    assert.equal(r.status, 201);
    assert.equal(r.body.status.allowed, true);
    const refused = await jane.post(`${AUTHZ}/subjectaccessreviews`, sar);
    assert.equal(refused.status, 403);
    const noSubject = await s.client.post(`${AUTHZ}/subjectaccessreviews`, { spec: { resourceAttributes: { verb: 'get' } } });
    assert.equal(noSubject.status, 422);
    assert.match(noSubject.body.message, /spec.user: Invalid value: "": at least one of user or group must be specified/);
  });

  it('LocalSubjectAccessReview must name the namespace of its path', async () => {
    const lsar = (ns: string) => ({ spec: { user: 'jane', resourceAttributes: { namespace: ns, verb: 'get', resource: 'configmaps' } } });
    const r = await s.client.post(`${AUTHZ}/namespaces/team/localsubjectaccessreviews`, lsar('team'));
    assert.equal(r.status, 201);
    assert.equal(r.body.metadata.namespace, 'team');
    assert.equal(r.body.status.allowed, true);
    const other = await s.client.post(`${AUTHZ}/namespaces/team/localsubjectaccessreviews`, lsar('default'));
    assert.equal(other.status, 422);
    assert.match(other.body.message, /spec.resourceAttributes.namespace: Invalid value: "default": must match metadata.namespace/);
    const mismatch = await s.client.post(`${AUTHZ}/namespaces/team/localsubjectaccessreviews`, {
      ...lsar('default'),
      metadata: { namespace: 'default' },
    });
    assert.equal(mismatch.status, 400);
  });

  it('SelfSubjectRulesReview lists the caller rules in a namespace', async () => {
    const r = await jane.post(`${AUTHZ}/selfsubjectrulesreviews`, { spec: { namespace: 'team' } });
    assert.equal(r.status, 201);
    assert.equal(r.body.status.incomplete, false);
    assert.deepEqual(r.body.status.resourceRules.slice(-2), [
      { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['configmaps'] },
      { verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['public'] },
    ]);
    assert.ok(r.body.status.nonResourceRules.some((n: { nonResourceURLs: string[] }) => n.nonResourceURLs.includes('/healthz')));
    const none = await jane.post(`${AUTHZ}/selfsubjectrulesreviews`, { spec: {} });
    assert.equal(none.status, 400);
    assert.equal(none.body.message, 'no namespace on request');
  });

  it('kubectl auth can-i, with --list, as a restricted user', async () => {
    assert.equal((await kubectlJane.ok(['auth', 'can-i', 'list', 'configmaps', '-n', 'team'])).trim(), 'yes');
    const no = await kubectlJane.run(['auth', 'can-i', 'delete', 'configmaps', '-n', 'team']);
    assert.equal(no.code, 1);
    assert.equal(no.stdout.trim(), 'no');
    assert.equal((await kubectlJane.ok(['auth', 'can-i', 'get', 'secret/public', '-n', 'team'])).trim(), 'yes');
    assert.equal((await kubectlJane.run(['auth', 'can-i', 'get', 'secret/private', '-n', 'team'])).stdout.trim(), 'no');
    const list = await kubectlJane.ok(['auth', 'can-i', '--list', '-n', 'team']);
    assert.match(list, /configmaps\s+\[\]\s+\[\]\s+\[get list watch\]/);
    assert.match(list, /secrets\s+\[\]\s+\[public\]\s+\[get\]/);
    assert.match(list, /\s+\[\/healthz\]\s+\[\]\s+\[get\]/);
    // As the restricted user, kubectl itself is refused with Kubernetes' words.
    const del = await kubectlJane.run(['delete', 'configmap', 'x', '-n', 'team']);
    assert.notEqual(del.code, 0);
    assert.match(
      del.stderr,
      /configmaps "x" is forbidden: User "jane" cannot delete resource "configmaps" in API group "" in the namespace "team"/,
    );
    await kubectlJane.ok(['get', 'configmaps', '-n', 'team']);
  });
});
