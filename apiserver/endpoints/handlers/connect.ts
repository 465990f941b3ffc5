/**
 * CONNECT subresources (pods/log, exec, attach, portforward, proxy; services/proxy; nodes/proxy):
 * CONNECT admission, then the request is proxied with http-proxy to where the registry says it leads
 * (registry/core/connect-location.ts) — bodies streamed both ways (`follow=true` logs unbuffered),
 * WebSocket and SPDY upgrades passed through, the caller's credentials never forwarded, and a backend
 * that does not answer within the dial timeout is a 503 Status, never a hang.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import type { Duplex } from 'node:stream';
import httpProxy from 'http-proxy';
import * as status from '../../api/status.js';
import { type ApiObject, asKind, type KindObject } from '../../api/object.js';
import type { Endpoints, Node, Pod, Service } from '../../api/generated/types.js';
import {
  type Location,
  type NodeAgentOptions,
  locationURL,
  nodeProxyLocation,
  podAgentLocation,
  podProxyLocation,
  serviceProxyLocation,
  splitProxyName,
} from '../../registry/core/connect-location.js';
import { upgradeFrom } from '../request/upgrade.js';
import { writeStatus } from '../responses.js';
import { passUpgradeAnswer } from '../upgrade-pass-through.js';
import type { RequestScope } from './scope.js';

/** How the server reaches node agents and backends (--kubelet-* flags). */
export interface ConnectConfig extends NodeAgentOptions {
  /** Client certificate and key presented to node agents (PEM), and the CA that verifies them (none: not verified). */
  clientCert?: string;
  clientKey?: string;
  ca?: string;
  /** How long a backend may take to accept the connection. */
  dialTimeoutMs: number;
}

/** Headers that carry the caller's credentials or identity: never sent to a backend. */
const CREDENTIAL_HEADERS = /^(authorization|proxy-authorization|cookie|impersonate-.*|x-remote-.*)$/i;

// Each proxied request listens for its own outgoing request while it lasts (http-proxy's emitter sets no listener limit).
const proxy = httpProxy.createProxyServer({});

function stripCredentials(req: IncomingMessage): void {
  for (const name of Object.keys(req.headers)) if (CREDENTIAL_HEADERS.test(name)) delete req.headers[name];
}

/** The rest of the path after the subresource (`.../proxy/a/b/` → `/a/b/`). */
function restOfPath(s: RequestScope): string {
  const parts = s.info.extraParts;
  if (parts.length === 0) return '/';
  return `/${parts.map(encodeURIComponent).join('/')}${s.info.path.endsWith('/') ? '/' : ''}`;
}

/** The query without the parameters that only address the API server. */
function backendQuery(query: URLSearchParams): URLSearchParams {
  const q = new URLSearchParams(query);
  q.delete('path');
  return q;
}

/** A core object of `resource` (whose kind is `T`), or undefined when there is none. */
async function get<T extends KindObject>(s: RequestScope, resource: string, namespace: string, name: string): Promise<T | undefined> {
  const def = s.api.table.lookup('', 'v1', resource);
  const store = def && s.api.stores.get(def);
  if (!store) return undefined;
  try {
    return asKind<T>(await store.get({ ...s.ctx, namespace }, name));
  } catch (err) {
    if (status.isApiError(err, 'NotFound')) return undefined;
    throw err;
  }
}

/** Where this request leads. */
async function locate(s: RequestScope, config: ConnectConfig): Promise<{ location: Location; nodeAgent: boolean }> {
  const sub = s.info.subresource;
  const query = s.query;
  if (s.def.kind === 'Node') {
    const { scheme, name } = splitProxyName(s.info.name);
    const node = asKind<Node>(await s.store.get(s.ctx, name));
    return { location: nodeProxyLocation(node, restOfPath(s), backendQuery(query), config, scheme), nodeAgent: true };
  }
  if (s.def.kind === 'Service') {
    const { scheme, name, port } = splitProxyName(s.info.name);
    const service = asKind<Service>(await s.store.get(s.ctx, name));
    const endpoints = await get<Endpoints>(s, 'endpoints', s.ctx.namespace, name);
    return { location: serviceProxyLocation(service, endpoints, scheme, port, restOfPath(s), backendQuery(query)), nodeAgent: false };
  }
  if (sub === 'proxy') {
    const { scheme, name, port } = splitProxyName(s.info.name);
    const pod = asKind<Pod>(await s.store.get(s.ctx, name));
    return { location: podProxyLocation(pod, scheme, port, restOfPath(s), backendQuery(query)), nodeAgent: false };
  }
  const pod = asKind<Pod>(await s.store.get(s.ctx, s.info.name));
  const node = pod.spec?.nodeName ? await get<Node>(s, 'nodes', '', pod.spec.nodeName) : undefined;
  return { location: podAgentLocation(sub as 'log' | 'exec' | 'attach' | 'portforward', pod, node, query, config), nodeAgent: true };
}

/** The connection's options object, as CONNECT admission sees it (PodExecOptions, …). */
function connectOptions(kind: string, query: URLSearchParams, path: string): ApiObject {
  const obj: ApiObject = { kind, apiVersion: 'v1', metadata: {} };
  for (const key of new Set(query.keys())) {
    const values = query.getAll(key);
    obj[key] = key === 'command' || key === 'ports' ? values : values[0] === 'true' || values[0] === '1' ? true : values[0];
  }
  if (kind.endsWith('ProxyOptions')) obj.path = path;
  return obj;
}

