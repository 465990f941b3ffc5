/**
 * The apf-flood scenario (issue 27): an orch-apiserver with the flood's users (on the embedded
 * store; with --compare on an etcd of its own, beside the reference kube-apiserver on another);
 * one user LISTs --apf-objects ConfigMaps from --apf-flooders connections per worker process, in a process at nice level
 * --apf-flooder-nice, while system:masters, the controller manager's Lease renewals and another
 * tenant are timed unloaded and flooded (scripts/bench/apf-flood.ts), for --seconds each. One row
 * per protected client: its p50 and p99 both ways, the p99 ratio (target <= 2), its 429s, and the
 * flooder's LISTs and 429s.
 */
import { FLOOD_TOKEN_LINES, runFlood, type FloodDomain, type ProtectedClient } from './apf-flood.js';
import { loadKubeconfig } from './kubeconfig.js';
import type { LocalApiServer } from './local-cluster.js';
import type { BenchOptions, ScenarioResult } from './workload.js';

/** A server to flood: started with the flood's token lines, stopped after it. */
export interface FloodTarget {
  name: string;
  domain: FloodDomain;
  /** Its worker processes: the flood is --apf-flooders connections for each, as each worker holds its share of the seats and queues. */
  workers: number;
  start(tokens: string[]): Promise<{ server: LocalApiServer; stop(): Promise<void> }>;
}

export async function runApfFlood(
  options: BenchOptions,
  targets: FloodTarget[],
  log: (line: string) => void,
): Promise<{ name: string; results: ScenarioResult[] }[]> {
  const out: { name: string; results: ScenarioResult[] }[] = [];
  for (const target of targets) {
    const { server, stop } = await target.start(FLOOD_TOKEN_LINES);
    try {
      const r = await runFlood(
        loadKubeconfig(server.kubeconfig),
        {
          objects: options.apfObjects,
          flooderConcurrency: options.apfFlooders * target.workers,
          seconds: options.seconds,
          flooderNice: options.apfFlooderNice,
          domain: target.domain,
        },
        (line) => log(`${target.name}: ${line}`),
      );
      const results = (['masters', 'lease', 'tenant'] as ProtectedClient[]).map((name) => ({
        scenario: `apf-flood-${name}`,
        count: r.flood[name].count,
        p50Ms: r.flood[name].p50Ms,
        p99Ms: r.flood[name].p99Ms,
        unloadedP50Ms: r.unloaded[name].p50Ms,
        unloadedP99Ms: r.unloaded[name].p99Ms,
        p99VsUnloaded: Number((r.flood[name].p99Ms / Math.max(0.1, r.unloaded[name].p99Ms)).toFixed(2)),
        rejected: r.flood[name].rejected,
        errors: r.flood[name].errors,
        flooderLists: r.flooder.lists,
        flooderRejected: r.flooder.rejected,
        flooderNice: options.apfFlooderNice,
      }));
      out.push({ name: target.name, results });
    } finally {
      await stop();
    }
  }
  return out;
}
