/**
 * A version the resource table marks deprecated (declared here: ConfigMaps served again as v1beta1,
 * removed in 1.30) is answered with a Warning header, annotates the audit event with
 * <domain>/deprecated and <domain>/removed-release, and sets apiserver_requested_deprecated_apis.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { allResources } from '../../../apiserver/registry/resources/index.js';
import { eventually } from '../../support/eventually.js';

const WARNING = 'v1beta1 ConfigMap is deprecated in v1.28+, unavailable in v1.30+; use v1 ConfigMap';

describe('a deprecated API version', () => {
  let dir: string;
  let s: TestServer;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-deprecated-'));
    await writeFile(join(dir, 'policy.yaml'), 'apiVersion: audit.orch.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
    const configMaps = allResources.find((r) => r.kubernetesGroup === '' && r.kind === 'ConfigMap')!;
    s = await startTestServer({
      args: [`--audit-policy-file=${join(dir, 'policy.yaml')}`, `--audit-log-path=${join(dir, 'audit.log')}`],
      resources: [...allResources, { ...configMaps, version: 'v1beta1', deprecationWarning: WARNING, removedRelease: '1.30' }],
    });
  });
  after(async () => {
    await s.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('warns, annotates the audit event and counts the request; the current version does none of it', async () => {
    const created = await s.client.post('/api/v1beta1/namespaces/default/configmaps', { metadata: { name: 'old' }, data: { a: 'b' } });
    assert.equal(created.status, 201);
    assert.equal(created.body.apiVersion, 'v1beta1');
    assert.equal(created.headers.warning, `299 - ${JSON.stringify(WARNING)}`);
    const current = await s.client.get('/api/v1/namespaces/default/configmaps/old');
    assert.equal(current.status, 200);
    assert.equal(current.headers.warning, undefined);

    const events = await eventually('both audit events', async () => {
      const lines = (await readFile(join(dir, 'audit.log'), 'utf8').catch(() => '')).split('\n').filter((l) => l);
      const byId = (id: unknown) => lines.map((l) => JSON.parse(l)).find((e) => e.auditID === id && e.stage === 'ResponseComplete');
      const [a, b] = [byId(created.headers['audit-id']), byId(current.headers['audit-id'])];
      return a && b && [a, b];
    });
    assert.equal(events[0].annotations['orch.io/deprecated'], 'true');
    assert.equal(events[0].annotations['orch.io/removed-release'], '1.30');
    assert.equal(events[1].annotations['orch.io/deprecated'], undefined);

    const metrics = (await s.client.get('/metrics')).text;
    assert.match(
      metrics,
      /apiserver_requested_deprecated_apis\{group="",version="v1beta1",resource="configmaps",subresource="",removed_release="1.30"\} 1/,
    );
    assert.doesNotMatch(metrics, /apiserver_requested_deprecated_apis\{group="",version="v1",resource="configmaps"/);
  });
});
