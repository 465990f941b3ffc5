/** /metrics with Kubernetes' names and labels: requests, stored objects, storage latency, watch events, hidden metrics. */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';

const CM = '/api/v1/namespaces/default/configmaps';
const servers: TestServer[] = [];
after(async () => {
  for (const s of servers) await s.stop();
});

async function start(args: string[] = []): Promise<TestServer> {
  const s = await startTestServer({ args });
  servers.push(s);
  return s;
}

describe('metrics', () => {
  it('counts requests, stored objects, storage requests and watch events', async () => {
    const s = await start();
    const w = await s.client.watch(`${CM}?watch=true`);
    for (const name of ['a', 'b']) assert.equal((await s.client.post(CM, { metadata: { name } })).status, 201);
    assert.equal((await s.client.post(`${CM}?dryRun=All`, { metadata: { name: 'dry' } })).status, 201);
    assert.equal((await w.next()).type, 'ADDED');
    assert.equal((await w.next()).type, 'ADDED');
    w.close();
    const text = (await s.client.get('/metrics')).text;
    assert.match(text, /# HELP apiserver_request_total \[STABLE\] /);
    assert.match(
      text,
      /apiserver_request_total\{verb="POST",dry_run="",group="",version="v1",resource="configmaps",subresource="",scope="resource",component="apiserver",code="201"\} 2\n/,
    );
    assert.match(
      text,
      /apiserver_request_total\{verb="POST",dry_run="All",group="",version="v1",resource="configmaps",[^}]*code="201"\} 1\n/,
    );
    assert.match(
      text,
      /apiserver_request_duration_seconds_count\{verb="POST",dry_run="",group="",version="v1",resource="configmaps",subresource="",scope="resource",component="apiserver"\} 2\n/,
    );
    // The two written here and the server's own (orch-system/extension-apiserver-authentication, published before ready).
    const stored = (await s.client.get('/api/v1/configmaps')).body.items.map((o: { metadata: { name: string } }) => o.metadata.name).sort();
    assert.deepEqual(stored, ['a', 'b', 'extension-apiserver-authentication']);
    assert.match(text, /apiserver_storage_objects\{resource="configmaps"\} 3\n/);
    assert.match(text, /apiserver_storage_objects\{resource="namespaces"\} [1-9]/);
    // The two creates here and the server's own ConfigMap's.
    assert.match(text, /etcd_request_duration_seconds_count\{operation="create",type="configmaps"\} 3\n/);
    assert.match(text, /apiserver_watch_events_total\{group="",version="v1",kind="ConfigMap"\} [2-9]/);
    // Paths nobody serves are not labelled by what the client typed.
    assert.equal((await s.client.get('/apis/made.up/v1/things')).status, 404);
    assert.doesNotMatch((await s.client.get('/metrics')).text, /made\.up|things/);
  });

  it('hides metrics deprecated in 1.27 unless --show-hidden-metrics-for-version=1.27', async () => {
    const hidden = await start();
    await hidden.client.get(CM);
    assert.doesNotMatch((await hidden.client.get('/metrics')).text, /apiserver_request_slo_duration_seconds/);
    const shown = await start(['--show-hidden-metrics-for-version=1.27']);
    await shown.client.get(CM);
    const text = (await shown.client.get('/metrics')).text;
    assert.match(text, /# HELP apiserver_request_slo_duration_seconds \[ALPHA\] \(Deprecated since 1\.27\.0\) /);
    assert.match(text, /apiserver_request_slo_duration_seconds_count\{verb="LIST",group="",version="v1",resource="configmaps",/);
  });
});
