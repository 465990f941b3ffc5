/**
 * The raw etcd baselines: the same count, value size and concurrency as the API scenarios, straight
 * to etcd with the etcd3 client (puts of new keys, then gets of random ones).
 */
import { randomBytes } from 'node:crypto';
import { Etcd3 } from 'etcd3';
import { runLoad } from './stats.js';
import type { BenchOptions, ScenarioResult } from './workload.js';

/**
 * Runs etcd-put then etcd-get under a fresh prefix, which it deletes afterwards; `measure` wraps
 * each (to add CPU figures).
 */
export async function runEtcdBaseline(
  endpoint: string,
  options: BenchOptions,
  measure: (run: (timedStart: () => Promise<void>) => Promise<ScenarioResult>) => Promise<ScenarioResult[]>,
): Promise<ScenarioResult[]> {
  const client = new Etcd3({ hosts: [endpoint] });
  const prefix = `/orch-bench/${randomBytes(4).toString('hex')}/`;
  const value = Buffer.alloc(1024, 'x');
  try {
    const put = await measure(async () => ({
      scenario: 'etcd-put',
      ...(await runLoad({ concurrency: options.concurrency, count: options.count }, async (i) => {
        await client.put(prefix + i).value(value);
      })),
    }));
    const get = await measure(async (onTimedStart) => ({
      scenario: 'etcd-get',
      ...(await runLoad(
        { concurrency: options.concurrency, seconds: options.seconds, warmupSeconds: options.warmupSeconds, onTimedStart },
        async () => {
          const v = await client.get(prefix + Math.floor(Math.random() * options.count)).buffer();
          if (!v) throw new Error('etcd-get: key missing');
        },
      )),
    }));
    return [...put, ...get];
  } finally {
    await client
      .delete()
      .prefix(prefix)
      .catch(() => {});
    client.close();
  }
}