/**
 * Destroys the outgoing request when its connection — TCP, and the TLS handshake for an https backend —
 * is not established within the dial timeout (http-proxy dials a new connection for every request).
 */
function dialTimeout(proxyReq: import('node:http').ClientRequest, ms: number, location: Location): void {
  const arm = (socket: import('node:net').Socket) => {
    const tls = location.scheme === 'https';
    const timer = setTimeout(
      () => proxyReq.destroy(Object.assign(new Error(`dial tcp ${location.host}:${location.port}: i/o timeout`), { code: 'ETIMEDOUT' })),
      ms,
    );
    socket.once(tls ? 'secureConnect' : 'connect', () => clearTimeout(timer));
    socket.once('close', () => clearTimeout(timer));
  };
  // http-proxy announces a plain request from inside its 'socket' event: the socket is there already.
  if (proxyReq.socket) arm(proxyReq.socket);
  else proxyReq.once('socket', arm);
}

function unavailable(err: Error, location: Location): status.ApiError {
  const why =
    (err as NodeJS.ErrnoException).code === 'ECONNREFUSED'
      ? `dial tcp ${location.host}:${location.port}: connect: connection refused`
      : err.message;
  return status.serviceUnavailable(`error trying to reach service: ${why}`);
}

/** A Status written on a raw upgraded socket (the handshake failed). */
function writeStatusToSocket(socket: Duplex, e: status.ApiError): void {
  if (socket.destroyed) return;
  const body = JSON.stringify(e.status);
  socket.end(
    `HTTP/1.1 ${e.status.code} ${e.status.reason ?? ''}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * An upgrade http-proxy does not take (SPDY/3.1, which kubectl exec, attach and port-forward speak):
 * the request is sent on to the backend as it came (credentials stripped), and once the backend
 * switches protocols the two connections are joined byte for byte. A backend that answers without
 * upgrading has its answer passed back (see upgrade-pass-through.ts); one that cannot be reached is a 503 Status.
 */
function passThroughUpgrade(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  location: Location,
  tls: RequestOptions,
  dialTimeoutMs: number,
): Promise<void> {
  return new Promise((resolve) => {
    const send = location.scheme === 'https' ? httpsRequest : httpRequest;
    const out = send({
      ...tls,
      method: req.method,
      headers: { ...req.headers, host: `${location.host}:${location.port}` },
      agent: false,
    });
    dialTimeout(out, dialTimeoutMs, location);
    passUpgradeAnswer(out, socket, head, { done: resolve });
    out.on('error', (err) => {
      writeStatusToSocket(socket, unavailable(err, location));
      resolve();
    });
    out.end();
  });
}

export async function handleConnect(s: RequestScope, kind: string, config: ConnectConfig): Promise<void> {
  // Admission first, as Kubernetes' connect handler: a webhook sees the connection even when it leads
  // nowhere. pods/log is a read in Kubernetes (a getter with options), never admitted.
  if (kind !== 'PodLogOptions') {
    await s.store.admitConnect(s.ctx, splitProxyName(s.info.name).name, s.info.subresource, connectOptions(kind, s.query, restOfPath(s)));
  }
  const { location, nodeAgent } = await locate(s, config);
  stripCredentials(s.req);
  const url = new URL(locationURL(location));
  const target = {
    protocol: url.protocol,
    host: location.host,
    port: location.port,
    path: `${url.pathname}${url.search}`,
    ...(nodeAgent && config.clientCert && config.clientKey ? { cert: config.clientCert, key: config.clientKey } : {}),
    ...(nodeAgent && config.ca ? { ca: config.ca } : {}),
  };
  const options: httpProxy.ServerOptions = {
    // http-proxy passes the target's TLS options (cert, key, ca) on, but its types name only URL fields.
    target: target as unknown as httpProxy.ProxyTargetUrl,
    ignorePath: true,
    changeOrigin: true,
    secure: nodeAgent && !!config.ca,
    xfwd: false,
  };
  const upgrade = upgradeFrom(s.req);
  if (upgrade && String(s.req.headers.upgrade).toLowerCase() !== 'websocket') {
    await passThroughUpgrade(
      s.req,
      upgrade.socket,
      upgrade.head,
      location,
      { ...target, rejectUnauthorized: options.secure },
      config.dialTimeoutMs,
    );
    return;
  }
  await new Promise<void>((resolve) => {
    if (upgrade) {
      const onReq = (proxyReq: import('node:http').ClientRequest, req: IncomingMessage) => {
        if (req === s.req) dialTimeout(proxyReq, config.dialTimeoutMs, location);
      };
      proxy.on('proxyReqWs', onReq);
      upgrade.socket.once('close', () => {
        proxy.off('proxyReqWs', onReq);
        resolve();
      });
      proxy.ws(s.req, upgrade.socket, upgrade.head, options, (err) => {
        proxy.off('proxyReqWs', onReq);
        writeStatusToSocket(upgrade.socket, unavailable(err, location));
        resolve();
      });
      return;
    }
    const onReq = (proxyReq: import('node:http').ClientRequest, req: IncomingMessage) => {
      if (req === s.req) dialTimeout(proxyReq, config.dialTimeoutMs, location);
    };
    proxy.on('proxyReq', onReq);
    s.res.once('close', () => {
      proxy.off('proxyReq', onReq);
      resolve();
    });
    proxy.web(s.req, s.res, options, (err) => {
      proxy.off('proxyReq', onReq);
      if (!s.res.headersSent) writeStatus(s.res, unavailable(err, location).status);
      else s.res.destroy(err);
      resolve();
    });
  });
}
