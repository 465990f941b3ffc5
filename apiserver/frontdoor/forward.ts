/**
 * Forwarding one request to a replica (http-proxy), and trying again on another when that is safe:
 * - when the connection to the replica could not be made (refused, reset or timed out before TLS
 *   finished), nothing was sent, so any request is tried again;
 * - when a read (GET, HEAD, OPTIONS) failed after it was sent but before any byte of the answer
 *   came back, it is tried again: reading twice changes nothing;
 * - a write that may have reached the replica is never sent twice; its client gets a 503 with
 *   Retry-After, as when no replica is ready.
 * Answers are piped as they come (watches stream unbuffered). An answer cut by the replica is cut
 * for the client too, so a watcher sees its stream end and watches again from its last
 * resourceVersion. Request bodies are held (up to --max-request-bytes) so that they can be resent.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Agent } from 'node:https';
import type { Duplex } from 'node:stream';
import { Readable } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import httpProxy from 'http-proxy';
import { type ApiError, requestEntityTooLarge, serviceUnavailable, unauthorized } from '../api/status.js';
import { AuthenticationError } from '../authentication/interfaces.js';
import type { Logger } from '../component-base/logs/logger.js';
import { writeStatus } from '../endpoints/responses.js';
import type { Backend, BackendPool } from './backends.js';
import type { IdentityForwarder } from './identity.js';
import type { ProxyMetrics } from './metrics.js';
import { forwardUpgrade } from './upgrade.js';

export interface ForwarderOptions {
  pool: BackendPool;
  identity: IdentityForwarder;
  /** Presents the proxy's client certificate: used when the proxy asserts an identity. */
  assertingAgent: Agent;
  /** Presents none: tokens and anonymous requests reach the replica as they reached the proxy. */
  plainAgent: Agent;
  maxAttempts: number;
  maxRequestBytes: number;
  metrics: ProxyMetrics;
  logger: Logger;
  /** The proxy drains: every answer, the replica's too, closes its connection. */
  draining: () => boolean;
}

export interface Forwarder {
  web(req: IncomingMessage, res: ServerResponse): Promise<void>;
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void>;
}

/** Reads never change anything: safe to send twice. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS']);
/** How long a client told "no replica" waits before trying again. */
const RETRY_AFTER_SECONDS = 1;

type Phase = 'connect' | 'request' | 'response';

/** One try of a request on one replica. */
interface Attempt {
  backend: Backend;
  /** The TLS connection to the replica was made (or an open one reused): bytes may have been sent. */
  connected: boolean;
  /** The replica's answer has begun. */
  responded: boolean;
}

