/**
 * orch-proxy at run time: the HTTPS listener (client certificates requested when --client-ca-file
 * is given, never required), the replica pool and its /readyz checks, the forwarder, and the
 * proxy's own /metrics, /healthz and /readyz on a plain-HTTP side port. close() drains: the
 * listener stops accepting, idle connections are closed, in-flight requests (watches included)
 * may finish for --shutdown-timeout, then whatever is left is cut.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { Agent, createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { X509Certificate } from 'node:crypto';
import { newLogger } from '../component-base/logs/logger.js';
import { newRegistry, serveMetrics } from '../component-base/metrics/registry.js';
import { BackendPool } from './backends.js';
import { newForwarder } from './forward.js';
import { identityHeaders, newIdentityForwarder } from './identity.js';
import { newProxyMetrics } from './metrics.js';
import type { ProxyOptions } from './options.js';

export interface RunningProxy {
  /** The HTTPS port clients connect to. */
  port: number;
  /** The side port of /metrics, /healthz and /readyz; undefined when not served. */
  metricsPort: number | undefined;
  pool: BackendPool;
  /** Drains (see above) and resolves when every connection is gone. */
  close(): Promise<void>;
}

export async function runProxy(options: ProxyOptions): Promise<RunningProxy> {
  const logger = newLogger(options);
  for (const warning of options.featureGateWarnings) logger.warn(warning);
  const registry = newRegistry();
  const metrics = newProxyMetrics(registry);
  const backendCA = readFileSync(options.backendCAFile, 'utf8');
  const proxyCert = options.proxyClientCertFile ? readFileSync(options.proxyClientCertFile, 'utf8') : undefined;
  const proxyKey = options.proxyClientKeyFile ? readFileSync(options.proxyClientKeyFile, 'utf8') : undefined;
  const clientCA = options.clientCAFile ? readFileSync(options.clientCAFile, 'utf8') : undefined;
  const plainAgent = new Agent({ keepAlive: true, ca: backendCA });
  const assertingAgent = proxyCert ? new Agent({ keepAlive: true, ca: backendCA, cert: proxyCert, key: proxyKey }) : plainAgent;
  const names = { usernameHeader: options.usernameHeader, groupHeader: options.groupHeader, extraHeaderPrefix: options.extraHeaderPrefix };

  // The checks authenticate as the proxy itself (its certificate's CN), so /readyz answers under any authorization mode.
  const proxyUser = proxyCert ? (new X509Certificate(proxyCert).subject.match(/^CN=(.*)$/m)?.[1] ?? 'orch-proxy') : undefined;
  const pool = new BackendPool({
    urls: options.backends,
    agent: proxyUser ? new Agent({ ca: backendCA, cert: proxyCert, key: proxyKey }) : new Agent({ ca: backendCA }),
    headers: proxyUser ? (identityHeaders({ name: proxyUser, groups: [] }, names) as Record<string, string>) : {},
    intervalMs: options.healthCheckIntervalMs,
    timeoutMs: options.healthCheckTimeoutMs,
    onChange(backend) {
      metrics.ready.set({ backend: backend.url }, backend.ready ? 1 : 0);
      logger.info(backend.ready ? 'replica ready' : 'replica not ready', { backend: backend.url });
    },
  });
  for (const url of options.backends) metrics.ready.set({ backend: url }, 0);

  let draining = false;
  const forwarder = newForwarder({
    pool,
    identity: newIdentityForwarder(clientCA, names),
    assertingAgent,
    plainAgent,
    maxAttempts: options.maxAttempts,
    maxRequestBytes: options.maxRequestBytes,
    metrics,
    logger,
    draining: () => draining,
  });

  const server: Server = createServer({
    cert: readFileSync(options.tlsCertFile),
    key: readFileSync(options.tlsPrivateKeyFile),
    ...(clientCA ? { requestCert: true, rejectUnauthorized: false, ca: clientCA } : {}),
  });
  // Watches stay open as long as the replica keeps them; only idle keep-alive connections time out.
  server.requestTimeout = 0;
  server.on('request', (req, res) => {
    forwarder.web(req, res).catch((err: unknown) => {
      logger.error('forward failed', { err });
      res.destroy();
    });
  });
  const upgraded = new Set<Duplex>();
  server.on('upgrade', (req, socket, head) => {
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    forwarder.upgrade(req, socket, head).catch((err: unknown) => {
      logger.error('upgrade failed', { err });
      socket.destroy();
    });
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  await pool.checked();
  await listen(server, options.securePort, options.bindAddress);
  const port = (server.address() as AddressInfo).port;

  let side: HttpServer | undefined;
  if (options.metricsPort !== 0) {
    side = createHttpServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/metrics') {
        void serveMetrics(registry, res);
        return;
      }
      if (path === '/healthz' || path === '/livez') {
        res.end('ok');
        return;
      }
      if (path === '/readyz') {
        const ok = !draining && pool.backends.some((b) => b.ready);
        res.statusCode = ok ? 200 : 503;
        res.end(ok ? 'ok' : draining ? 'draining' : 'no replica is ready');
        return;
      }
      res.statusCode = 404;
      res.end('not found');
    });
    await listen(side, options.metricsPort, options.metricsBindAddress);
  }
  logger.info('orch-proxy serving', { port, backends: options.backends });

  return {
    port,
    metricsPort: side ? (side.address() as AddressInfo).port : undefined,
    pool,
    async close() {
      draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const cut = setTimeout(() => {
        server.closeAllConnections();
        for (const socket of upgraded) socket.destroy();
      }, options.shutdownTimeoutMs);
      await closed;
      clearTimeout(cut);
      pool.close();
      plainAgent.destroy();
      assertingAgent.destroy();
      await new Promise<void>((resolve) => (side ? side.close(() => resolve()) : resolve()));
    },
  };
}

function listen(server: HttpServer | Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
