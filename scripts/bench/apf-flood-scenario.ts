/**
 * The apf-flood scenario (issue 27): an orch-apiserver on the embedded store with the flood's users;
 * one user LISTs --apf-objects ConfigMaps from --apf-flooders connections while system:masters, the
 * controller manager's Lease renewals and another tenant are timed unloaded and flooded
 * (scripts/bench/apf-flood.ts), for --seconds each. One row per protected client: its p50 and p99
 * both ways, the p99 ratio (target <= 2), its 429s, and the flooder's LISTs and 429s.
 */
import { FLOOD_TOKEN_LINES, runFlood, type ProtectedClient } from './apf-flood.js';
import { loadKubeconfig } from './kubeconfig.js';
import { startLocalApiServer } from './local-cluster.js';
import type { BenchOptions, ScenarioResult } from './workload.js';

export async function runApfFlood(
  options: BenchOptions,
  workers: number | undefined,
  log: (line: string) => void,
  nodeArgs: string[] = [],
): Promise<ScenarioResult[]> {
  const server = await startLocalApiServer({ tokens: FLOOD_TOKEN_LINES, nodeArgs, args: workers ? [`--workers=${workers}`] : [] });
  try {
    const r = await runFlood(
      loadKubeconfig(server.kubeconfig),
      { objects: options.apfObjects, flooderConcurrency: options.apfFlooders, seconds: options.seconds },
      log,
    );
    return (['masters', 'lease', 'tenant'] as ProtectedClient[]).map((name) => ({
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
    }));
  } finally {
    await server.stop();
  }
}
