/**
 * End to end (issue 14): stock kubectl against the default domain (orch.io) asks for
 * `as=Table;g=meta.k8s.io;v=v1` and prints the server-side columns of each kind, not NAME/AGE only.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/api-server.js';
import { createDefaultServiceAccount } from '../support/namespaces.js';
import { KUBECTL, newKubectl } from '../support/kubectl.js';
import { startProcess } from '../support/processes.js';

/** The header line of each table kubectl prints, split on runs of spaces. */
function headers(out: string): string[][] {
  return out
    .split('\n')
    .filter((l) => l.startsWith('NAME'))
    .map((l) => l.trim().split(/\s{2,}/));
}

describe('kubectl get against the default domain prints server-side columns', () => {
  let server: TestServer;
  let k: ReturnType<typeof newKubectl>;

  before(async () => {
    server = await startTestServer({ process: true });
    k = newKubectl(server.kubeconfig);
    await createDefaultServiceAccount(server.client, 'default');
    const c = server.client;
    const pod = { metadata: { name: 'web-0' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    assert.equal((await c.post('/api/v1/namespaces/default/pods', pod)).status, 201);
    const svc = { metadata: { name: 'web' }, spec: { ports: [{ port: 80 }], selector: { app: 'web' } } };
    assert.equal((await c.post('/api/v1/namespaces/default/services', svc)).status, 201);
    const labels = { app: 'web' };
    const deploy = {
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    };
    assert.equal((await c.post('/apis/apps/v1/namespaces/default/deployments', deploy)).status, 201);
  });
  after(async () => {
    await server?.stop();
  });

  it('kubectl get pods,svc,deploy', async () => {
    const out = await k.ok(['get', 'pods,svc,deploy']);
    assert.deepEqual(headers(out), [
      ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'],
      ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE'],
      ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'],
    ]);
    assert.match(out, /pod\/web-0\s+0\/1\s+Pending\s+0\s+\d+s/);
    assert.match(out, /service\/web\s+ClusterIP\s+10\.\d+\.\d+\.\d+\s+<none>\s+80\/TCP\s+\d+s/);
    assert.match(out, /deployment\.apps\/web\s+0\/1\s+0\s+0\s+\d+s/);
  });

  it('kubectl get -o wide adds the wide columns', async () => {
    const out = await k.ok(['get', 'svc', 'web', '-o', 'wide']);
    assert.deepEqual(headers(out), [['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE', 'SELECTOR']]);
  });

  it('kubectl get -w: a row is rendered when its event is sent, so a later object is not <invalid> old', async () => {
    assert.equal((await server.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'early' } })).status, 201);
    const watch = startProcess(KUBECTL, ['--kubeconfig', server.kubeconfig, 'get', 'configmaps', '-w'], k.env);
    try {
      await watch.waitFor(/early\s+0\s+\S+/, 10_000);
      // Past the watch's start by more than the second a creationTimestamp is rounded to.
      await new Promise((r) => setTimeout(r, 3000));
      assert.equal((await server.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'late' } })).status, 201);
      const [, age] = await watch.waitFor(/late\s+0\s+(\S+)/, 10_000);
      assert.match(age, /^[0-2]s$/);
    } finally {
      await watch.stop();
    }
  });
});
