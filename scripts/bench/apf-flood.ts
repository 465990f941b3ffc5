/**
 * The API Priority and Fairness flood: one user LISTs a namespace of many ConfigMaps (5,000 by
 * default) from many connections at once, while three protected clients keep working: a member of
 * system:masters GETting a ConfigMap (exempt level), the controller manager renewing its Lease
 * (leader-election level) and another tenant GETting a ConfigMap of its own (the flooder's level,
 * another flow). Each protected client's latencies are taken unloaded, then under the flood; the
 * flooder's answers are counted by status. Shared by the `apf-flood` bench scenario and its
 * integration test.
 */
import { fork } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { ApiClient, expectStatus } from './api-client.js';
import type { ApiTarget } from './kubeconfig.js';
import type { FlooderCounts, FlooderData, FlooderMessage } from './apf-flooder.js';
import { percentile, round } from './stats.js';

export const FLOOD_TOKENS = {
  flooder: 'apf-flooder-token',
  tenant: 'apf-tenant-token',
  leader: 'apf-leader-token',
};
/** --token-auth-file lines for the three users (the controller manager's name puts it in system-leader-election). */
export const FLOOD_TOKEN_LINES = [
  `${FLOOD_TOKENS.flooder},flooder,flooder,"tenants"`,
  `${FLOOD_TOKENS.tenant},tenant,tenant,"tenants"`,
  `${FLOOD_TOKENS.leader},system:kube-controller-manager,kcm,"leaders"`,
];

const FLOOD_NS = 'apf-flood';
const TENANT_NS = 'apf-tenant';
/** The Leases' collection on a server answering as `domain` (orch.io, or k8s.io as kube-apiserver). */
const leasesPath = (domain: FloodDomain) =>
  domain === 'k8s.io'
    ? '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases'
    : '/apis/coordination.orch.io/v1/namespaces/orch-system/leases';

export type FloodDomain = 'orch.io' | 'k8s.io';

export type ProtectedClient = 'masters' | 'lease' | 'tenant';

export interface ClientStats {
  count: number;
  p50Ms: number;
  p99Ms: number;
  /** 429 answers. */
  rejected: number;
  /** Answers other than the expected one and 429. */
  errors: number;
}

export interface FloodResult {
  unloaded: Record<ProtectedClient, ClientStats>;
  flood: Record<ProtectedClient, ClientStats>;
  flooder: { lists: number; rejected: number; errors: number };
}

export interface FloodOptions {
  objects: number;
  flooderConcurrency: number;
  /** Length of each phase. */
  seconds: number;
  /**
   * The flooder process's nice level (0, the default: the same CPU priority as the server and the
   * protected clients; 19 stands in for a flooder on another machine, whose decoding costs this
   * machine nothing).
   */
  flooderNice?: number;
  /** The API domain the server answers as (default orch.io). */
  domain?: FloodDomain;
}

const json = (o: unknown) => JSON.stringify(o);

/** Creates the flood's namespaces, objects and Lease with the admin client. */
export async function prepareFlood(admin: ApiClient, objects: number, domain: FloodDomain = 'orch.io'): Promise<void> {
  for (const ns of [FLOOD_NS, TENANT_NS]) {
    const r = await admin.request('POST', '/api/v1/namespaces', json({ metadata: { name: ns } }));
    if (r.status !== 409) expectStatus(r, 201, `namespace ${ns}`);
  }
  // A second run on the same store finds its objects in place.
  const have = await admin.request('GET', `/api/v1/namespaces/${FLOOD_NS}/configmaps?limit=1`);
  let next = have.status === 200 ? Number(JSON.parse(have.body).metadata.remainingItemCount ?? 0) + 1 : 0;
  if (next < objects) next = 0;
  const data = { a: 'x'.repeat(64), b: 'y'.repeat(64) };
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let i = next++; i < objects; i = next++) {
        const r = await admin.request(
          'POST',
          `/api/v1/namespaces/${FLOOD_NS}/configmaps`,
          json({ metadata: { name: `cm-${i}`, labels: { i: String(i % 10) } }, data }),
        );
        if (r.status !== 409) expectStatus(r, 201, 'flood configmap');
      }
    }),
  );
  for (const [ns, name] of [
    [TENANT_NS, 'mine'],
    [FLOOD_NS, 'target'],
  ]) {
    const r = await admin.request('POST', `/api/v1/namespaces/${ns}/configmaps`, json({ metadata: { name }, data }));
    if (r.status !== 409) expectStatus(r, 201, 'configmap');
  }
  const lease = await admin.request(
    'POST',
    leasesPath(domain),
    json({ metadata: { name: 'apf-flood-leader' }, spec: { holderIdentity: 'kcm', leaseDurationSeconds: 15 } }),
  );
  if (lease.status !== 409) expectStatus(lease, 201, 'lease');
}

