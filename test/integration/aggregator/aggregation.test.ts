/**
 * The aggregation layer against a real extension server (issue 27): local APIServices listed, a
 * remote one proxied after orch's authentication with the front-proxy identity and without the
 * caller's credentials, a watch streamed through, discovery merged, and the bad cases — a service
 * that does not exist, a server that fails or hangs — answered with the Available condition and 503.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { eventually } from '../../support/eventually.js';
import { type ExtensionServer, registration, startExtensionServer } from '../../support/extension-server.js';

const AR = '/apis/apiregistration.orch.io/v1/apiservices';

describe('aggregation layer', () => {
  let s: TestServer;
  let ext: ExtensionServer;

  const condition = async (name: string) => {
    const r = await s.client.get(`${AR}/${name}`);
    return (r.body.status?.conditions ?? []).find((c: { type: string }) => c.type === 'Available');
  };

  before(async () => {
    s = await startTestServer({ args: ['--request-timeout=2s'] });
    const frontProxyCA = readFileSync(join(s.dataDir, 'certs', 'front-proxy-ca.crt'), 'utf8');
    ext = await startExtensionServer({ frontProxyCA, serviceName: 'metrics-server', namespace: 'default' });
    const reg = registration('default', 'metrics-server', ext.port, ext.ca);
    const svc = await s.client.post('/api/v1/namespaces/default/services', reg.service);
    assert.equal(svc.status, 201, svc.text);
    const created = await s.client.post(AR, reg.apiService('apiregistration.orch.io/v1'));
    assert.equal(created.status, 201, created.text);
    await eventually('v1beta1.metrics.k8s.io Available', async () => (await condition('v1beta1.metrics.k8s.io'))?.status === 'True');
  });
  after(async () => {
    await s?.stop();
    await ext?.close();
  });

  it('registers a local APIService per served group version, available at once', async () => {
    const apps = await eventually('v1.apps', async () => {
      const r = await s.client.get(`${AR}/v1.apps`);
      return r.status === 200 && r.body;
    });
    assert.deepEqual(apps.spec, { group: 'apps', version: 'v1', groupPriorityMinimum: 17800, versionPriority: 15 });
    assert.equal(apps.status.conditions[0].reason, 'Local');
    const core = await s.client.get(`${AR}/v1.`);
    assert.equal(core.body.spec.groupPriorityMinimum, 18000);
  });

  it("registers a CRD's group version as a local APIService and removes it with the CRD", async () => {
    const crd = {
      apiVersion: 'apiextensions.orch.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.agg.example.com' },
      spec: {
        group: 'agg.example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', kind: 'Widget' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }],
      },
    };
    assert.equal((await s.client.post('/apis/apiextensions.orch.io/v1/customresourcedefinitions', crd)).status, 201);
    const registered = await eventually('v1.agg.example.com', async () => {
      const r = await s.client.get(`${AR}/v1.agg.example.com`);
      return r.status === 200 && r.body;
    });
    assert.deepEqual(registered.spec, { group: 'agg.example.com', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 100 });
    assert.equal(registered.metadata.labels['kube-aggregator.orch.io/automanaged'], 'true');
    await s.client.delete('/apis/apiextensions.orch.io/v1/customresourcedefinitions/widgets.agg.example.com');
    await eventually('v1.agg.example.com removed', async () => (await s.client.get(`${AR}/v1.agg.example.com`)).status === 404);
  });

  it('publishes extension-apiserver-authentication for extension servers', async () => {
    const cm = await eventually('the ConfigMap', async () => {
      const r = await s.client.get('/api/v1/namespaces/orch-system/configmaps/extension-apiserver-authentication');
      return r.status === 200 && r.body;
    });
    assert.equal(cm.data['requestheader-client-ca-file'], readFileSync(join(s.dataDir, 'certs', 'front-proxy-ca.crt'), 'utf8'));
    assert.equal(cm.data['requestheader-allowed-names'], '["front-proxy-client"]');
    assert.equal(cm.data['requestheader-username-headers'], '["X-Remote-User"]');
    assert.equal(cm.data['requestheader-group-headers'], '["X-Remote-Group"]');
    assert.equal(cm.data['requestheader-extra-headers-prefix'], '["X-Remote-Extra-"]');
  });

  it('proxies a request with the front-proxy identity, never the caller credentials', async () => {
    ext.seen.length = 0;
    const r = await s.client.request('GET', '/apis/metrics.k8s.io/v1beta1/nodes', { headers: { 'X-Remote-User': 'mallory' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.kind, 'NodeMetricsList');
    const seen = ext.seen.find((x) => x.url.startsWith('/apis/metrics.k8s.io/v1beta1/nodes'))!;
    assert.equal(seen.clientCN, 'front-proxy-client');
    assert.equal(seen.headers['x-remote-user'], 'admin');
    assert.equal(seen.headers['x-remote-group'], 'system:masters, system:authenticated');
    assert.equal(seen.headers.authorization, undefined);
  });

  it('names an impersonated user, not the impersonation headers', async () => {
    ext.seen.length = 0;
    const r = await s.client.request('GET', '/apis/metrics.k8s.io/v1beta1/nodes', { headers: { 'Impersonate-User': 'jane' } });
    assert.equal(r.status, 200, r.text);
    const seen = ext.seen.find((x) => x.url.startsWith('/apis/metrics.k8s.io/v1beta1/nodes'))!;
    assert.equal(seen.headers['x-remote-user'], 'jane');
    assert.equal(seen.headers['x-remote-group'], 'system:authenticated');
    assert.equal(seen.headers['impersonate-user'], undefined);
    assert.equal(seen.headers.authorization, undefined);
  });

  it('refuses an unauthenticated caller before proxying', async () => {
    ext.seen.length = 0;
    const r = await s.anonymous.get('/apis/metrics.k8s.io/v1beta1/nodes');
    assert.ok(r.status === 401 || r.status === 403, String(r.status));
    assert.equal(ext.seen.length, 0);
  });

  it('streams a watch through', async () => {
    const w = await s.client.watch('/apis/metrics.k8s.io/v1beta1/nodes?watch=true');
    try {
      assert.equal(w.status, 200);
      assert.equal((await w.next(5000)).type, 'ADDED');
      assert.equal((await w.next(5000)).type, 'MODIFIED');
    } finally {
      w.close();
    }
  });

  it('joins an upgrade to the extension server, with the front-proxy identity', async () => {
    ext.seen.length = 0;
    const url = new URL(s.url);
    const echoed = await new Promise<string>((resolve, reject) => {
      const req = httpsRequest({
        host: url.hostname,
        port: url.port,
        ca: s.ca,
        path: '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/web-1/exec',
        headers: { Authorization: `Bearer ${s.token}`, Connection: 'Upgrade', Upgrade: 'echo' },
      });
      req.on('upgrade', (res, socket) => {
        assert.equal(res.statusCode, 101);
        socket.once('data', (d: Buffer) => {
          socket.destroy();
          resolve(d.toString());
        });
        socket.write('ping');
      });
      req.on('response', (res) => reject(new Error(`answered ${res.statusCode}`)));
      req.on('error', reject);
      req.end();
    });
    assert.equal(echoed, 'ping');
    const seen = ext.seen.find((x) => x.url.endsWith('/exec'))!;
    assert.equal(seen.clientCN, 'front-proxy-client');
    assert.equal(seen.headers['x-remote-user'], 'admin');
    assert.equal(seen.headers.authorization, undefined);
  });

  /** An upgrade request to the extension server through orch; resolves with the answer when it is not an upgrade. */
  const upgradeRequest = () => {
    const url = new URL(s.url);
    return httpsRequest({
      host: url.hostname,
      port: url.port,
      ca: s.ca,
      path: '/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/web-1/exec',
      headers: { Authorization: `Bearer ${s.token}`, Connection: 'Upgrade', Upgrade: 'echo' },
    });
  };

  it('answers 504 to an upgrade the extension server never answers, and lets go of its connection', async () => {
    ext.hangingUpgrades = true;
    try {
      const answer = await new Promise<{ code: number; body: string; ended: boolean }>((resolve, reject) => {
        const req = upgradeRequest();
        req.on('upgrade', () => reject(new Error('upgraded')));
        req.on('response', (res) => {
          let body = '';
          res.on('data', (d: Buffer) => {
            body += d.toString();
          });
          res.on('end', () => resolve({ code: res.statusCode ?? 0, body, ended: true }));
        });
        req.on('error', reject);
        req.end();
      });
      assert.equal(answer.code, 504);
      const st = JSON.parse(answer.body);
      assert.equal(st.reason, 'Timeout');
      assert.equal(st.message, 'request did not complete within the allotted timeout');
      await eventually('the extension server sees its connection closed', async () => ext.heldUpgrades === 0);
    } finally {
      ext.hangingUpgrades = false;
    }
  });

  it('closes the upstream connection of an unanswered upgrade when the client goes away', async () => {
    ext.hangingUpgrades = true;
    try {
      const req = upgradeRequest();
      req.on('error', () => {});
      req.end();
      await eventually('the upgrade reached the extension server', async () => ext.heldUpgrades === 1);
      req.destroy();
      await eventually('its connection closed', async () => ext.heldUpgrades === 0);
    } finally {
      ext.hangingUpgrades = false;
    }
  });

  it('answers 503 when the caBundle does not verify the extension server', async () => {
    const reg = registration('default', 'metrics-server', ext.port, 'not a certificate', 'badca.example.com', 'v1');
    assert.equal((await s.client.post(AR, reg.apiService('apiregistration.orch.io/v1'))).status, 201);
    // The availability check does not verify the serving certificate (as kube-aggregator's): it passes.
    await eventually('v1.badca.example.com available', async () => (await condition('v1.badca.example.com'))?.status === 'True');
    const r = await s.client.get('/apis/badca.example.com/v1/things');
    assert.equal(r.status, 503, r.text);
    assert.match(r.body.message, /^error trying to reach service: /);
  });

  it('merges the group into discovery, by priority', async () => {
    const apis = await s.client.get('/apis');
    const names = apis.body.groups.map((g: { name: string }) => g.name);
    assert.equal(names[0], 'apiregistration.orch.io');
    assert.ok(names.includes('metrics.k8s.io'));
    // groupPriorityMinimum 100 sorts below every built-in group (1000 and more).
    assert.equal(names.at(-1), 'metrics.k8s.io');
    const group = await s.client.get('/apis/metrics.k8s.io');
    assert.equal(group.body.preferredVersion.groupVersion, 'metrics.k8s.io/v1beta1');
    const resources = await s.client.get('/apis/metrics.k8s.io/v1beta1');
    assert.deepEqual(
      resources.body.resources.map((r: { name: string }) => r.name),
      ['nodes', 'pods'],
    );
  });

  it("lists the extension server's OpenAPI v3 document and proxies it", async () => {
    const index = await s.client.get('/openapi/v3');
    assert.deepEqual(index.body.paths['apis/metrics.k8s.io/v1beta1'], { serverRelativeURL: '/openapi/v3/apis/metrics.k8s.io/v1beta1' });
    assert.ok(index.body.paths['apis/apps/v1'], 'the local documents stay');
    const doc = await s.client.get('/openapi/v3/apis/metrics.k8s.io/v1beta1');
    assert.equal(doc.status, 200);
    assert.deepEqual(Object.keys(doc.body.paths), ['/apis/metrics.k8s.io/v1beta1/nodes']);
  });

  it('answers 503 for an APIService whose service does not exist, with its condition', async () => {
    const reg = registration('default', 'nowhere', 1, ext.ca, 'nothing.example.com', 'v1');
    assert.equal((await s.client.post(AR, reg.apiService('apiregistration.orch.io/v1'))).status, 201);
    const c = await eventually('ServiceNotFound', async () => {
      const c = await condition('v1.nothing.example.com');
      return c?.reason === 'ServiceNotFound' && c;
    });
    assert.equal(c.status, 'False');
    assert.equal(c.message, 'service/nowhere in "default" is not present');
    const r = await s.client.get('/apis/nothing.example.com/v1/things');
    assert.equal(r.status, 503);
    assert.equal(r.body.message, 'service unavailable');
  });

  it('marks a failing extension server unavailable and answers 503, then recovers', async () => {
    ext.failing = true;
    try {
      // The status write is what the controller reacts to; an update of the APIService makes it check again.
      await s.client.patch(`${AR}/v1beta1.metrics.k8s.io`, { metadata: { labels: { poke: '1' } } }, 'application/merge-patch+json');
      const c = await eventually('FailedDiscoveryCheck', async () => {
        const c = await condition('v1beta1.metrics.k8s.io');
        return c?.reason === 'FailedDiscoveryCheck' && c;
      });
      assert.match(c.message, /bad status from https:\/\/localhost:\d+\/apis\/metrics\.k8s\.io\/v1beta1: 500/);
      assert.equal((await s.client.get('/apis/metrics.k8s.io/v1beta1/nodes')).status, 503);
    } finally {
      ext.failing = false;
    }
    await s.client.patch(`${AR}/v1beta1.metrics.k8s.io`, { metadata: { labels: { poke: '2' } } }, 'application/merge-patch+json');
    await eventually('available again', async () => (await condition('v1beta1.metrics.k8s.io'))?.status === 'True');
  });

  it('refuses an invalid APIService with Kubernetes messages', async () => {
    const r = await s.client.post(AR, {
      apiVersion: 'apiregistration.orch.io/v1',
      kind: 'APIService',
      metadata: { name: 'wrong' },
      spec: { group: 'a.example.com', version: 'v1', groupPriorityMinimum: 0, versionPriority: 5000, caBundle: 'eA==' },
    });
    assert.equal(r.status, 422);
    const fields = r.body.details.causes.map((c: { field: string }) => c.field).sort();
    assert.deepEqual(fields, ['metadata.name', 'spec.caBundle', 'spec.groupPriorityMinimum', 'spec.versionPriority']);
  });

  it('answers 504 for a request the extension server never answers, and marks it unavailable', async () => {
    const started = Date.now();
    ext.hanging = true;
    try {
      const r = await s.client.get('/apis/metrics.k8s.io/v1beta1/nodes');
      assert.equal(r.status, 504, r.text);
      assert.equal(r.body.reason, 'Timeout');
      assert.ok(Date.now() - started < 10_000);
      await s.client.patch(`${AR}/v1beta1.metrics.k8s.io`, { metadata: { labels: { poke: '3' } } }, 'application/merge-patch+json');
      const c = await eventually('FailedDiscoveryCheck on a hang', async () => {
        const c = await condition('v1beta1.metrics.k8s.io');
        return c?.reason === 'FailedDiscoveryCheck' && c;
      });
      assert.match(c.message, /Timeout|timed out/);
      assert.equal((await s.client.get('/apis/metrics.k8s.io/v1beta1/nodes')).status, 503);
    } finally {
      ext.hanging = false;
    }
  });
});
