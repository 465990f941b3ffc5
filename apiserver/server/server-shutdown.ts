/**
 * The API server's graceful shutdown, once however often it is asked for: /readyz fails, the
 * bootstrap loop ends, --shutdown-delay-duration passes serving, then the listener closes, long-running
 * requests end, the others get up to --request-timeout, and the parts stop, the store last.
 */
import type { Server } from 'node:https';
import type { Logger } from '../component-base/logs/logger.js';
import type { HealthChecks } from '../component-base/health/health-checks.js';
import type { AdmissionAccess } from './admission-access.js';
import type { Bootstrap } from './bootstrap-loop.js';
import type { InFlight } from './filters/with-in-flight-tracking.js';
import type { MeteredStorage } from './metered-storage.js';
import type { ServerOptions } from './options.js';
import type { ServerAudit } from './audit.js';
import type { ServerInformers } from './server-informers.js';
import type { Aggregator } from './aggregator/new-aggregator.js';

export interface ShutdownParts {
  options: ServerOptions;
  logger: Logger;
  health: HealthChecks;
  bootstrap: Bootstrap;
  /** The identity Lease's renewal (APIServerIdentity), when on: stopped, and the Lease deleted, before the store closes. */
  identity?: { stop(): Promise<void> };
  server: Server;
  inFlight: InFlight;
  access: AdmissionAccess;
  informers: ServerInformers;
  aggregator: Aggregator;
  /** API Priority and Fairness, when it is on. */
  flowControl?: { stop(): void };
  /** /debug/cluster's own etcd clients. */
  clusterStatus: { close(): void };
  storage: MeteredStorage;
  audit?: ServerAudit;
}

export function newServerShutdown(parts: ShutdownParts): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () =>
    (closing ??= (async () => {
      parts.logger.info('shutting down', { delayMs: parts.options.shutdownDelayMs });
      parts.health.startShutdown();
      const bootstrapped = parts.bootstrap.stop();
      if (parts.options.shutdownDelayMs > 0) await new Promise((r) => setTimeout(r, parts.options.shutdownDelayMs));
      const closed = new Promise<void>((r) => parts.server.close(() => r()));
      parts.server.closeIdleConnections();
      parts.inFlight.closeLongRunning();
      parts.access.close();
      await parts.inFlight.drained(parts.options.requestTimeoutMs);
      parts.server.closeAllConnections();
      await closed;
      await bootstrapped;
      await parts.identity?.stop();
      parts.informers.stop();
      parts.aggregator.stop();
      parts.flowControl?.stop();
      parts.clusterStatus.close();
      await parts.storage.compactor.stop();
      await parts.storage.cacher?.close();
      await parts.storage.storage.close();
      await parts.audit?.backend.shutdown();
      parts.logger.info('stopped');
    })());
}
