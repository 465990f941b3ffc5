/**
 * A request under a remote APIService's group version, sent on to its extension server (kube-aggregator's
 * proxyHandler) with http-proxy: after orch's authentication and authorization, over HTTPS with orch's
 * front-proxy client certificate, the caller named in request headers (the first of each
 * --requestheader-*-headers, X-Remote-User / X-Remote-Group / X-Remote-Extra- by default) and the
 * caller's own credentials (Authorization, impersonation and identity headers, cookies) removed.
 * Answers stream back as they come (watches unbuffered); upgrades (WebSocket, SPDY) are joined byte
 * for byte (an upgrade unanswered within the request timeout is a 504). An APIService not Available, or whose service resolves to nothing, is 503 "service
 * unavailable"; a server that cannot be reached is 503; one that sends no answer within the request
 * timeout (watches and other long-running requests aside) is 504 — never a hang.
 */
import { type ClientRequest, type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';
import type { Duplex } from 'node:stream';
import httpProxy from 'http-proxy';
import * as status from '../../api/status.js';
import type { ApiError } from '../../api/status.js';
import type { APIService } from '../../api/generated/types.js';
import type { UserInfo } from '../../api/user-info.js';
import { requestInfoFrom } from '../../endpoints/request/request-info.js';
import { userFrom } from '../../endpoints/request/request-user.js';
import { upgradeFrom } from '../../endpoints/request/upgrade.js';
import { isLongRunning } from '../../endpoints/request/long-running.js';
import { passUpgradeAnswer } from '../../endpoints/upgrade-pass-through.js';
import { writeStatus } from '../../endpoints/responses.js';
import { identityHeaders, type IdentityHeaderNames } from '../../frontdoor/identity.js';
import { isAvailable } from './api-services.js';
import { hostPort, resolveEndpoint, type ResolvedEndpoint, type ServiceReader } from './resolve-endpoint.js';

export interface AggregatorProxyOptions {
  /** The front-proxy client certificate and key (PEM) presented to extension servers. */
  clientCert?: string;
  clientKey?: string;
  headerNames: IdentityHeaderNames;
  reader: ServiceReader;
  endpointRouting: boolean;
  /** How long a request that is not long-running may wait for the extension server's answer. */
  requestTimeoutMs: number;
}

export interface AggregatorProxy {
  serve(req: IncomingMessage, res: ServerResponse, apiService: APIService): Promise<void>;
  /** The TLS options for `apiService` (also used by the availability check). */
  tls(apiService: APIService): TlsOptions;
  close(): void;
}

export interface TlsOptions {
  ca?: string;
  cert?: string;
  key?: string;
  rejectUnauthorized: boolean;
  servername: string;
}

/** Headers that carry the caller's credentials or an identity: never sent on. */
const CREDENTIAL_HEADERS = /^(authorization|proxy-authorization|cookie|impersonate-.*|x-remote-.*)$/i;

/** The request headers to send on: the caller's without credentials, with `user` asserted. */
export function proxiedHeaders(
  headers: IncomingMessage['headers'],
  user: UserInfo,
  names: IdentityHeaderNames,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const identity = [names.usernameHeader, names.groupHeader].map((h) => h.toLowerCase());
  const prefix = names.extraHeaderPrefix.toLowerCase();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || CREDENTIAL_HEADERS.test(name) || identity.includes(name) || name.startsWith(prefix)) continue;
    out[name] = value;
  }
  return { ...out, ...identityHeaders(user, names) };
}

const unavailable = () => status.serviceUnavailable('service unavailable');

