/**
 * End to end: two orch-apiserver processes sharing one etcd, driven by kubectl and raw HTTPS. A write
 * through either replica is seen by reads and watches on the other.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startEtcd, type EtcdProcess } from '../support/etcd.js';
import { startProcess } from '../support/processes.js';
import { newKubectl } from '../support/kubectl.js';
import { startTestServer, type TestServer } from '../support/api-server.js';

describe('two API server replicas on one etcd', () => {
  let etcd: EtcdProcess;
  const replicas: (TestServer & { kubectl: ReturnType<typeof newKubectl> })[] = [];

  before(async () => {
    etcd = await startEtcd();
    for (let i = 0; i < 2; i++) {
      const s = await startTestServer({ process: true, etcd: etcd.endpoint, etcdPrefix: '/registry' });
      replicas.push({ ...s, kubectl: newKubectl(s.kubeconfig) });
    }
  });

  after(async () => {
    for (const r of replicas) await r.stop();
    await etcd?.stop();
  });

  it('both replicas are ready and share the system namespaces', async () => {
    for (const r of replicas) {
      const ready = await r.client.get('/readyz?verbose');
      assert.equal(ready.status, 200, ready.text);
      assert.match(ready.text, /\[\+\]etcd ok/);
      const ns = await r.kubectl.ok(['get', 'ns', '-o', 'name']);
      assert.deepEqual(ns.trim().split('\n').sort(), [
        'namespace/default',
        'namespace/orch-node-lease',
        'namespace/orch-public',
        'namespace/orch-system',
      ]);
    }
  });

  it('a write through A is read through B (kubectl)', async () => {
    const [a, b] = replicas;
    await a.kubectl.ok(['create', 'cm', 'shared', '--from-literal=k=v']);
    assert.equal(await b.kubectl.ok(['get', 'cm', 'shared', '-o', 'jsonpath={.data.k}']), 'v');
  });

  it('a write through A is seen by a watch on B, in order, from a resourceVersion read on A', async () => {
    const [a, b] = replicas;
    const rv = (await a.client.get('/api/v1/namespaces/default/configmaps')).body.metadata.resourceVersion;
    const w = await b.client.watch(`/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${rv}`);
    const written: string[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await a.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: `x${i}` } });
      written.push(r.body.metadata.resourceVersion);
    }
    const seen: string[] = [];
    for (let i = 0; i < 10; i++) seen.push((await w.next()).object.metadata.resourceVersion);
    assert.deepEqual(seen, written);
    w.close();
  });

  it('kubectl get -w on B sees a create through A', async () => {
    const [a, b] = replicas;
    const w = startProcess('/usr/bin/kubectl', ['--kubeconfig', b.kubeconfig, 'get', 'cm', '-w', '--output-watch-events']);
    await w.waitFor(/ADDED\s+shared\s/, 20_000);
    await a.kubectl.ok(['create', 'cm', 'from-a']);
    await w.waitFor(/ADDED\s+from-a\s/);
    await w.stop('SIGKILL');
    assert.equal(await b.kubectl.ok(['get', 'cm', 'from-a', '-o', 'name']), 'configmap/from-a\n');
  });

  it('optimistic concurrency holds across replicas', async () => {
    const [a, b] = replicas;
    const cur = (await a.client.get('/api/v1/namespaces/default/configmaps/shared')).body;
    const first = await b.client.put('/api/v1/namespaces/default/configmaps/shared', { ...cur, data: { k: 'b' } });
    assert.equal(first.status, 200);
    const second = await a.client.put('/api/v1/namespaces/default/configmaps/shared', { ...cur, data: { k: 'a' } });
    assert.equal(second.status, 409);
  });
});
