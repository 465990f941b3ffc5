/**
 * The namespace of issue 28's restore proof, shared by its test (test/integration/controllers/
 * namespace-restore.ts) and the bench's restore scenario (restore-scenario.ts): objects of ten
 * kinds — Deployments (their ReplicaSets and Pods made by the real workload controllers), Services,
 * ConfigMaps, Secrets, ServiceAccounts, Roles, RoleBindings and a CRD's objects — and the inventory
 * the proof compares: every object's uid and ownerReferences, by kind and name. Over any client
 * that sends JSON and answers status and text.
 */
import { namespacedCrd } from './crd-manifest.js';

/** What the fixture asks of a client. */
export interface FixtureClient {
  send(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<{ status: number; text: string }>;
}

export interface NamespaceSizes {
  deployments: number;
  /** Pods per Deployment. */
  replicas: number;
  /** Objects of each other kind (ConfigMaps, Secrets, ServiceAccounts, Roles, RoleBindings, Widgets); Services: one per Deployment. */
  each: number;
}

/** 5,000 objects in all: 150 Deployments of 2 Pods (600 with ReplicaSets and Pods), 150 Services, 708 of each of 6 kinds, and the namespace's default ServiceAccount and root CA ConfigMap. */
export const PROOF_SIZES: NamespaceSizes = { deployments: 150, replicas: 2, each: 708 };

/** Sizes of about `objects` objects in PROOF_SIZES' proportions (exactly them at 5,000). */
export function sizesFor(objects: number): NamespaceSizes {
  if (objects === objectCount(PROOF_SIZES)) return PROOF_SIZES;
  const deployments = Math.max(1, Math.round(objects * 0.03));
  return { deployments, replicas: 2, each: Math.max(1, Math.floor((objects - 2 - deployments * 5) / 6)) };
}

/** How many objects the namespace holds once populated (the controllers' two included). */
export function objectCount(sizes: NamespaceSizes): number {
  return sizes.deployments * (3 + sizes.replicas) + 6 * sizes.each + 2;
}

export const WIDGET_CRD = namespacedCrd(
  'apiextensions.orch.io',
  'restore.example.com',
  { plural: 'widgets', singular: 'widget', kind: 'Widget' },
  { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' }, color: { type: 'string' } } } } },
);

/** The ten kinds: their list path in ns. */
export function kindPaths(ns: string): Record<string, string> {
  return {
    deployments: `/apis/apps/v1/namespaces/${ns}/deployments`,
    replicasets: `/apis/apps/v1/namespaces/${ns}/replicasets`,
    pods: `/api/v1/namespaces/${ns}/pods`,
    services: `/api/v1/namespaces/${ns}/services`,
    configmaps: `/api/v1/namespaces/${ns}/configmaps`,
    secrets: `/api/v1/namespaces/${ns}/secrets`,
    serviceaccounts: `/api/v1/namespaces/${ns}/serviceaccounts`,
    roles: `/apis/rbac.authorization.orch.io/v1/namespaces/${ns}/roles`,
    rolebindings: `/apis/rbac.authorization.orch.io/v1/namespaces/${ns}/rolebindings`,
    widgets: `/apis/restore.example.com/v1/namespaces/${ns}/widgets`,
  };
}

/** Runs op(0..count-1) from `concurrency` callers. */
export async function inParallel(count: number, concurrency: number, op: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) await op(next++);
    }),
  );
}

async function created(c: FixtureClient, path: string, body: unknown): Promise<void> {
  const r = await c.send('POST', path, body);
  if (r.status !== 201) throw new Error(`POST ${path}: ${r.status} ${r.text.slice(0, 500)}`);
}

/** The objects the fixture itself creates (the workload controllers add ReplicaSets and Pods). */
function creates(ns: string, sizes: NamespaceSizes): [string, unknown][] {
  const p = kindPaths(ns);
  const out: [string, unknown][] = [];
  for (let d = 0; d < sizes.deployments; d++) {
    const labels = { app: `web${d}` };
    out.push([
      p.deployments,
      {
        metadata: { name: `web${d}`, labels },
        spec: {
          replicas: sizes.replicas,
          selector: { matchLabels: labels },
          template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
        },
      },
    ]);
    out.push([p.services, { metadata: { name: `web${d}` }, spec: { selector: labels, ports: [{ port: 80 }] } }]);
  }
  for (let i = 0; i < sizes.each; i++) {
    out.push([p.configmaps, { metadata: { name: `cm${i}`, labels: { i: String(i) } }, data: { i: String(i) } }]);
    out.push([p.secrets, { metadata: { name: `sec${i}` }, stringData: { i: String(i) } }]);
    out.push([p.serviceaccounts, { metadata: { name: `sa${i}` } }]);
    out.push([p.roles, { metadata: { name: `role${i}` }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] }]);
    out.push([
      p.rolebindings,
      {
        metadata: { name: `rb${i}` },
        roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: `role${i}` },
        subjects: [{ kind: 'ServiceAccount', name: `sa${i}`, namespace: ns }],
      },
    ]);
    out.push([
      p.widgets,
      { apiVersion: 'restore.example.com/v1', kind: 'Widget', metadata: { name: `w${i}` }, spec: { size: i, color: 'blue' } },
    ]);
  }
  return out;
}

/**
 * Creates the CRD (when not served yet) and the namespace with everything in it, `concurrency`
 * requests at a time, and waits until the workload controllers made every ReplicaSet and Pod.
 */
export async function populateNamespace(c: FixtureClient, ns: string, sizes: NamespaceSizes, concurrency: number): Promise<void> {
  const crd = await c.send('POST', '/apis/apiextensions.orch.io/v1/customresourcedefinitions', WIDGET_CRD);
  if (crd.status !== 201 && crd.status !== 409) throw new Error(`CRD: ${crd.status} ${crd.text.slice(0, 300)}`);
  await until('the Widget CRD is served', 30_000, async () => (await c.send('GET', kindPaths('default').widgets)).status === 200);
  await created(c, '/api/v1/namespaces', { metadata: { name: ns } });
  const all = creates(ns, sizes);
  await inParallel(all.length, concurrency, (i) => created(c, all[i][0], all[i][1]));
  const want = objectCount(sizes);
  let seen = 0;
  await until(`${want} objects in ${ns}`, 120_000, async () => {
    seen = (await inventory(c, ns)).size;
    return seen === want;
  }).catch((err) => {
    throw new Error(`${(err as Error).message}: ${seen} listed`);
  });
}

/** kind/name → "uid owners" of every object of the ten kinds in ns. */
export async function inventory(c: FixtureClient, ns: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [kind, path] of Object.entries(kindPaths(ns))) {
    const r = await c.send('GET', path);
    if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${r.text.slice(0, 300)}`);
    for (const o of JSON.parse(r.text).items) {
      const owners = (o.metadata.ownerReferences ?? []).map(
        (x: { kind: string; name: string; uid: string }) => `${x.kind}/${x.name}/${x.uid}`,
      );
      out.set(`${kind}/${o.metadata.name}`, `${o.metadata.uid} ${owners.join(',')}`);
    }
  }
  return out;
}

/** Resolves once probe says true; rejects after ms. */
export async function until(what: string, ms: number, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The Restore of namespace ns (POST /apis/history.orch.io/v1/restores). */
export function namespaceRestore(ns: string) {
  return {
    apiVersion: 'history.orch.io/v1',
    kind: 'Restore',
    metadata: { name: ns },
    spec: { resource: 'namespaces', name: ns },
  };
}
