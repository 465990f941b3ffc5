/** The default RBAC policy: created at first start, reconciled at every start, additive, autoupdate=false honoured. */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../../support/api-server.js';

const RBAC = '/apis/rbac.authorization.orch.io/v1';

describe('default RBAC policy', () => {
  const servers: TestServer[] = [];
  let dataDir: string;
  after(async () => {
    for (const s of servers) await s.stop().catch(() => {});
    await rm(dataDir, { recursive: true, force: true });
  });
  const start = async () => {
    dataDir ??= await mkdtemp(join(tmpdir(), 'orch-policy-'));
    const s = await startTestServer({ args: ['--authorization-mode=RBAC'], dataDir });
    servers.push(s);
    return s;
  };

  it('is there after start, labelled and annotated with the domain, bound as Kubernetes binds it', async () => {
    const s = await start();
    const admin = await s.client.get(`${RBAC}/clusterroles/cluster-admin`);
    assert.equal(admin.status, 200);
    assert.deepEqual(admin.body.rules, [
      { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
      { verbs: ['*'], nonResourceURLs: ['*'] },
    ]);
    assert.equal(admin.body.metadata.labels['orch.io/bootstrapping'], 'rbac-defaults');
    assert.equal(admin.body.metadata.annotations['rbac.authorization.orch.io/autoupdate'], 'true');
    const crb = await s.client.get(`${RBAC}/clusterrolebindings/cluster-admin`);
    assert.deepEqual(crb.body.subjects, [{ kind: 'Group', apiGroup: 'rbac.authorization.orch.io', name: 'system:masters' }]);
    const basic = await s.client.get(`${RBAC}/clusterroles/system:basic-user`);
    assert.deepEqual(basic.body.rules[0].apiGroups, ['authorization.orch.io']);
    const edit = await s.client.get(`${RBAC}/clusterroles/edit`);
    assert.deepEqual(edit.body.aggregationRule, {
      clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.orch.io/aggregate-to-edit': 'true' } }],
    });
    const gc = await s.client.get(`${RBAC}/clusterrolebindings/system:controller:generic-garbage-collector`);
    assert.deepEqual(gc.body.subjects, [{ kind: 'ServiceAccount', name: 'generic-garbage-collector', namespace: 'orch-system' }]);
    const publicRole = await s.client.get(
      `/apis/rbac.authorization.orch.io/v1/namespaces/orch-public/roles/system:controller:bootstrap-signer`,
    );
    assert.equal(publicRole.status, 200);
    assert.deepEqual(publicRole.body.rules[1], {
      verbs: ['update'],
      apiGroups: [''],
      resources: ['configmaps'],
      resourceNames: ['cluster-info'],
    });
    const names = (await s.client.get(`${RBAC}/clusterroles`)).body.items.map((r: { metadata: { name: string } }) => r.metadata.name);
    for (const n of [
      'system:discovery',
      'system:public-info-viewer',
      'admin',
      'view',
      'system:node',
      'system:node-bootstrapper',
      'system:kube-scheduler',
      'system:kube-controller-manager',
      'system:controller:namespace-controller',
      'system:controller:clusterrole-aggregation-controller',
    ]) {
      assert.ok(names.includes(n), n);
    }
  });

  it('anonymous requests reach only what system:public-info-viewer allows', async () => {
    const s = servers[0];
    for (const path of ['/healthz', '/livez', '/readyz', '/version']) assert.equal((await s.anonymous.get(path)).status, 200, path);
    for (const path of ['/api', '/apis', '/metrics', '/openapi/v2', '/api/v1/namespaces', '/api/v1/namespaces/default/configmaps']) {
      const r = await s.anonymous.get(path);
      assert.equal(r.status, 403, path);
    }
    assert.equal((await s.anonymous.get('/api')).body.message, 'forbidden: User "system:anonymous" cannot get path "/api"');
  });

  it('a restart adds back what is missing and keeps what users added; autoupdate=false is left alone', async () => {
    const s = servers[0];
    const discovery = (await s.client.get(`${RBAC}/clusterroles/system:discovery`)).body;
    const defaultRules = discovery.rules;
    discovery.rules = [{ verbs: ['get'], nonResourceURLs: ['/custom'] }];
    discovery.metadata.labels.team = 'a';
    assert.equal((await s.client.put(`${RBAC}/clusterroles/system:discovery`, discovery)).status, 200);
    const binding = (await s.client.get(`${RBAC}/clusterrolebindings/system:basic-user`)).body;
    binding.subjects = [{ kind: 'User', name: 'jane' }];
    assert.equal((await s.client.put(`${RBAC}/clusterrolebindings/system:basic-user`, binding)).status, 200);
    const viewer = (await s.client.get(`${RBAC}/clusterroles/system:public-info-viewer`)).body;
    viewer.rules = [];
    viewer.metadata.annotations['rbac.authorization.orch.io/autoupdate'] = 'false';
    assert.equal((await s.client.put(`${RBAC}/clusterroles/system:public-info-viewer`, viewer)).status, 200);
    assert.equal((await s.client.delete(`${RBAC}/clusterroles/view`)).status, 200);

    await s.stop();
    const again = await start();
    const d = (await again.client.get(`${RBAC}/clusterroles/system:discovery`)).body;
    assert.deepEqual(d.rules[0], { verbs: ['get'], nonResourceURLs: ['/custom'] });
    assert.equal(d.rules.length, 1 + defaultRules[0].nonResourceURLs.length, 'the default rule comes back broken down, one URL each');
    assert.equal(d.metadata.labels.team, 'a');
    const b = (await again.client.get(`${RBAC}/clusterrolebindings/system:basic-user`)).body;
    assert.deepEqual(
      b.subjects.map((x: { name: string }) => x.name),
      ['jane', 'system:authenticated'],
    );
    const v = (await again.client.get(`${RBAC}/clusterroles/system:public-info-viewer`)).body;
    assert.deepEqual(v.rules ?? [], []);
    assert.equal((await again.client.get(`${RBAC}/clusterroles/view`)).status, 200);
  });
});
