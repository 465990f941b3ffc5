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
  const {
    options,
    logger,
    health,
    bootstrap,
    identity,
    server,
    inFlight,
    access,
    informers,
    aggregator,
    flowControl,
    clusterStatus,
    storage,
    audit,
  } = parts;
  let closing: Promise<void> | undefined;
  return () =>
    (closing ??= (async () => {
      logger.info('shutting down', { delayMs: options.shutdownDelayMs });
      health.startShutdown();
      const bootstrapped = bootstrap.stop();
      if (options.shutdownDelayMs > 0) await new Promise((r) => setTimeout(r, options.shutdownDelayMs));
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeIdleConnections();
      inFlight.closeLongRunning();
      access.close();
      await inFlight.drained(options.requestTimeoutMs);
      server.closeAllConnections();
      await closed;
      await bootstrapped;
      await identity?.stop();
      informers.stop();
      aggregator.stop();
      flowControl?.stop();
      clusterStatus.close();
      await storage.compactor.stop();
      await storage.cacher?.close();
      await storage.storage.close();
      await audit?.backend.shutdown();
      logger.info('stopped');
    })());
}