export function newForwarder(o: ForwarderOptions): Forwarder {
  const proxy = httpProxy.createProxyServer({ secure: true, changeOrigin: true, xfwd: true });
  // http-proxy copies the options it is given: an attempt is found by its client request (one at a time).
  const attempts = new WeakMap<IncomingMessage, Attempt>();
  const responders = new WeakMap<IncomingMessage, (proxyRes: IncomingMessage) => void>();

  // Emitted when the outgoing request gets its socket: an open one reused, or a new one connecting.
  proxy.on('proxyReq', (proxyReq, req) => {
    const attempt = attempts.get(req);
    const socket = proxyReq.socket as TLSSocket | null;
    if (!attempt || !socket) return;
    if (proxyReq.reusedSocket || (!socket.connecting && !socket.pending)) attempt.connected = true;
    else socket.once('secureConnect', () => (attempt.connected = true));
  });
  proxy.on('proxyRes', (proxyRes, req) => responders.get(req)?.(proxyRes));

  const label = (backend: Backend | undefined): string => backend?.url ?? 'none';

  const fail = (res: ServerResponse, e: ApiError): void => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    writeStatus(res, e.status);
  };

  async function web(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = process.hrtime.bigint();
    const method = req.method ?? 'GET';
    let last: Backend | undefined;
    res.once('close', () => o.metrics.requests.inc({ backend: label(last), method, code: String(res.statusCode) }));
    if (o.draining()) res.setHeader('Connection', 'close');

    let identity: Awaited<ReturnType<IdentityForwarder['identify']>>;
    try {
      identity = await o.identity.identify(req);
    } catch (err) {
      if (!(err instanceof AuthenticationError)) throw err;
      o.logger.verbose('client certificate refused', { reason: err.message });
      fail(res, unauthorized());
      return;
    }
    const body = await readBody(req, o.maxRequestBytes);
    if (!body) {
      res.setHeader('Connection', 'close');
      fail(res, requestEntityTooLarge(o.maxRequestBytes));
      return;
    }
    const headers = identity.user ? identity.headers : {};
    const agent = identity.user ? o.assertingAgent : o.plainAgent;

    const tried = new Set<Backend>();
    for (let n = 0; n < o.maxAttempts; n++) {
      const backend = o.pool.pick(tried);
      if (!backend) break;
      if (n > 0) o.metrics.retries.inc({ backend: label(last) });
      tried.add(backend);
      last = backend;
      const attempt: Attempt = { backend, connected: false, responded: false };
      const outcome = await forwardOnce(req, res, attempt, { agent, headers, body, started, method });
      if (outcome === 'done') return;
      o.metrics.errors.inc({ backend: backend.url, phase: outcome.phase });
      if (outcome.phase !== 'response') o.pool.markDown(backend);
      o.logger.verbose('forward failed', {
        backend: backend.url,
        phase: outcome.phase,
        method,
        path: req.url,
        reason: outcome.error.message,
      });
      if (outcome.phase === 'response' || res.headersSent || res.destroyed) {
        res.destroy();
        return;
      }
      const retryable = outcome.phase === 'connect' || IDEMPOTENT.has(method);
      if (!retryable) break;
    }
    fail(res, serviceUnavailable('no API server replica could answer the request', RETRY_AFTER_SECONDS));
  }

  function forwardOnce(
    req: IncomingMessage,
    res: ServerResponse,
    attempt: Attempt,
    r: { agent: Agent; headers: Record<string, string | string[]>; body: Buffer; started: bigint; method: string },
  ): Promise<'done' | { phase: Phase; error: Error }> {
    return new Promise((resolve) => {
      const options: httpProxy.ServerOptions = {
        target: attempt.backend.url,
        agent: r.agent,
        headers: r.headers as Record<string, string>,
        buffer: Readable.from(r.body.length > 0 ? [r.body] : []),
      };
      attempts.set(req, attempt);
      let settled = false;
      const settle = (v: 'done' | { phase: Phase; error: Error }): void => {
        if (settled) return;
        settled = true;
        responders.delete(req);
        o.metrics.inflight.dec({ backend: attempt.backend.url });
        resolve(v);
      };
      o.metrics.inflight.inc({ backend: attempt.backend.url });
      responders.set(req, (proxyRes) => {
        attempt.responded = true;
        // http-proxy copies the replica's headers over the client's answer, Connection too.
        if (o.draining()) proxyRes.headers.connection = 'close';
        o.metrics.duration.observe({ backend: attempt.backend.url, method: r.method }, Number(process.hrtime.bigint() - r.started) / 1e9);
        // A stream (a watch: no length) may send nothing for long; its client must see the headers now.
        if (proxyRes.headers['content-length'] === undefined) {
          queueMicrotask(() => {
            if (!res.headersSent && !res.destroyed) res.flushHeaders();
          });
        }
        proxyRes.once('close', () => {
          if (proxyRes.complete) settle('done');
          else settle({ phase: 'response', error: new Error('the replica cut its answer') });
        });
      });
      // The client went away: the forward is over (a watch the client closed ends on the replica too).
      res.once('close', () => settle('done'));
      proxy.web(req, res, options, (err) => {
        if (res.destroyed && !attempt.responded) {
          settle('done');
          return;
        }
        settle({ phase: attempt.responded ? 'response' : attempt.connected ? 'request' : 'connect', error: err });
      });
    });
  }

  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    const method = req.method ?? 'GET';
    let identity: Awaited<ReturnType<IdentityForwarder['identify']>>;
    try {
      identity = await o.identity.identify(req);
    } catch (err) {
      if (!(err instanceof AuthenticationError)) throw err;
      writeStatusToSocket(socket, unauthorized());
      return;
    }
    const tried = new Set<Backend>();
    for (let n = 0; n < o.maxAttempts; n++) {
      const backend = o.pool.pick(tried);
      if (!backend) break;
      tried.add(backend);
      const outcome = await forwardUpgrade(req, socket, head, {
        url: backend.url,
        agent: identity.user ? o.assertingAgent : o.plainAgent,
        headers: identity.user ? identity.headers : {},
      });
      if (outcome === 'sent') {
        o.metrics.requests.inc({ backend: backend.url, method, code: '101' });
        return;
      }
      o.metrics.errors.inc({ backend: backend.url, phase: outcome.connected ? 'request' : 'connect' });
      o.pool.markDown(backend);
      o.logger.verbose('upgrade failed', { backend: backend.url, reason: outcome.error.message });
      // Only a request that reached no replica is sent to another (an exec must not run twice).
      if (outcome.connected) break;
    }
    o.metrics.requests.inc({ backend: 'none', method, code: '503' });
    writeStatusToSocket(socket, serviceUnavailable('no API server replica could answer the request', RETRY_AFTER_SECONDS));
  }

  return { web, upgrade };
}

/** A Status answer on a raw socket whose upgrade could not be forwarded. */
function writeStatusToSocket(socket: Duplex, e: ApiError): void {
  if (socket.destroyed) return;
  const body = JSON.stringify(e.status);
  const retry = e.status.details?.retryAfterSeconds;
  socket.end(
    `HTTP/1.1 ${e.status.code} ${e.status.reason ?? ''}\r\nContent-Type: application/json\r\n${retry === undefined ? '' : `Retry-After: ${retry}\r\n`}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** The whole request body; null when it is longer than `limit` bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}
