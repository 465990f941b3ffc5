/**
 * `npm run bench:apply`: the time of one server-side apply request (median and p99), on the issue's
 * two shapes: a Pod with 100 containers (an associative list of structs, each apply changing one
 * container's image) and a ConfigMap with 1000 keys (a granular map, each apply changing one value).
 * Requests go one at a time, so each time is a single request's latency.
 *
 *   npm run bench:apply -- [--kubeconfig FILE] [--count 200]
 *
 * Without --kubeconfig it starts orch-apiserver on the embedded store in a temporary directory.
 */
import { randomBytes } from 'node:crypto';
import { loadKubeconfig } from './bench/kubeconfig.js';
import { startLocalApiServer, type LocalApiServer } from './bench/local-cluster.js';
import { runLoad, type LoadResult } from './bench/stats.js';
import { newTestClient, type TestClient } from '../test/support/http-client.js';

const APPLY = 'application/apply-patch+yaml';
const MANAGER = 'bench-apply';

function podConfig(name: string, containers: number, changed: number, revision: number) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { app: 'bench' } },
    spec: {
      containers: Array.from({ length: containers }, (_, i) => ({
        name: `c${i}`,
        image: `registry.example/app:${i === changed ? revision : 0}`,
        ports: [{ containerPort: 8000 + i, name: `p${i}` }],
        env: [{ name: 'INDEX', value: String(i) }],
      })),
    },
  };
}

function configMapConfig(name: string, keys: number, changed: number, revision: number) {
  const data: Record<string, string> = {};
  for (let i = 0; i < keys; i++) data[`key-${i}`] = `value-${i}-${i === changed ? revision : 0}`;
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data };
}

async function apply(client: TestClient, path: string, body: unknown): Promise<void> {
  const r = await client.request('PATCH', `${path}?fieldManager=${MANAGER}`, { body, contentType: APPLY });
  if (r.status !== 200 && r.status !== 201) throw new Error(`apply ${path}: ${r.status} ${r.text.slice(0, 300)}`);
}

/** Creates the object with a first apply, then times `count` applies that each change one item. */
async function scenario(
  client: TestClient,
  path: string,
  count: number,
  config: (changed: number, revision: number) => unknown,
): Promise<LoadResult> {
  await apply(client, path, config(-1, 0));
  return runLoad({ concurrency: 1, count }, (i) => apply(client, path, config(i % 100, i + 1)));
}

function parseFlags(argv: string[]): { kubeconfig?: string; count: number } {
  const flags = { kubeconfig: undefined as string | undefined, count: 200 };
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].split(/=(.*)/s, 2);
    const value = inline ?? argv[++i];
    if (name === '--kubeconfig') flags.kubeconfig = value;
    else if (name === '--count' && Number(value) >= 50) flags.count = Number(value);
    else throw new Error(`unknown flag or bad value: ${argv[i]} (flags: --kubeconfig FILE, --count N>=50)`);
  }
  return flags;
}

async function main(): Promise<void> {
  const flags = parseFlags(process.argv.slice(2));
  let local: LocalApiServer | undefined;
  if (!flags.kubeconfig) local = await startLocalApiServer({});
  const target = loadKubeconfig(flags.kubeconfig ?? local!.kubeconfig);
  const client = newTestClient({ url: target.server, token: target.token, ca: target.ca?.toString() ?? '' });
  const namespace = `bench-apply-${randomBytes(3).toString('hex')}`;
  try {
    const ns = await client.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    if (ns.status !== 201) throw new Error(`create namespace: ${ns.status} ${ns.text}`);
    const base = `/api/v1/namespaces/${namespace}`;
    const results = {
      'apply-pod-100-containers': await scenario(client, `${base}/pods/big`, flags.count, (changed, rev) =>
        podConfig('big', 100, changed, rev),
      ),
      'apply-configmap-1000-keys': await scenario(client, `${base}/configmaps/big`, flags.count, (changed, rev) =>
        configMapConfig('big', 1000, changed, rev),
      ),
    };
    for (const [name, r] of Object.entries(results)) process.stdout.write(`${JSON.stringify({ scenario: name, ...r })}\n`);
    process.stdout.write('\nscenario                     requests  median ms  p99 ms\n');
    for (const [name, r] of Object.entries(results)) {
      process.stdout.write(
        `${name.padEnd(28)} ${String(r.count).padStart(8)}  ${String(r.p50Ms).padStart(9)}  ${String(r.p99Ms).padStart(6)}\n`,
      );
    }
  } finally {
    client.close();
    await local?.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`bench:apply: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
