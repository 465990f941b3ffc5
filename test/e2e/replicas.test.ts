/**
 * End to end: two orch-apiserver processes sharing one etcd, driven by kubectl and raw HTTPS. A write
 * through either replica is seen by reads and watches on the other.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { startEtcd, type EtcdProcess } from '../support/etcd.js';
import { freePort, startProcess, type Proc } from '../support/processes.js';
import { newKubectl } from '../support/kubectl.js';
import { newTestClient, type TestClient } from '../support/http-client.js';
import { ensureCA, ensureServingCert } from '../../apiserver/component-base/certs/certs.js';
import { writeAdminKubeconfig } from '../../scripts/cluster-files.js';

const APISERVER = 'dist/apiserver/cmd/apiserver.js';

describe('two API server replicas on one etcd', () => {
  let dir: string;
  let etcd: EtcdProcess;
  const replicas: { proc: Proc; port: number; client: TestClient; kubectl: ReturnType<typeof newKubectl> }[] = [];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-replicas-'));
    etcd = await startEtcd();
    const ca = ensureCA(join(dir, 'certs'));
    const serving = ensureServingCert(join(dir, 'certs'), ca, ['127.0.0.1']);
    const token = randomBytes(16).toString('hex');
    await writeFile(join(dir, 'tokens.csv'), `${token},admin,admin,"system:masters"\n`);
    for (const name of ['a', 'b']) {
      const port = await freePort();
      const proc = startProcess(process.execPath, [
        APISERVER,
        `--etcd-servers=${etcd.endpoint}`,
        `--secure-port=${port}`,
        '--bind-address=127.0.0.1',
        `--tls-cert-file=${serving.certFile}`,
        `--tls-private-key-file=${serving.keyFile}`,
        `--token-auth-file=${join(dir, 'tokens.csv')}`,
        `--data-dir=${join(dir, name)}`,
      ]);
      await proc.waitFor(/"serving securely"/, 30_000);
      const kubeconfig = join(dir, `${name}.kubeconfig`);
      writeAdminKubeconfig(kubeconfig, `https://127.0.0.1:${port}`, { caPem: ca.certPem, token });
      const client = newTestClient({ url: `https://127.0.0.1:${port}`, token, ca: ca.certPem });
      for (let i = 0; i < 100 && (await client.get('/readyz')).status !== 200; i++) await new Promise((r) => setTimeout(r, 100));
      replicas.push({ proc, port, client, kubectl: newKubectl(kubeconfig) });
    }
  });

  after(async () => {
    for (const r of replicas) {
      r.client.close();
      await r.proc.stop();
    }
    await etcd?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('both replicas are ready and share the system namespaces', async () => {
    for (const r of replicas) {
      const ready = await r.client.get('/readyz?verbose');
      assert.equal(ready.status, 200, ready.text);
      assert.match(ready.text, /\[\+\]etcd ok/);
      const ns = await r.kubectl.ok(['get', 'ns', '-o', 'name']);
      assert.deepEqual(ns.trim().split('\n').sort(), ['namespace/default', 'namespace/orch-public', 'namespace/orch-system']);
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
    const kubeconfigB = join(dir, 'b.kubeconfig');
    const w = startProcess('/usr/bin/kubectl', ['--kubeconfig', kubeconfigB, 'get', 'cm', '-w', '--output-watch-events']);
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
