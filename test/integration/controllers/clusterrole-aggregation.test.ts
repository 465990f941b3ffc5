/**
 * The ClusterRole aggregation controller against a real orch-apiserver in RBAC mode, least
 * privilege: the manager's informers run as system:kube-controller-manager and the controller writes
 * as its own ServiceAccount identity (client certificates), through the default policy's roles.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { ensureCA, newClientCert } from '../../../apiserver/component-base/certs/certs.js';
import { parseOptions } from '../../../controllers/app/options.js';
import { runControllerManager, type RunningControllerManager } from '../../../controllers/app/controller-manager.js';
import { newLogger } from '../../../apiserver/component-base/logs/logger.js';
import { seededCertDirArgs } from '../../support/test-pki.js';

const RBAC = '/apis/rbac.authorization.orch.io/v1';

async function eventually<T>(what: string, probe: () => Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('clusterrole-aggregation-controller', () => {
  let srv: TestServer;
  let manager: RunningControllerManager;
  before(async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'orch-aggregation-'));
    const ca = ensureCA(join(dataDir, 'certs'));
    srv = await startTestServer({ dataDir, args: ['--authorization-mode=RBAC', `--client-ca-file=${ca.certFile}`] });
    const kubeconfig = async (file: string, cn: string, orgs: string[]) => {
      const pair = newClientCert(ca, { cn, orgs });
      const b64 = (s: string) => Buffer.from(s).toString('base64');
      await writeFile(
        file,
        stringify({
          apiVersion: 'v1',
          kind: 'Config',
          clusters: [{ name: 'orch', cluster: { server: srv.url, 'certificate-authority-data': b64(srv.ca) } }],
          users: [{ name: cn, user: { 'client-certificate-data': b64(pair.certPem), 'client-key-data': b64(pair.keyPem) } }],
          contexts: [{ name: 'orch', context: { cluster: 'orch', user: cn } }],
          'current-context': 'orch',
        }),
      );
      return file;
    };
    const managerConfig = await kubeconfig(join(dataDir, 'controller-manager.kubeconfig'), 'system:kube-controller-manager', []);
    const dir = join(dataDir, 'controllers');
    await mkdir(dir);
    await kubeconfig(
      join(dir, 'clusterrole-aggregation-controller.kubeconfig'),
      'system:serviceaccount:orch-system:clusterrole-aggregation-controller',
      ['system:serviceaccounts', 'system:serviceaccounts:orch-system'],
    );
    manager = await runControllerManager(
      parseOptions([
        '--kubeconfig',
        managerConfig,
        '--controller-kubeconfig-dir',
        dir,
        '--controllers=clusterrole-aggregation',
        '--secure-port=0',
        ...seededCertDirArgs(),
        '--bind-address=127.0.0.1',
        '--leader-elect-lease-duration=2s',
        '--leader-elect-renew-deadline=1s',
        '--leader-elect-retry-period=200ms',
      ]),
      { logger: newLogger({ logLevel: 'error' }) },
    );
    await eventually('leadership', async () => manager.isLeader());
  });
  after(async () => {
    await manager?.stop();
    await srv?.stop();
  });

  const rulesOf = async (name: string) => (await srv.client.get(`${RBAC}/clusterroles/${name}`)).body.rules ?? [];
  const has = (rules: { resources?: string[] }[], resource: string) => rules.some((r) => r.resources?.includes(resource));

  it('fills the default admin, edit and view roles from the roles labelled for them', async () => {
    const view = await eventually('view aggregated', async () => {
      const r = await rulesOf('view');
      return r.length > 0 && r;
    });
    assert.ok(has(view, 'configmaps'));
    assert.ok(!has(view, 'secrets'), 'view does not read secrets');
    const edit = await eventually('edit aggregated', async () => {
      const r = await rulesOf('edit');
      return has(r, 'secrets') && has(r, 'configmaps') && r;
    });
    assert.ok(edit.some((r: { verbs: string[] }) => r.verbs.includes('create')));
    await eventually('admin aggregated', async () => has(await rulesOf('admin'), 'rolebindings'));
  });

  it('keeps an aggregated role current as matching roles come, change and go', async () => {
    const agg = {
      metadata: { name: 'team-agg' },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'team/aggregate': 'true' } }] },
    };
    assert.equal((await srv.client.post(`${RBAC}/clusterroles`, agg)).status, 201);
    const part = (name: string, resource: string, labels: Record<string, string>) => ({
      metadata: { name, labels },
      rules: [{ verbs: ['get'], apiGroups: [''], resources: [resource] }],
    });
    assert.equal((await srv.client.post(`${RBAC}/clusterroles`, part('part-b', 'pods', { 'team/aggregate': 'true' }))).status, 201);
    assert.equal((await srv.client.post(`${RBAC}/clusterroles`, part('part-a', 'secrets', { 'team/aggregate': 'true' }))).status, 201);
    assert.equal((await srv.client.post(`${RBAC}/clusterroles`, part('other', 'nodes', {}))).status, 201);
    await eventually('both parts', async () => {
      const r = await rulesOf('team-agg');
      return r.length === 2 && r;
    });
    // In name order, each rule once.
    assert.deepEqual(
      (await rulesOf('team-agg')).map((r: { resources: string[] }) => r.resources[0]),
      ['secrets', 'pods'],
    );
    // A rule change, a new label, a removed label.
    const a = (await srv.client.get(`${RBAC}/clusterroles/part-a`)).body;
    a.rules = [{ verbs: ['list'], apiGroups: [''], resources: ['secrets'] }];
    assert.equal((await srv.client.put(`${RBAC}/clusterroles/part-a`, a)).status, 200);
    const other = (await srv.client.get(`${RBAC}/clusterroles/other`)).body;
    other.metadata.labels = { 'team/aggregate': 'true' };
    assert.equal((await srv.client.put(`${RBAC}/clusterroles/other`, other)).status, 200);
    await eventually('rule change and new member', async () => {
      const r = await rulesOf('team-agg');
      return r.length === 3 && r[1].resources[0] === 'secrets' && r[1].verbs[0] === 'list' && r[0].resources[0] === 'nodes';
    });
    assert.equal((await srv.client.delete(`${RBAC}/clusterroles/part-b`)).status, 200);
    await eventually('deleted member dropped', async () => !has(await rulesOf('team-agg'), 'pods'));
  });
});
