/**
 * The controller manager's own HTTPS port: /healthz, /livez, /readyz (component-base's health checks
 * handler) and /metrics, with a self-signed certificate kept in --cert-dir (or a temporary folder
 * removed on close).
 */
import { createServer, type Server } from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultServingHosts, ensureCA, ensureServingCert } from '../../apiserver/component-base/certs/certs.js';
import type { HealthChecks } from '../../apiserver/component-base/health/health-checks.js';
import { serveMetrics } from '../../apiserver/component-base/metrics/registry.js';
import type { ControllerManagerMetrics } from './metrics.js';

export interface ServingOptions {
  bindAddress: string;
  /** 0 picks a free port. */
  port: number;
  certDir: string;
  health: HealthChecks;
  metrics: ControllerManagerMetrics;
}

export interface RunningServing {
  port: number;
  close(): Promise<void>;
}

export async function serveHealthAndMetrics(opts: ServingOptions): Promise<RunningServing> {
  const certDir = opts.certDir || mkdtempSync(join(tmpdir(), 'orch-controller-manager-'));
  const ca = ensureCA(certDir);
  const pair = ensureServingCert(certDir, ca, defaultServingHosts());
  const server: Server = createServer({ cert: pair.certPem + ca.certPem, key: pair.keyPem }, (req, res) => {
    if (opts.health.handle(req, res)) return;
    if (new URL(req.url ?? '/', 'https://x').pathname === '/metrics' && req.method === 'GET') {
      void serveMetrics(opts.metrics.registry, res);
      return;
    }
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('404 page not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.bindAddress, () => resolve());
  });
  const address = server.address();
  // Listening on a TCP port (not a pipe), the server has an address with its port.
  if (address === null || typeof address === 'string') throw new Error(`metrics server: no TCP address (${address})`);
  return {
    port: address.port,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      if (!opts.certDir) rmSync(certDir, { recursive: true, force: true });
    },
  };
}
