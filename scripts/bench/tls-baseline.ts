/**
 * The bare-TLS baseline (`tls-get`): the bench's GET load, same client and concurrency, against a
 * bare Node HTTPS server's fixed answer, with that server's CPU per request: what any Node server
 * pays for TLS, HTTP parsing and the response before it does any API work.
 */
import { ApiClient, expectStatus } from './api-client.js';
import { loadKubeconfig } from './kubeconfig.js';
import { startBareTlsServer } from './local-cluster.js';
import { withCpuUse } from './server-session.js';
import { runLoad } from './stats.js';
import type { BenchOptions, ScenarioResult } from './workload.js';

export async function runTlsBaseline(options: BenchOptions): Promise<ScenarioResult> {
  const bare = await startBareTlsServer();
  const api = new ApiClient(loadKubeconfig(bare.kubeconfig), options.concurrency);
  try {
    const [result] = await withCpuUse({ server: bare.pid }, async (onTimedStart) => ({
      scenario: 'tls-get',
      ...(await runLoad(
        { concurrency: options.concurrency, seconds: options.seconds, warmupSeconds: options.warmupSeconds, onTimedStart },
        async () => {
          expectStatus(await api.request('GET', '/api/v1/namespaces/bench/configmaps/cm-000000'), 200, 'tls-get');
        },
      )),
    }));
    return result;
  } finally {
    api.close();
    await bare.stop();
  }
}
