/**
 * Fault: an API server replica is killed (SIGKILL) under load behind the front door. Clients see
 * only retryable errors (503 or 429 with Retry-After; reads are retried by the front door and see
 * none), and watches resume from their last resourceVersion on the other replica: no 410, no
 * relist, no event lost.
 */
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { eventually } from '../support/eventually.js';
import { startRelistingWatcher } from '../support/relisting-watcher.js';
import { acknowledged, outcomes, startWriteLoad, type WriteRecord } from '../support/write-load.js';
import { useFaultCluster } from '../support/fault-cluster.js';
import { createNamespace } from '../support/namespaces.js';

const WATCHERS = 10;

describe('killing an API server replica behind the front door', () => {
  const fault = useFaultCluster();

  before(async () => {
    await createNamespace(fault.client, 'load');
  });

  it('shows clients only retryable errors and resumes watches without a 410', async (t) => {
    const rv = (await fault.client.get('/api/v1/namespaces/load/configmaps')).body.metadata.resourceVersion;
    const watchers = Array.from({ length: WATCHERS }, () => startRelistingWatcher(fault.client, 'load', rv));
    const writes = startWriteLoad(fault.client, 'load', { writers: 4, prefix: 'w' });
    const reads: WriteRecord[] = [];
    let reading = true;
    const reader = (async () => {
      while (reading) {
        const start = Date.now();
        try {
          const res = await fault.client.get('/api/v1/namespaces/load/configmaps?limit=20');
          reads.push({ name: 'list', start, end: Date.now(), outcome: res.status });
        } catch (err) {
          reads.push({ name: 'list', start, end: Date.now(), outcome: (err as NodeJS.ErrnoException).code ?? String(err) });
        }
      }
    })();

    await new Promise((r) => setTimeout(r, 2000));
    fault.cluster.apiservers[0].signal('SIGKILL');
    await new Promise((r) => setTimeout(r, 4000));
    const written = await writes.stop();
    reading = false;
    await reader;

    const acked = acknowledged(written);
    await eventually(
      'every watcher saw every acknowledged write',
      async () => watchers.every((w) => acked.every((name) => w.names.has(name))),
      30_000,
    ).catch(() => undefined);
    for (const w of watchers) w.stop();

    const writeErrors = written.filter((r) => r.outcome !== 201);
    const readErrors = reads.filter((r) => r.outcome !== 200);
    t.diagnostic(
      `replica kill: writes ${JSON.stringify(outcomes(written))}, reads ${JSON.stringify(outcomes(reads))}, ` +
        `watch streams reopened ${watchers.reduce((n, w) => n + w.rewatches, 0)}, 410s ${watchers.reduce((n, w) => n + w.gone, 0)}`,
    );
    for (const r of writeErrors) {
      assert.ok((r.outcome === 503 || r.outcome === 429) && r.retryAfter !== undefined, `a write saw ${JSON.stringify(r)}`);
    }
    assert.deepEqual(readErrors, [], 'reads are retried on the other replica');
    for (const w of watchers) {
      assert.equal(w.gone, 0, 'a watch was answered 410');
      assert.equal(w.relists, 0);
      assert.deepEqual(w.errors, []);
      const missed = acked.filter((name) => !w.names.has(name));
      assert.deepEqual(missed, [], `a watcher missed ${missed.length} of ${acked.length} events`);
    }
    assert.ok(
      watchers.some((w) => w.rewatches > 0),
      'no watch stream was cut: the killed replica served none',
    );
  });
});
