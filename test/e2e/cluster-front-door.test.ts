/**
 * End to end: the HA shape of `npm run cluster` (3 etcd members, 2 replicas, orch-proxy, 2
 * controller managers) driven by kubectl and raw HTTPS through the front door: client certificates
 * are forwarded as request headers, tokens pass through, identity headers from clients are dropped,
 * watches stream, the controllers work through the front door with one leader, and the proxy
 * counts what it forwarded.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureCA, newClientCert } from '../../apiserver/component-base/certs/certs.js';
import { eventually } from '../support/eventually.js';
import { newTestClient, type TestClient } from '../support/http-client.js';
import { newKubectl } from '../support/kubectl.js';
import { startCluster, type Cluster } from '../../scripts/cluster-topology.js';
import { seedClusterFiles } from '../support/test-pki.js';

const REVIEW = { apiVersion: 'authentication.orch.io/v1', kind: 'SelfSubjectReview' };
const REVIEWS = '/apis/authentication.orch.io/v1/selfsubjectreviews';

describe('the front door of an HA cluster', () => {
  let dir: string;
  let cluster: Cluster;
  let byCert: TestClient;
  let byToken: TestClient;
  let anonymous: TestClient;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-cluster-'));
    seedClusterFiles(dir);
    cluster = await startCluster({ dir, unsafeNoFsync: true });
    const { files } = cluster;
    byCert = newTestClient({ url: cluster.url, ca: files.caPem, cert: files.admin.certPem, key: files.admin.keyPem });
    byToken = newTestClient({ url: cluster.url, ca: files.caPem, token: files.token });
    anonymous = newTestClient({ url: cluster.url, ca: files.caPem });
  });

  after(async () => {
    for (const c of [byCert, byToken, anonymous]) c?.close();
    await cluster?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('kubectl works through the front door with a client certificate and with a token', async () => {
    const cert = newKubectl(cluster.kubeconfig);
    const token = newKubectl(cluster.tokenKubeconfig);
    await cert.ok(['create', 'configmap', 'by-cert', '--from-literal=k=v']);
    await token.ok(['create', 'configmap', 'by-token', '--from-literal=k=w']);
    assert.equal(await token.ok(['get', 'configmap', 'by-cert', '-o', 'jsonpath={.data.k}']), 'v');
    assert.equal(await cert.ok(['get', 'configmap', 'by-token', '-o', 'jsonpath={.data.k}']), 'w');
  });

  it('forwards the client certificate identity and drops identity headers a client sent', async () => {
    const forged = { 'X-Remote-User': 'mallory', 'X-Remote-Group': 'system:masters', 'X-Remote-Extra-Scopes': 'all' };
    const viaCert = await byCert.request('POST', REVIEWS, { body: REVIEW, headers: forged });
    assert.equal(viaCert.status, 201, viaCert.text);
    assert.equal(viaCert.body.status.userInfo.username, 'admin');
    assert.deepEqual(viaCert.body.status.userInfo.groups, ['system:masters', 'system:authenticated']);
    assert.equal(viaCert.body.status.userInfo.extra, undefined);

    const viaToken = await byToken.request('POST', REVIEWS, { body: REVIEW, headers: forged });
    assert.equal(viaToken.status, 201, viaToken.text);
    assert.equal(viaToken.body.status.userInfo.username, 'admin');

    // Headers alone assert nothing: the request is anonymous, and anonymous may not create reviews.
    const forgedOnly = await anonymous.request('POST', REVIEWS, { body: REVIEW, headers: forged });
    assert.equal(forgedOnly.status, 403, forgedOnly.text);
    assert.match(forgedOnly.body.message, /system:anonymous/);
  });

  it('refuses a client certificate of another CA with a 401 Status', async () => {
    const stranger = newClientCert(ensureCA(join(dir, 'stranger-ca')), { cn: 'admin', orgs: ['system:masters'] });
    const client = newTestClient({ url: cluster.url, ca: cluster.files.caPem, cert: stranger.certPem, key: stranger.keyPem });
    try {
      const res = await client.get('/api/v1/namespaces');
      assert.equal(res.status, 401, res.text);
      assert.equal(res.body.kind, 'Status');
      assert.equal(res.body.reason, 'Unauthorized');
    } finally {
      client.close();
    }
  });

  it('streams a watch through the front door event by event', async () => {
    const list = await byToken.get('/api/v1/namespaces/default/configmaps');
    const w = await byCert.watch(
      `/api/v1/namespaces/default/configmaps?watch=1&labelSelector=stream%3Dyes&resourceVersion=${list.body.metadata.resourceVersion}`,
    );
    try {
      for (let i = 0; i < 3; i++) {
        const created = await byToken.post('/api/v1/namespaces/default/configmaps', {
          metadata: { name: `streamed-${i}`, labels: { stream: 'yes' } },
        });
        assert.equal(created.status, 201, created.text);
        const event = await w.next(5000);
        assert.equal(event.type, 'ADDED');
        assert.equal(event.object.metadata.name, `streamed-${i}`);
      }
    } finally {
      w.close();
    }
  });

  it('runs the controllers through the front door, one of the two managers leading', async () => {
    await byToken.post('/api/v1/namespaces', { metadata: { name: 'team' } });
    await eventually('the default ServiceAccount of a new namespace', async () => {
      const sa = await byToken.get('/api/v1/namespaces/team/serviceaccounts/default');
      return sa.status === 200;
    });
    const lease = await byToken.get('/apis/coordination.orch.io/v1/namespaces/orch-system/leases/orch-controller-manager');
    assert.equal(lease.status, 200, lease.text);
    assert.ok(lease.body.spec.holderIdentity);
    const logs = cluster.controllerManagers.map((m) => m.log(200));
    assert.equal(logs.filter((l) => /successfully acquired lease/.test(l)).length, 1, logs.join('\n'));
  });

  it('counts forwarded requests per replica and reports the replicas ready', async () => {
    const metrics = await (await fetch(`${cluster.proxyMetricsUrl}/metrics`)).text();
    for (const replica of cluster.apiservers) {
      assert.match(metrics, new RegExp(`orch_proxy_backend_ready\\{backend="${replica.url}"\\} 1`));
      assert.match(metrics, new RegExp(`orch_proxy_requests_total\\{backend="${replica.url}",method="GET",code="200"\\} \\d+`));
    }
    assert.equal((await fetch(`${cluster.proxyMetricsUrl}/readyz`)).status, 200);
  });
});
