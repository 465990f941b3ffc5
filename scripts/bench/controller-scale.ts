/**
 * Controller figures: a Deployment of 1,000 replicas on a fresh orch-apiserver (embedded store) with
 * orch-controller-manager running every default controller — the time until 1,000 Pods exist and
 * the API requests it took (the API server's apiserver_request_total, by verb and resource, less
 * this script's own polls) — then the Deployment scaled to 10,000 and the controller manager's
 * resident memory with 10k Pods cached (VmRSS, before and after).
 *
 *   node dist/scripts/bench/controller-scale.js [replicas=1000] [cached=10000]
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ApiClient } from './api-client.js';
import { loadKubeconfig } from './kubeconfig.js';
import { startLocalApiServer } from './local-cluster.js';

const CONTROLLER_MANAGER = fileURLToPath(new URL('../../controllers/cmd/controller-manager.js', import.meta.url));

function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : Number.NaN;
}

/** apiserver_request_total summed by "verb resource[/subresource]". */
async function requestCounts(api: ApiClient): Promise<Map<string, number>> {
  const text = (await api.request('GET', '/metrics')).body;
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('apiserver_request_total{')) continue;
    const labels = Object.fromEntries([...line.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (!labels.resource) continue;
    const key = `${labels.verb} ${labels.resource}${labels.subresource ? `/${labels.subresource}` : ''}`;
    out.set(key, (out.get(key) ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1)));
  }
  return out;
}

function diff(after: Map<string, number>, before: Map<string, number>, own: Map<string, number>): [string, number][] {
  return [...after]
    .map(([k, v]) => [k, v - (before.get(k) ?? 0) - (own.get(k) ?? 0)] as [string, number])
    .filter(([, v]) => v > 0)
    .sort((a, b) => b[1] - a[1]);
}

async function main(): Promise<void> {
  const replicas = Number(process.argv[2] ?? 1000);
  const cached = Number(process.argv[3] ?? 10_000);
  const server = await startLocalApiServer({});
  const api = new ApiClient(loadKubeconfig(server.kubeconfig), 4);
  const manager = spawn(
    process.execPath,
    [CONTROLLER_MANAGER, '--kubeconfig', server.kubeconfig, '--secure-port=0', '--bind-address=127.0.0.1', '--leader-elect=false', '--v=0'],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const own = new Map<string, number>();
  const poll = async (path: string) => {
    own.set('get deployments', (own.get('get deployments') ?? 0) + 1);
    return JSON.parse((await api.request('GET', path)).body);
  };
  try {
    // Let the controller manager finish starting (its informers' lists, the garbage collector's discovery).
    await new Promise((r) => setTimeout(r, 10_000));
    const path = '/apis/apps/v1/namespaces/default/deployments';
    const idleRss = rssMiB(manager.pid!);
    const before = await requestCounts(api);
    const started = Date.now();
    const body = {
      metadata: { name: 'scale' },
      spec: {
        replicas,
        selector: { matchLabels: { app: 'scale' } },
        template: { metadata: { labels: { app: 'scale' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      },
    };
    own.set('create deployments', 1);
    const created = await api.request('POST', path, JSON.stringify(body));
    if (created.status !== 201) throw new Error(created.body);
    const waitFor = async (n: number) => {
      for (;;) {
        const d = await poll(`${path}/scale`);
        if (d.status?.replicas === n) return;
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    await waitFor(replicas);
    const ms = Date.now() - started;
    await new Promise((r) => setTimeout(r, 2000));
    const after = await requestCounts(api);
    const used = diff(after, before, own);
    const total = used.reduce((n, [, v]) => n + v, 0);
    console.log(
      `Deployment of ${replicas} replicas: ${replicas} Pods in ${(ms / 1000).toFixed(1)} s; ${total} API requests by the controllers:`,
    );
    for (const [k, v] of used) console.log(`  ${k}: ${v}`);

    const t2 = Date.now();
    const d = await poll(`${path}/scale`);
    d.spec.replicas = cached;
    const scaled = await api.request('PUT', `${path}/scale`, JSON.stringify(d));
    if (scaled.status !== 200) throw new Error(scaled.body);
    await waitFor(cached);
    console.log(`scaled to ${cached}: ${cached - replicas} more Pods in ${((Date.now() - t2) / 1000).toFixed(1)} s`);
    await new Promise((r) => setTimeout(r, 5000));
    console.log(
      `orch-controller-manager RSS: ${idleRss} MiB idle, ${rssMiB(manager.pid!)} MiB with ${cached} Pods (and their ReplicaSet, events) cached`,
    );
  } finally {
    manager.kill('SIGTERM');
    await new Promise((r) => manager.once('exit', r));
    await server.stop();
  }
}

await main();
