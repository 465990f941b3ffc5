/**
 * Fault: etcd is compacted while clients watch under write load (replicas without the watch cache,
 * so watches read etcd's history). A watcher that comes back with a resourceVersion older than the
 * compaction gets 410 Gone, lists again and carries on; no watcher loses an event.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually } from '../support/eventually.js';
import { startRelistingWatcher } from '../support/relisting-watcher.js';
import { acknowledged, startWriteLoad } from '../support/write-load.js';
import { useFaultCluster } from '../support/fault-cluster.js';
import { createNamespace } from '../support/namespaces.js';

describe('etcd compaction during watches', () => {
  const fault = useFaultCluster({ apiserverArgs: ['--watch-cache=false'] });

  before(async () => {
    await createNamespace(fault.client, 'load');
  });

  it('answers a watch from before the compaction with 410, and the client relists without losing an event', async (t) => {
    const rv0 = (await fault.client.get('/api/v1/namespaces/load/configmaps')).body.metadata.resourceVersion;
    const live = Array.from({ length: 5 }, () => startRelistingWatcher(fault.client, 'load', rv0));
    const load = startWriteLoad(fault.client, 'load', { writers: 3, prefix: 'w' });
    await new Promise((r) => setTimeout(r, 2000));

    const compactAt = (await fault.client.get('/api/v1/namespaces/load/configmaps?limit=1')).body.metadata.resourceVersion;
    const res = await fetch(`${fault.cluster.etcdEndpoints[0]}/v3/kv/compaction`, {
      method: 'POST',
      body: JSON.stringify({ revision: compactAt, physical: true }),
    });
    assert.equal(res.status, 200, await res.text());
    // A client that was away since rv0 comes back while writes go on.
    const late = startRelistingWatcher(fault.client, 'load', rv0);
    await new Promise((r) => setTimeout(r, 2000));
    const acked = acknowledged(await load.stop());

    const watchers = [...live, late];
    await eventually('every watcher saw every acknowledged write', async () =>
      watchers.every((w) => acked.every((name) => w.names.has(name))),
    ).catch(() => undefined);
    for (const w of watchers) w.stop();
    t.diagnostic(
      `compaction at ${compactAt}: late watcher 410s ${late.gone}, relists ${late.relists}; live watchers 410s ${live.reduce((n, w) => n + w.gone, 0)}`,
    );
    assert.ok(late.gone >= 1, 'the watch from before the compaction was not answered 410');
    assert.ok(late.relists >= 1);
    for (const w of watchers) {
      assert.deepEqual(w.errors, []);
      const missed = acked.filter((name) => !w.names.has(name));
      assert.deepEqual(missed, [], `a watcher missed ${missed.length} of ${acked.length} events`);
    }
  });
});