/** A Status as a whole HTTP/1.1 answer on a raw socket (an upgrade request's), the connection closed after it. */
function rawStatus(err: ApiError): string {
  const body = JSON.stringify(err.status);
  const code = err.status.code ?? 500;
  return `HTTP/1.1 ${code} ${STATUS_CODES[code] ?? ''}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

export function newAggregatorProxy(o: AggregatorProxyOptions): AggregatorProxy {
  const proxy = httpProxy.createProxyServer({ xfwd: false, changeOrigin: true });
  const onResponse = new WeakMap<IncomingMessage, (proxyRes: IncomingMessage) => void>();
  const onRequest = new WeakMap<IncomingMessage, (proxyReq: ClientRequest) => void>();
  proxy.on('proxyRes', (proxyRes, req) => onResponse.get(req)?.(proxyRes));
  proxy.on('proxyReq', (proxyReq, req) => onRequest.get(req)?.(proxyReq));
  const agents = new Map<string, Agent>();

  const tls = (s: APIService): TlsOptions => {
    const svc = s.spec?.service;
    return {
      ca: s.spec?.caBundle ? Buffer.from(s.spec.caBundle, 'base64').toString('utf8') : undefined,
      cert: o.clientCert,
      key: o.clientKey,
      rejectUnauthorized: !s.spec?.insecureSkipTLSVerify,
      // The serving certificate is checked for the Service's DNS name, wherever the request is routed.
      servername: `${svc?.name ?? ''}.${svc?.namespace ?? ''}.svc`,
    };
  };
  const agentFor = (s: APIService): Agent => {
    const options = tls(s);
    const key = JSON.stringify([s.metadata.name, options.ca, options.rejectUnauthorized, options.servername]);
    let agent = agents.get(key);
    if (!agent) {
      for (const [k, a] of agents) {
        if (JSON.parse(k)[0] === s.metadata.name) {
          a.destroy();
          agents.delete(k);
        }
      }
      agent = new Agent({ keepAlive: true, ...options });
      agents.set(key, agent);
    }
    return agent;
  };

  async function serve(req: IncomingMessage, res: ServerResponse, s: APIService): Promise<void> {
    if (!isAvailable(s)) throw unavailable();
    const svc = s.spec!.service!;
    let endpoint: ResolvedEndpoint;
    try {
      endpoint = await resolveEndpoint(
        o.reader,
        { namespace: svc.namespace ?? '', name: svc.name ?? '', port: svc.port ?? 443 },
        o.endpointRouting,
      );
    } catch {
      throw unavailable();
    }
    const headers = proxiedHeaders(req.headers, userFrom(req), o.headerNames);
    const upgrade = upgradeFrom(req);
    if (upgrade) return passUpgrade(req, upgrade.socket, upgrade.head, endpoint, headers, tls(s));
    const info = requestInfoFrom(req);
    const deadline = isLongRunning(info) ? 0 : o.requestTimeoutMs;
    await new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      let over = false;
      const done = () => {
        over = true;
        clearTimeout(timer);
        onResponse.delete(req);
        onRequest.delete(req);
        resolve();
      };
      onRequest.set(req, (proxyReq) => {
        if (deadline <= 0) return;
        timer = setTimeout(() => {
          proxyReq.destroy();
          if (!res.headersSent) writeStatus(res, status.timeout('request did not complete within the allotted timeout', 1).status);
          else res.destroy();
          done();
        }, deadline);
      });
      onResponse.set(req, (proxyRes) => {
        clearTimeout(timer);
        // A stream (a watch: no length) may send nothing for long; its client must see the headers now.
        if (proxyRes.headers['content-length'] === undefined) {
          queueMicrotask(() => {
            if (!res.headersSent && !res.destroyed) res.flushHeaders();
          });
        }
      });
      res.once('close', done);
      // @types/http-proxy types an object target as a url.Url (port a string); http-proxy itself takes a
      // numeric port, which https.request is given as is.
      const target = { protocol: 'https:', host: endpoint.host, port: endpoint.port } as unknown as httpProxy.ProxyTargetUrl;
      const failed = (err: Error) => {
        if (over) return;
        if (!res.headersSent) {
          writeStatus(res, status.serviceUnavailable(`error trying to reach service: ${err.message}`).status);
        } else res.destroy(err);
        done();
      };
      try {
        proxy.web(req, res, { target, agent: agentFor(s), headers: headers as Record<string, string> }, failed);
      } catch (err) {
        // A caBundle that is no certificate fails as the TLS context is made.
        failed(err instanceof Error ? err : new Error(String(err)));
      }
    });
  }

  /**
   * An upgrade joined to the extension server. Until it answers (upgrading or not) the wait is bounded
   * by the request timeout: then the upstream request is destroyed and the client gets a 504 Timeout
   * Status and its socket ended; a client that goes away first takes the upstream request with it.
   */
  function passUpgrade(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    endpoint: ResolvedEndpoint,
    headers: Record<string, string | string[]>,
    options: TlsOptions,
  ): Promise<void> {
    return new Promise((resolve) => {
      let waiting = true;
      let timer: NodeJS.Timeout | undefined;
      let out: ClientRequest | undefined;
      const finish = (answer?: ApiError) => {
        if (!waiting) return;
        waiting = false;
        clearTimeout(timer);
        socket.off('close', gone);
        out?.destroy();
        if (answer && !socket.destroyed) socket.end(rawStatus(answer));
        resolve();
      };
      const gone = () => finish();
      socket.once('close', gone);
      try {
        out = httpsRequest({
          ...options,
          host: endpoint.host,
          port: endpoint.port,
          method: req.method,
          path: req.url,
          headers: { ...headers, host: hostPort(endpoint) },
          agent: false,
        });
      } catch (err) {
        finish(status.serviceUnavailable(`error trying to reach service: ${err instanceof Error ? err.message : String(err)}`));
        return;
      }
      if (o.requestTimeoutMs > 0) {
        timer = setTimeout(() => finish(status.timeout('request did not complete within the allotted timeout', 1)), o.requestTimeoutMs);
      }
      passUpgradeAnswer(out, socket, head, {
        answered: () => {
          waiting = false;
          clearTimeout(timer);
          socket.off('close', gone);
        },
        done: resolve,
      });
      out.on('error', (err) => finish(status.serviceUnavailable(`error trying to reach service: ${err.message}`)));
      out.end();
    });
  }

  return {
    serve,
    tls,
    close() {
      for (const a of agents.values()) a.destroy();
      agents.clear();
      proxy.close();
    },
  };
}
