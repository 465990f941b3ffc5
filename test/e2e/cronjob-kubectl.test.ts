/**
 * End to end, and slow on purpose (up to a minute of real time): a CronJob created with kubectl and the
 * schedule `* * * * *` gets its Job within 70 s; the test, acting as the kubelet, finishes the Job's
 * Pod and `kubectl wait --for=condition=complete` returns; `kubectl events --for cronjob/…` shows
 * the controller's events.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { newKubectl } from '../support/kubectl.js';
import { newTestClient, type TestClient } from '../support/http-client.js';
import { eventually } from '../support/eventually.js';
import { setPodFinished } from '../support/node-agent.js';
import { startProcess, type Proc } from '../support/processes.js';
import { startLocalApiServer, type LocalApiServer } from '../../scripts/bench/local-cluster.js';
import { seededCertDirArgs } from '../support/test-pki.js';

const CONTROLLER_MANAGER = 'dist/controllers/cmd/controller-manager.js';

describe('kubectl create cronjob (k8s.io domain)', () => {
  let server: LocalApiServer;
  let manager: Proc;
  let k: ReturnType<typeof newKubectl>;
  let api: TestClient;

  before(async () => {
    server = await startLocalApiServer({ args: ['--api-domain=k8s.io'] });
    k = newKubectl(server.kubeconfig);
    const cfg = parse(readFileSync(server.kubeconfig, 'utf8'));
    api = newTestClient({
      url: cfg.clusters[0].cluster.server,
      ca: Buffer.from(cfg.clusters[0].cluster['certificate-authority-data'], 'base64').toString('utf8'),
      token: cfg.users[0].user.token,
    });
    manager = startProcess(process.execPath, [
      CONTROLLER_MANAGER,
      '--kubeconfig',
      server.kubeconfig,
      '--secure-port=0',
      ...seededCertDirArgs(),
      '--bind-address=127.0.0.1',
      '--api-domain=k8s.io',
      '--leader-elect=false',
      '--controllers=serviceaccount,cronjob,job',
    ]);
    await manager.waitFor(/"msg":"started controller".*cronjob-controller/, 30_000);
  });
  after(async () => {
    api?.close();
    await manager?.stop();
    await server?.stop();
  });

  it('`* * * * *` creates a Job within 70 s, which completes when its Pod does', async (t) => {
    const started = Date.now();
    await k.ok(['create', 'cronjob', 'tick', '--image=busybox', '--schedule=* * * * *', '--', 'date']);
    const job = await eventually(
      'a Job',
      async () => {
        const items = (await api.get('/apis/batch/v1/namespaces/default/jobs')).body.items as any[];
        return items.length > 0 && items[0];
      },
      70_000,
    );
    const ms = Date.now() - started;
    t.diagnostic(`first Job ${ms} ms after kubectl create cronjob`);
    assert.ok(ms <= 70_000);
    assert.match(job.metadata.name, /^tick-\d+$/);
    assert.equal(job.metadata.ownerReferences[0].kind, 'CronJob');

    const pod = await eventually('its Pod', async () => {
      const items = (await api.get(`/api/v1/namespaces/default/pods?labelSelector=job-name%3D${job.metadata.name}`)).body.items as any[];
      return items[0];
    });
    await setPodFinished(api, 'default', pod.metadata.name);
    await k.ok(['wait', '--for=condition=complete', `job/${job.metadata.name}`, '--timeout=20s']);
    const cj = JSON.parse(await k.ok(['get', 'cronjob', 'tick', '-o', 'json']));
    assert.ok(cj.status.lastScheduleTime);
    await eventually(
      'lastSuccessfulTime',
      async () => JSON.parse(await k.ok(['get', 'cronjob', 'tick', '-o', 'json'])).status.lastSuccessfulTime,
    );
    const events = await k.ok(['events', '--for', 'cronjob/tick']);
    assert.match(events, /SuccessfulCreate\s+CronJob\/tick\s+Created job tick-\d+/);
    assert.match(events, /SawCompletedJob/);
  });
});
