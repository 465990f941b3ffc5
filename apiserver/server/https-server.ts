/**
 * The HTTPS server of the handler chain: the serving certificate, the client CAs certificates are
 * asked for (not required), and listening: on --bind-address:--secure-port, or on connections a
 * worker's supervisor hands over.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type express from 'express';
import { defaultServingHosts, ensureCA, ensureServingCert } from '../component-base/certs/certs.js';
import type { Logger } from '../component-base/logs/logger.js';
import { serverClasses } from './chain.js';
import type { ServerOptions } from './options.js';
import { newUpgradeListener } from './upgrade-listener.js';
import { withTimeout } from './with-timeout.js';
import type { WorkerEnvironment } from './worker-environment.js';

/** How long a worker waits for its informers before it serves anyway (its /readyz then says what is missing). */
const SERVE_SYNC_TIMEOUT_MS = 60_000;

/** The serving certificate: the given files, or one generated (once) under --cert-dir. */
export function servingCert(options: ServerOptions): { cert: string; key: string } {
  if (options.tlsCertFile && options.tlsPrivateKeyFile) {
    return { cert: readFileSync(options.tlsCertFile, 'utf8'), key: readFileSync(options.tlsPrivateKeyFile, 'utf8') };
  }
  const ca = ensureCA(options.certDir);
  const pair = ensureServingCert(options.certDir, ca, defaultServingHosts());
  return { cert: pair.certPem, key: pair.keyPem };
}

/** Where the server is reached, known once it serves; the chain reads it for the Kubernetes Service's endpoint. */
export class ServedAddress {
  server?: Server;
  /** The port a worker's supervisor listens on (the worker's own server does not listen). */
  supervisorPort?: number;

  constructor(private readonly options: ServerOptions) {}

  /** host:port. */
  readonly hostPort = (): string => {
    const { bindAddress, securePort } = this.options;
    const port = (this.server?.address() as AddressInfo | null)?.port ?? this.supervisorPort ?? securePort;
    return `${bindAddress === '0.0.0.0' ? '127.0.0.1' : bindAddress}:${port}`;
  };
}

export function newHttpsServer(options: ServerOptions, app: express.Express): Server {
  const { cert, key } = servingCert(options);
  // The CAs client certificates are asked for: users' and the authenticating proxy's.
  const clientCAs = [options.clientCAFile, options.requestHeader?.clientCAFile]
    .filter((f) => f !== undefined)
    .map((f) => readFileSync(f, 'utf8'));
  const clientCA = clientCAs.length > 0 ? clientCAs.join('\n') : undefined;
  // Headers up to Go's DefaultMaxHeaderBytes, so an oversized credential is a 401 from authentication, not a 431.
  const server = createServer(
    { cert, key, ca: clientCA, requestCert: !!clientCA, rejectUnauthorized: false, maxHeaderSize: 1 << 20, ...serverClasses(app) },
    app,
  );
  server.on('upgrade', newUpgradeListener(app));
  server.keepAliveTimeout = 65_000;
  return server;
}

/**
 * Serves `server` (a worker with serveOnceSynced first waits for `synced`) and resolves with the
 * port it is reached on.
 */
export async function serveHttps(
  server: Server,
  address: ServedAddress,
  options: ServerOptions,
  worker: WorkerEnvironment,
  synced: () => Promise<unknown>,
  logger: Logger,
): Promise<number> {
  address.server = server;
  if (worker.serveOnceSynced) {
    await withTimeout(synced(), SERVE_SYNC_TIMEOUT_MS, 'informer sync').catch((err: unknown) =>
      logger.warn('serving before the informers synced', { err: String(err) }),
    );
  }
  if (worker.serve) address.supervisorPort = await worker.serve(server);
  else {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.securePort, options.bindAddress, () => resolve());
    });
  }
  return address.supervisorPort ?? (server.address() as AddressInfo).port;
}
