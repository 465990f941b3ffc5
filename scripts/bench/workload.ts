/** What the scenarios share: the options, the objects they write, and how results are recorded. */
import { readFile } from 'node:fs/promises';

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

/** The server's resident set size in bytes (Linux /proc), undefined without a pid. */
export async function residentBytes(pid: number | undefined): Promise<number | undefined> {
  if (!pid) return undefined;
  const m = /^VmRSS:\s+(\d+) kB/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : undefined;
}

/** CPU seconds the process has used (Linux /proc; clock ticks of 1/100 s), undefined without a pid. */
export async function cpuSeconds(pid: number | undefined): Promise<number | undefined> {
  if (!pid) return undefined;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
