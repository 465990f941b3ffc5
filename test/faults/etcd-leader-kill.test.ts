/**
 * Fault: the etcd leader is killed (SIGKILL) under write load through the front door. Every write
 * that was acknowledged is readable afterwards, and writes resume within 5 s.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { etcdLeader } from '../support/etcd-members.js';
import { acknowledged, listConfigMapNames, outcomes, resumedAfter, startWriteLoad } from '../support/write-load.js';
import { useFaultCluster } from '../support/fault-cluster.js';
import { createNamespace } from '../support/namespaces.js';

const RESUME_LIMIT_MS = 5000;

describe('killing the etcd leader under write load', () => {
  const fault = useFaultCluster();

  before(async () => {
    await createNamespace(fault.client, 'load');
  });

  it('loses no acknowledged write and resumes writing within 5 s', async (t) => {
    const load = startWriteLoad(fault.client, 'load', { writers: 4, prefix: 'w' });
    await new Promise((r) => setTimeout(r, 2000));
    const leader = await etcdLeader(fault.cluster);
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
    const stored = await listConfigMapNames(fault.client, 'load');
    const acked = acknowledged(records);
    assert.ok(acked.length > 0, 'no write was acknowledged');
    const lost = acked.filter((name) => !stored.has(name));
    assert.deepEqual(lost, [], `${lost.length} of ${acked.length} acknowledged writes are gone`);
  });
});
