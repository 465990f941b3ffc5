/**
 * What API Priority and Fairness costs a request (issue 27): two orch-apiservers on the embedded
 * store started side by side, one with APF (the default) and one with
 * --enable-priority-and-fairness=false (the plain in-flight limits); the same consistent GET of one
 * ConfigMap, as an ordinary user (not exempt: classified by the FlowSchemas, queued at its level,
 * counted), sent to both interleaved request by request after a warm-up of both, so whatever else
 * loads the machine weighs on both alike. One row per side: rate, mean, p50/p99 and the server's CPU
 * per request; the APF side's costVsOff (mean latency over the other's) and cpuCostVsOff (target:
 * both near 1).
 */
import { expectStatus, ApiClient } from './api-client.js';
import { loadKubeconfig } from './kubeconfig.js';
import { startLocalApiServer } from './local-cluster.js';
import { mean, percentile, round, runLoad } from './stats.js';
import { configMap, cpuSeconds, type BenchOptions, type ScenarioResult } from './workload.js';

const USER_TOKEN = 'apf-cost-bench-token';
const CM = '/api/v1/namespaces/default/configmaps';

type Side = 'on' | 'off';

export async function runApfCost(options: BenchOptions, nodeArgs: string[] = []): Promise<ScenarioResult[]> {
  const tokens = [`${USER_TOKEN},apf-cost-user,apf-cost-uid,"bench"`];
  const servers = {
    on: await startLocalApiServer({ tokens, nodeArgs }),
    off: await startLocalApiServer({ tokens, nodeArgs, args: ['--enable-priority-and-fairness=false'] }),
  };
  const clients = {
    on: new ApiClient({ ...loadKubeconfig(servers.on.kubeconfig), token: USER_TOKEN }, options.concurrency),
    off: new ApiClient({ ...loadKubeconfig(servers.off.kubeconfig), token: USER_TOKEN }, options.concurrency),
  };
  const sideOf = (i: number): Side => (i % 2 === 0 ? 'on' : 'off');
  try {
    for (const side of ['on', 'off'] as const)
      expectStatus(await clients[side].request('POST', CM, configMap('target')), 201, `${side}: configmap`);
    const get = async (i: number) => {
      expectStatus(await clients[sideOf(i)].request('GET', `${CM}/target`), 200, `${sideOf(i)}: get`);
    };
    // Both warm first (JIT, caches), interleaved as the timed run.
    await runLoad({ concurrency: options.concurrency, seconds: Math.max(options.warmupSeconds, 0.2) }, get);
    const cpu = async () => ({ on: (await cpuSeconds(servers.on.pid)) ?? 0, off: (await cpuSeconds(servers.off.pid)) ?? 0 });
    const latencies = { on: [] as number[], off: [] as number[] };
    const cpu0 = await cpu();
    const load = await runLoad({ concurrency: options.concurrency, seconds: options.seconds }, async (i) => {
      const t0 = performance.now();
      await get(i);
      latencies[sideOf(i)].push(performance.now() - t0);
    });
    const cpu1 = await cpu();
    if (load.errors > 0) throw new Error(`apf-cost: ${load.errors} GETs failed`);
    const cpuPerReq = (side: Side) => Math.round(((cpu1[side] - cpu0[side]) * 1e6) / Math.max(1, latencies[side].length));
    const row = (side: Side): ScenarioResult => ({
      scenario: `get-apf-${side}`,
      count: latencies[side].length,
      rate: round(latencies[side].length / load.seconds),
      meanMs: round(mean(latencies[side])),
      p50Ms: round(percentile(latencies[side], 50)),
      p99Ms: round(percentile(latencies[side], 99)),
      serverCpuUsPerReq: cpuPerReq(side),
    });
    const on = row('on');
    on.costVsOff = Number((mean(latencies.on) / mean(latencies.off)).toFixed(3));
    on.cpuCostVsOff = Number((cpuPerReq('on') / Math.max(1, cpuPerReq('off'))).toFixed(3));
    return [on, row('off')];
  } finally {
    for (const c of Object.values(clients)) c.close();
    await Promise.all(Object.values(servers).map((s) => s.stop()));
  }
}
