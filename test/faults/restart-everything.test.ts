/**
 * Fault: every process of the cluster (etcd members, replicas, front door, controller managers) is
 * killed with SIGKILL under write load, then the cluster is started again on the same directory:
 * every acknowledged write is there.
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCluster, type Cluster } from '../../scripts/cluster-topology.js';
import { newTestClient } from '../support/http-client.js';
import { acknowledged, listConfigMapNames, outcomes, startWriteLoad } from '../support/write-load.js';

describe('kill -9 and restart everything', () => {
  let dir: string;
  let cluster: Cluster | undefined;

  after(async () => {
    await cluster?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('keeps every acknowledged write', async (t) => {
    dir = await mkdtemp(join(tmpdir(), 'orch-fault-'));
    const options = { dir, replicas: 2, controllerManagers: 1, unsafeNoFsync: true };
    const first = await startCluster(options);
    cluster = first;
    const client = newTestClient({ url: first.url, ca: first.files.caPem, token: first.files.token });
    assert.equal((await client.post('/api/v1/namespaces', { metadata: { name: 'load' } })).status, 201);
    const load = startWriteLoad(client, 'load', { writers: 4, prefix: 'w' });
    await new Promise((r) => setTimeout(r, 3000));
    const all = [...first.etcd, ...first.apiservers, first.proxy, ...first.controllerManagers];
    for (const m of all) m.signal('SIGKILL');
    await Promise.all(all.map((m) => m.stop()));
    const records = await load.stop();
    client.close();
    const acked = acknowledged(records);
    t.diagnostic(`restart everything: ${acked.length} writes acknowledged before the kill; outcomes ${JSON.stringify(outcomes(records))}`);
    assert.ok(acked.length > 0);

    cluster = await startCluster(options);
    const again = newTestClient({ url: cluster.url, ca: cluster.files.caPem, token: cluster.files.token });
    try {
      const stored = await listConfigMapNames(again, 'load');
      const lost = acked.filter((name) => !stored.has(name));
      assert.deepEqual(lost, [], `${lost.length} of ${acked.length} acknowledged writes are gone`);
    } finally {
      again.close();
    }
  });
});