/** Runs the protected clients for `seconds`, one request at a time each. */
async function measureProtected(
  clients: Record<ProtectedClient, ApiClient>,
  seconds: number,
  domain: FloodDomain,
): Promise<Record<ProtectedClient, ClientStats>> {
  const LEASES = leasesPath(domain);
  const until = performance.now() + seconds * 1000;
  let leaseRv = '';
  const ops: Record<ProtectedClient, () => Promise<{ status: number; ok: number }>> = {
    masters: async () => ({
      status: (await clients.masters.request('GET', `/api/v1/namespaces/${FLOOD_NS}/configmaps/target`)).status,
      ok: 200,
    }),
    tenant: async () => ({
      status: (await clients.tenant.request('GET', `/api/v1/namespaces/${TENANT_NS}/configmaps/mine`)).status,
      ok: 200,
    }),
    lease: async () => {
      if (!leaseRv) leaseRv = JSON.parse((await clients.lease.request('GET', `${LEASES}/apf-flood-leader`)).body).metadata.resourceVersion;
      const body = {
        metadata: { name: 'apf-flood-leader', resourceVersion: leaseRv },
        spec: { holderIdentity: 'kcm', leaseDurationSeconds: 15, renewTime: new Date().toISOString().replace(/Z$/, '000Z') },
      };
      const r = await clients.lease.request('PUT', `${LEASES}/apf-flood-leader`, json(body));
      if (r.status === 200) leaseRv = JSON.parse(r.body).metadata.resourceVersion;
      else leaseRv = '';
      return { status: r.status, ok: 200 };
    },
  };
  const entries = await Promise.all(
    (Object.keys(ops) as ProtectedClient[]).map(async (name) => {
      const latencies: number[] = [];
      let rejected = 0;
      let errors = 0;
      while (performance.now() < until) {
        const t0 = performance.now();
        const { status, ok } = await ops[name]();
        latencies.push(performance.now() - t0);
        if (status === 429) rejected++;
        else if (status !== ok) errors++;
      }
      const stats: ClientStats = {
        count: latencies.length,
        p50Ms: round(percentile(latencies, 50)),
        p99Ms: round(percentile(latencies, 99)),
        rejected,
        errors,
      };
      return [name, stats] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<ProtectedClient, ClientStats>;
}

/** The flooder in its own process (apf-flooder.ts) at nice level `nice`; resolves once its callers run. */
async function startFlooder(
  target: ApiTarget,
  concurrency: number,
  nice: number,
): Promise<{ progress(): FlooderCounts; stop(): Promise<FlooderCounts> }> {
  const data: FlooderData = {
    server: target.server,
    ca: target.ca,
    insecure: target.insecure,
    token: FLOOD_TOKENS.flooder,
    path: `/api/v1/namespaces/${FLOOD_NS}/configmaps`,
    concurrency,
  };
  const child = fork(fileURLToPath(new URL('./apf-flooder.js', import.meta.url)), [], { serialization: 'advanced', stdio: 'inherit' });
  if (nice) setPriority(child.pid!, nice);
  let latest: FlooderCounts = { lists: 0, rejected: 0, errors: 0 };
  let final: ((c: FlooderCounts) => void) | undefined;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.on('message', (m: FlooderMessage) => {
    if (typeof m !== 'object') return;
    if ('progress' in m) latest = m.progress;
    else final?.(m.final);
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the flooder exited (${code}) before it started`)));
    child.send(data);
  });
  return {
    progress: () => latest,
    async stop() {
      const counts = new Promise<FlooderCounts>((resolve) => (final = resolve));
      child.send('stop');
      const out = await counts;
      await exited;
      return out;
    },
  };
}

/** `target` carries the admin's credentials (system:masters). Prepares the objects (once), then measures the protected clients unloaded and under the flood. */
export async function runFlood(target: ApiTarget, options: FloodOptions, log: (line: string) => void = () => {}): Promise<FloodResult> {
  const client = (token: string) => new ApiClient({ ...target, token, cert: undefined, key: undefined }, 2);
  const admin = new ApiClient(target, 2);
  const clients: Record<ProtectedClient, ApiClient> = {
    masters: admin,
    lease: client(FLOOD_TOKENS.leader),
    tenant: client(FLOOD_TOKENS.tenant),
  };
  try {
    const t0 = performance.now();
    const domain = options.domain ?? 'orch.io';
    await prepareFlood(admin, options.objects, domain);
    log(`apf-flood: ${options.objects} ConfigMaps created in ${round((performance.now() - t0) / 1000)}s`);
    // Warm the connections and caches, then the unloaded figures.
    await measureProtected(clients, Math.min(1, options.seconds), domain);
    const unloaded = await measureProtected(clients, options.seconds, domain);
    const flooder = await startFlooder(target, options.flooderConcurrency, options.flooderNice ?? 0);
    // The flood has built its queues once it is rejected (or after 5 × the phase, at most 15 s).
    const floodStart = performance.now();
    const buildUpMs = Math.min(15_000, options.seconds * 5000);
    while (flooder.progress().rejected === 0 && performance.now() - floodStart < buildUpMs) await new Promise((r) => setTimeout(r, 100));
    log(`apf-flood: the flooder's first 429 after ${round((performance.now() - floodStart) / 1000)}s`);
    const flood = await measureProtected(clients, options.seconds, domain);
    const flooded = await flooder.stop();
    return { unloaded, flood, flooder: flooded };
  } finally {
    for (const c of Object.values(clients)) c.close();
  }
}
