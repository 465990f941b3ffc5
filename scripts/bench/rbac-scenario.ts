/**
 * The RBAC cost: an orch-apiserver on the embedded store with --authorization-mode=RBAC holding
 * 10,000 RoleBindings (--rbac-role-bindings; a tenth of them in the namespace read) and 1,000
 * ClusterRoleBindings (--rbac-cluster-role-bindings) for other subjects; the same consistent GET timed as a user allowed by one RoleBinding and as a member of
 * system:masters (allowed before RBAC is asked), in alternating rounds. The target: the RBAC GET
 * within 10% of the masters GET.
 */
import { expectStatus, ApiClient } from './api-client.js';
import { loadKubeconfig } from './kubeconfig.js';
import { startLocalApiServer } from './local-cluster.js';
import { round, runLoad } from './stats.js';
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
    // Alternating rounds (and order), so drift (GC, other load on the machine) hits both alike.
    const rounds = 4;
    const sums = { masters: { rate: 0, p50: 0, p99: 0 }, rbac: { rate: 0, p50: 0, p99: 0 } };
    for (let r = 0; r < rounds; r++) {
      const order = [
        ['masters', admin],
        ['rbac', reader],
      ] as const;
      for (const [who, client] of r % 2 === 0 ? order : [...order].reverse()) {
        const res = await runLoad(
          {
            concurrency: options.concurrency,
            seconds: options.seconds,
            warmupSeconds: r === 0 ? options.warmupSeconds : Math.min(1, options.warmupSeconds),
          },
          async () => {
            expectStatus(await client.request('GET', path), 200, `${who} get`);
          },
        );
        sums[who].rate += res.rate / rounds;
        sums[who].p50 += res.p50Ms / rounds;
        sums[who].p99 += res.p99Ms / rounds;
      }
    }
    const row = (scenario: string, s: { rate: number; p50: number; p99: number }): ScenarioResult => ({
      scenario,
      rate: round(s.rate),
      p50Ms: round(s.p50),
      p99Ms: round(s.p99),
      roleBindings: options.rbacRoleBindings,
      clusterRoleBindings: options.rbacClusterRoleBindings,
    });
    const rbac = row('rbac-get', sums.rbac);
    rbac.rateVsMasters = Number((sums.rbac.rate / sums.masters.rate).toFixed(3));
    return [row('masters-get', sums.masters), rbac];
  } finally {
    admin.close();
    reader.close();
    await server.stop();
  }
}
