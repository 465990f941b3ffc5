/** What a worker process (--workers) gets from its supervisor instead of making it itself. */
import type { Server } from 'node:https';
import type { Storage } from '../storage/interfaces.js';

export interface WorkerEnvironment {
  /**
   * Which of the --workers N this is (0 … N-1; a restarted worker keeps its dead one's): part of its
   * identity Lease's name, so a restart takes the Lease back.
   */
  slot?: number;
  /** The store (on the embedded store: the supervisor's, which owns the file). */
  storage?: Storage;
  /** /metrics: every worker's metrics, summed by the supervisor. */
  clusterMetrics?: () => Promise<string>;
  /**
   * Accept connections only once the authorizers' informers and the served CRDs have synced. Workers
   * share one port with no load balancer reading /readyz in front of them: a worker restarted next to
   * a serving one would otherwise answer its share of the requests with an empty RBAC cache (403) or
   * without the custom resources (404).
   */
  serveOnceSynced?: boolean;
  /**
   * Serves `server` on connections handed over by the supervisor instead of listening itself;
   * resolves with the port the supervisor listens on (server/workers.ts).
   */
  serve?: (server: Server) => Promise<number>;
}
