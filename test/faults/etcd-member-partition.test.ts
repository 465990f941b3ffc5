/**
 * Fault: the etcd leader is cut off (SIGSTOP: it neither answers nor learns anything) and later comes
 * back (SIGCONT) while a client writes a counter and reads it back through the front door. A
 * consistent read (no resourceVersion: a get, and a list) never returns a value older than the last
 * acknowledged write, while the member is away or after it is back.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { etcdLeader } from '../support/etcd-members.js';
import { useFaultCluster } from '../support/fault-cluster.js';

const COUNTER = '/api/v1/namespaces/default/configmaps/counter';

describe('a partitioned etcd member', () => {
  const fault = useFaultCluster();

  before(async () => {
    const created = await fault.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'counter' }, data: { n: '0' } });
    assert.equal(created.status, 201, created.text);
  });

  it('serves no stale consistent read while the leader is stopped or after it is back', async (t) => {
    const leader = await etcdLeader(fault.cluster);
    let acked = 0;
    const stale: string[] = [];
    const failures: Record<string, number> = {};
    const fail = (what: string, status: number): void => {
      failures[`${what} ${status}`] = (failures[`${what} ${status}`] ?? 0) + 1;
    };
    let slowest = 0;
    const timed = async <T>(request: Promise<T>): Promise<T> => {
      const start = Date.now();
      const result = await request;
      slowest = Math.max(slowest, Date.now() - start);
      return result;
    };
    const round = async (n: number): Promise<void> => {
      const put = await timed(fault.client.put(COUNTER, { metadata: { name: 'counter' }, data: { n: String(n) } }));
      if (put.status === 200) acked = n;
      else fail('update', put.status);
      const got = await timed(fault.client.get(COUNTER));
      if (got.status !== 200) fail('get', got.status);
      else if (Number(got.body.data.n) < acked) stale.push(`get saw ${got.body.data.n} after ${acked} was acknowledged`);
      const list = await timed(fault.client.get('/api/v1/namespaces/default/configmaps'));
      const item =
        list.status === 200 ? list.body.items.find((i: { metadata: { name: string } }) => i.metadata.name === 'counter') : undefined;
      if (list.status !== 200) fail('list', list.status);
      else if (Number(item?.data.n) < acked) stale.push(`list saw ${item?.data.n} after ${acked} was acknowledged`);
    };
    let n = 1;
    const runFor = async (ms: number): Promise<void> => {
      const end = Date.now() + ms;
      while (Date.now() < end) await round(n++);
    };

    await runFor(1000);
    leader.signal('SIGSTOP');
    const stoppedFrom = n;
    await runFor(6000);
    leader.signal('SIGCONT');
    const backFrom = n;
    await runFor(4000);
    t.diagnostic(
      `partition: rounds ${stoppedFrom - 1} before, ${backFrom - stoppedFrom} while stopped, ${n - backFrom} after; last acknowledged ${acked}; slowest request ${slowest} ms; failures ${JSON.stringify(failures)}`,
    );
    assert.deepEqual(stale, []);
    assert.ok(acked >= backFrom, 'no write was acknowledged after the member came back');
    for (const key of Object.keys(failures)) assert.match(key, / (429|503|504)$/, `a request failed with ${key}`);
  });
});
