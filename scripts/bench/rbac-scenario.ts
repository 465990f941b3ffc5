/**
 * The RBAC cost: an orch-apiserver on the embedded store with --authorization-mode=RBAC holding
 * 10,000 RoleBindings (--rbac-role-bindings; a tenth of them in the namespace read) and 1,000
 * ClusterRoleBindings (--rbac-cluster-role-bindings) for other subjects; the same consistent GET
 * timed as a user allowed by one RoleBinding and as a member of system:masters (allowed before
 * RBAC is asked), interleaved request by request. The target: the RBAC GET's mean latency within
 * 10% of the masters GET's.
 */
import { expectStatus, ApiClient } from './api-client.js';
import { loadKubeconfig } from './kubeconfig.js';
import { startLocalApiServer } from './local-cluster.js';
import { mean, percentile, round, runLoad } from './stats.js';
import { configMap, type BenchOptions, type ScenarioResult } from './workload.js';

const NAMESPACES = 10;
const READER_TOKEN = 'rbac-bench-reader-token';
const RBAC = '/apis/rbac.authorization.orch.io/v1';

const json = (o: unknown) => JSON.stringify(o);
const ref = (kind: string, name: string) => ({ apiGroup: 'rbac.authorization.orch.io', kind, name });

export async function runRbacGet(options: BenchOptions, log: (line: string) => void): Promise<ScenarioResult[]> {
  const server = await startLocalApiServer({
    args: ['--authorization-mode=RBAC'],
    tokens: [`${READER_TOKEN},reader,reader-uid,"readers"`],
  });
  const target = loadKubeconfig(server.kubeconfig);
  const admin = new ApiClient(target, options.concurrency);
  const reader = new ApiClient({ ...target, token: READER_TOKEN }, options.concurrency);
  try {
    const post = async (path: string, body: unknown, what: string) =>
      expectStatus(await admin.request('POST', path, json(body)), 201, what);
    const namespaces = Array.from({ length: NAMESPACES }, (_, i) => `rbac-bench-${i}`);
    for (const ns of namespaces) await post('/api/v1/namespaces', { metadata: { name: ns } }, 'namespace');
    const ns = namespaces[0];
    await post(`/api/v1/namespaces/${ns}/configmaps`, JSON.parse(configMap('target')), 'configmap');
    await post(
      `${RBAC}/clusterroles`,
      { metadata: { name: 'bench-reader' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'] }] },
      'role',
    );
    const started = performance.now();
    await runLoad({ concurrency: options.concurrency, count: options.rbacRoleBindings }, async (i) => {
      const subjects = [
        { kind: 'User', name: `user-${i}` },
        { kind: 'Group', name: `group-${i % 100}` },
      ];
      await post(
        `${RBAC}/namespaces/${namespaces[i % NAMESPACES]}/rolebindings`,
        { metadata: { name: `rb-${i}` }, roleRef: ref('ClusterRole', 'bench-reader'), subjects },
        'rolebinding',
      );
    });
    await runLoad({ concurrency: options.concurrency, count: options.rbacClusterRoleBindings }, async (i) => {
      const subjects = [
        { kind: 'User', name: `cluster-user-${i}` },
        { kind: 'ServiceAccount', name: `sa-${i}`, namespace: ns },
      ];
      await post(
        `${RBAC}/clusterrolebindings`,
        { metadata: { name: `crb-${i}` }, roleRef: ref('ClusterRole', 'bench-reader'), subjects },
        'clusterrolebinding',
      );
    });
    log(
      `rbac-get: ${options.rbacRoleBindings} RoleBindings and ${options.rbacClusterRoleBindings} ClusterRoleBindings created in ${round((performance.now() - started) / 1000)}s`,
    );
    await post(
      `${RBAC}/namespaces/${ns}/rolebindings`,
      { metadata: { name: 'reader' }, roleRef: ref('ClusterRole', 'bench-reader'), subjects: [{ kind: 'User', name: 'reader' }] },
      'reader binding',
    );
    const path = `/api/v1/namespaces/${ns}/configmaps/target`;
    for (let i = 0; (await reader.request('GET', path)).status !== 200; i++) {
      if (i > 200) throw new Error('rbac-get: the reader binding never took effect');
      await new Promise((r) => setTimeout(r, 50));
    }
    // The two kinds of GET interleaved request by request on the same connections' callers, so
    // whatever else loads the machine weighs on both alike; each latency is kept under its kind.
    const clients = { masters: admin, rbac: reader };
    const kindOf = (i: number) => (i % 2 === 0 ? 'masters' : 'rbac');
    const get = async (i: number) => {
      expectStatus(await clients[kindOf(i)].request('GET', path), 200, `${kindOf(i)} get`);
    };
    if (options.warmupSeconds) await runLoad({ concurrency: options.concurrency, seconds: options.warmupSeconds }, get);
    const latencies = { masters: [] as number[], rbac: [] as number[] };
    const load = await runLoad({ concurrency: options.concurrency, seconds: options.seconds }, async (i) => {
      const t0 = performance.now();
      await get(i);
      latencies[kindOf(i)].push(performance.now() - t0);
    });
    const row = (scenario: 'masters-get' | 'rbac-get', xs: number[]): ScenarioResult => ({
      scenario,
      count: xs.length,
      rate: round(xs.length / load.seconds),
      meanMs: round(mean(xs)),
      p50Ms: round(percentile(xs, 50)),
      p99Ms: round(percentile(xs, 99)),
      roleBindings: options.rbacRoleBindings,
      clusterRoleBindings: options.rbacClusterRoleBindings,
    });
    const rbac = row('rbac-get', latencies.rbac);
    // The cost of a GET is its latency: RBAC's over system:masters' (target <= 1.1).
    rbac.costVsMasters = Number((mean(latencies.rbac) / mean(latencies.masters)).toFixed(3));
    return [row('masters-get', latencies.masters), rbac];
  } finally {
    admin.close();
    reader.close();
    await server.stop();
  }
}
