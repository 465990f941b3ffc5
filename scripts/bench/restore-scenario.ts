/**
 * Time to restore issue 28's 5,000-object namespace (restore-namespace.ts): an orch-apiserver on a
 * self-started etcd with --history-retention=24h and the controller manager's namespace, garbage
 * collector, Deployment, ReplicaSet, ServiceAccount and root CA controllers (in this process); the
 * namespace is populated, deleted by the namespace controller, then restored by one Restore, timed.
 * The proof that the restore is exact is the test (test/integration/controllers/namespace-restore.ts).
 */
import { newLogger } from '../../apiserver/component-base/logs/logger.js';
import { runControllerManager } from '../../controllers/app/controller-manager.js';
import { parseOptions } from '../../controllers/app/options.js';
import { ApiClient } from './api-client.js';
import { loadKubeconfig } from './kubeconfig.js';
import { startLocalApiServer, startLocalEtcd } from './local-cluster.js';
import { type FixtureClient, namespaceRestore, objectCount, populateNamespace, sizesFor, until } from './restore-namespace.js';
import { round } from './stats.js';
import type { BenchOptions, ScenarioResult } from './workload.js';

const NS = 'restore-bench';
const CONTROLLERS =
  'garbage-collector-controller,namespace-controller,deployment-controller,replicaset-controller,serviceaccount-controller,root-ca-certificate-publisher-controller';

export async function runRestore(options: BenchOptions, log: (line: string) => void): Promise<ScenarioResult[]> {
  const etcd = await startLocalEtcd();
  const server = await startLocalApiServer({ etcd: etcd.endpoint, args: ['--history-retention=24h'] });
  const api = new ApiClient(loadKubeconfig(server.kubeconfig), options.concurrency);
  const client: FixtureClient = {
    async send(method, path, body) {
      const r = await api.request(method, path, body === undefined ? undefined : JSON.stringify(body));
      return { status: r.status, text: r.body };
    },
  };
  const manager = await runControllerManager(
    parseOptions([
      '--kubeconfig',
      server.kubeconfig,
      '--secure-port=0',
      '--bind-address=127.0.0.1',
      '--leader-elect=false',
      `--controllers=${CONTROLLERS}`,
    ]),
    { logger: newLogger({ logLevel: 'error' }), namespaceDeletionGracePeriodMs: 0 },
  );
  try {
    const sizes = sizesFor(options.restoreObjects);
    log(`restore: populating ${objectCount(sizes)} objects`);
    await populateNamespace(client, NS, sizes, options.concurrency);
    const deleteStarted = performance.now();
    await client.send('DELETE', `/api/v1/namespaces/${NS}`);
    await until(
      'the namespace controller deleted the namespace',
      600_000,
      async () => (await client.send('GET', `/api/v1/namespaces/${NS}`)).status === 404,
    );
    const deleteSeconds = (performance.now() - deleteStarted) / 1000;
    log('restore: restoring');
    const started = performance.now();
    const r = await client.send('POST', '/apis/history.orch.io/v1/restores', namespaceRestore(NS));
    const seconds = (performance.now() - started) / 1000;
    if (r.status !== 201) throw new Error(`restore: ${r.status} ${r.text.slice(0, 500)}`);
    const status = JSON.parse(r.text).status;
    return [
      {
        scenario: 'restore-namespace',
        backend: 'etcd',
        count: status.restored.length,
        skipped: status.skipped.length,
        seconds: round(seconds),
        rate: round(status.restored.length / seconds),
        namespaceDeletionSeconds: round(deleteSeconds),
      },
    ];
  } finally {
    await manager.stop();
    api.close();
    await server.stop();
    await etcd.stop();
  }
}
