/**
 * Fault: the etcd leader is killed (SIGKILL) under write load through the front door. Every write
 * that was acknowledged is readable afterwards, and writes resume within 5 s.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCluster, type Cluster } from '../../scripts/cluster-topology.js';
import { etcdLeader } from '../support/etcd-members.js';
import { newTestClient, type TestClient } from '../support/http-client.js';
import { acknowledged, listConfigMapNames, outcomes, resumedAfter, startWriteLoad } from '../support/write-load.js';

const RESUME_LIMIT_MS = 5000;

describe('killing the etcd leader under write load', () => {
  let dir: string;
  let cluster: Cluster;
  let client: TestClient;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-fault-'));
    cluster = await startCluster({ dir, replicas: 2, controllerManagers: 0, unsafeNoFsync: true });
    client = newTestClient({ url: cluster.url, ca: cluster.files.caPem, token: cluster.files.token });
    assert.equal((await client.post('/api/v1/namespaces', { metadata: { name: 'load' } })).status, 201);
  });

  after(async () => {
    client?.close();
    await cluster?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('loses no acknowledged write and resumes writing within 5 s', async (t) => {
    const load = startWriteLoad(client, 'load', { writers: 4, prefix: 'w' });
    await new Promise((r) => setTimeout(r, 2000));
    const leader = await etcdLeader(cluster);
    const killedAt = Date.now();
    leader.signal('SIGKILL');
    const deadline = killedAt + RESUME_LIMIT_MS + 10_000;
    while (resumedAfter(load.records, killedAt) === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 2000));
    const records = await load.stop();
    const resumeMs = resumedAfter(records, killedAt);
    t.diagnostic(`etcd leader kill: writes resumed after ${resumeMs} ms; outcomes ${JSON.stringify(outcomes(records))}`);
    assert.ok(resumeMs !== undefined && resumeMs < RESUME_LIMIT_MS, `writes resumed after ${resumeMs} ms`);

    await leader.start(); // the member rejoins: reads below must not depend on which members are up
    const stored = await listConfigMapNames(client, 'load');
    const acked = acknowledged(records);
    assert.ok(acked.length > 0, 'no write was acknowledged');
    const lost = acked.filter((name) => !stored.has(name));
    assert.deepEqual(lost, [], `${lost.length} of ${acked.length} acknowledged writes are gone`);
  });
});
