/** What the scenarios share: the options, the objects they write, and how results are recorded. */
import { readdir, readFile } from 'node:fs/promises';

export interface BenchOptions {
  /** Concurrent clients of create/get/update and of the etcd baselines. */
  concurrency: number;
  /** Objects created (and listed): the LIST size. */
  count: number;
  /** How long get and update run (s). */
  seconds: number;
  /** LIST repetitions (unpaged and paged each). */
  listRepeats: number;
  pageSize: number;
  /** Objects the list-big scenario creates (in a namespace of their own) and lists. */
  bigListCount: number;
  watchers: number;
  eventsPerSecond: number;
  watchSeconds: number;
  /** Threads the watchers are spread over (the client must not be what delays events). */
  watchThreads: number;
  /** create, get, update and etcd-get first run this long untimed (connections, caches, JIT warm up). */
  warmupSeconds: number;
  /** rbac-get: RoleBindings and ClusterRoleBindings present (of other subjects). */
  rbacRoleBindings: number;
  rbacClusterRoleBindings: number;
  /** apf-flood: ConfigMaps the flooder LISTs, its connections, and its process's nice level (19: as if on another machine). */
  apfObjects: number;
  apfFlooders: number;
  apfFlooderNice: number;
  /** ledger: the revisions the store holds when the big history read is timed (0: not timed). */
  ledgerStoredRevisions: number;
  /** console: how long each idle CPU window is (s), without a browser and with the overview open. */
  consoleIdleSeconds: number;
  /** restore: how many objects the namespace restored holds (about; 5,000: issue 28's). */
  restoreObjects: number;
  /** density: hollow nodes, Pods of the Deployment, rounds (servers interleaved), and the wait for all Running (s). */
  densityNodes: number;
  densityPods: number;
  densityRuns: number;
  densityTimeoutSeconds: number;
  /** pods-150k: the Pod counts measured at, in increasing order. */
  podsSteps: number[];
}

export const DEFAULT_OPTIONS: BenchOptions = {
  concurrency: 50,
  count: 10_000,
  seconds: 5,
  listRepeats: 10,
  pageSize: 500,
  bigListCount: 50_000,
  watchers: 1000,
  eventsPerSecond: 100,
  watchSeconds: 5,
  watchThreads: 2,
  warmupSeconds: 5,
  rbacRoleBindings: 10_000,
  rbacClusterRoleBindings: 1_000,
  apfObjects: 5_000,
  apfFlooders: 400,
  apfFlooderNice: 0,
  ledgerStoredRevisions: 1_000_000,
  consoleIdleSeconds: 30,
  restoreObjects: 5000,
  densityNodes: 20,
  densityPods: 1000,
  densityRuns: 1,
  densityTimeoutSeconds: 600,
  podsSteps: [10_000, 50_000, 150_000],
};

/** One scenario's figures, printed as a table row and a JSON line. */
export interface ScenarioResult {
  scenario: string;
  [metric: string]: number | string;
}

/** ~1 KiB of data per object, like the reference measurement. */
export const PAYLOAD = 'x'.repeat(800);

/** A ConfigMap of about 1 KiB as stored (the payload plus the server's metadata). */
export function configMap(name: string, payload = PAYLOAD): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { bench: 'orch' } }, data: { payload } });
}

/** The name of the i-th object. */
export function objectName(i: number): string {
  return `cm-${String(i).padStart(6, '0')}`;
}

/** The process and all its descendants (Linux /proc): a server with --workers is several processes. */
async function processTree(pid: number): Promise<number[]> {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    const tasks = await readdir(`/proc/${pids[i]}/task`).catch(() => [] as string[]);
    for (const task of tasks) {
      const children = await readFile(`/proc/${pids[i]}/task/${task}/children`, 'utf8').catch(() => '');
      for (const child of children.split(' ').filter(Boolean)) pids.push(Number(child));
    }
  }
  return pids;
}

/** Sums a per-process figure over the process tree; undefined without a pid. */
async function treeSum(pid: number | undefined, figure: (pid: number) => Promise<number>): Promise<number | undefined> {
  if (!pid) return undefined;
  let sum = 0;
  for (const p of await processTree(pid)) sum += await figure(p).catch(() => 0);
  return sum;
}

/** The server's resident set size in bytes, over all its processes (Linux /proc); undefined without a pid. */
export function residentBytes(pid: number | undefined): Promise<number | undefined> {
  return treeSum(pid, async (p) => {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(await readFile(`/proc/${p}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  });
}

/** Bytes the process and its descendants have caused to be written to storage (Linux /proc/<pid>/io write_bytes); undefined without a pid. */
export function writtenBytes(pid: number | undefined): Promise<number | undefined> {
  return treeSum(pid, async (p) => {
    const m = /^write_bytes:\s+(\d+)/m.exec(await readFile(`/proc/${p}/io`, 'utf8'));
    return m ? Number(m[1]) : 0;
  });
}

/** CPU seconds the process and its descendants have used (Linux /proc; clock ticks of 1/100 s); undefined without a pid. */
export function cpuSeconds(pid: number | undefined): Promise<number | undefined> {
  return treeSum(pid, async (p) => {
    const stat = await readFile(`/proc/${p}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  });
}

/** Samples the process tree's RSS every 100 ms; `stop` answers the peak. */
export function rssSampler(pid: number): { stop(): Promise<number> } {
  let peak = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      peak = Math.max(peak, (await residentBytes(pid)) ?? 0);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return peak;
    },
  };
}
