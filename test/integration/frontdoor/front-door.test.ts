/**
 * orch-proxy in this process in front of two small HTTPS backends (real TLS, real sockets) whose
 * behaviour each test sets: identity forwarding, balancing, which failures are retried and which are
 * not, readiness and draining, streaming, limits.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Agent, createServer, request, type Server } from 'node:https';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { ensureCA, ensureServingCert, newClientCert, type CertKeyPair } from '../../../apiserver/component-base/certs/certs.js';
import { FeatureGateOptions } from '../../../apiserver/component-base/featuregate/orch-features.js';
import type { ProxyOptions } from '../../../apiserver/frontdoor/options.js';
import { runProxy, type RunningProxy } from '../../../apiserver/frontdoor/run-proxy.js';
import { ensureFrontProxyFiles } from '../../../scripts/cluster-files.js';
import { eventually } from '../../support/eventually.js';
import { freePorts } from '../../support/free-ports.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface Backend {
  name: string;
  url: string;
  port: number;
  server: Server;
  ready: boolean;
  handler: Handler;
  /** Requests seen (not the /readyz checks): method, path, identity headers, whether the proxy's certificate came along. */
  seen: { method: string; path: string; user?: string; groups?: string[]; proxyCert: boolean; authorization?: string }[];
}

const answer =
  (name: string): Handler =>
  (req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ backend: name }));
    });
  };

describe('orch-proxy', () => {
  let dir: string;
  let ca: CertKeyPair;
  let serving: CertKeyPair & { certFile: string; keyFile: string };
  let front: ReturnType<typeof ensureFrontProxyFiles>;
  let user: CertKeyPair;
  const backends: Backend[] = [];

  const startBackend = async (name: string, port = 0): Promise<Backend> => {
    const b = { name, ready: true, handler: answer(name), seen: [] } as unknown as Backend;
    b.server = createServer(
      { cert: serving.certPem, key: serving.keyPem, ca: readFileSync(front.caFile), requestCert: true, rejectUnauthorized: false },
      (req, res) => {
        if (req.url === '/readyz') {
          res.statusCode = b.ready ? 200 : 503;
          res.end();
          return;
        }
        const socket = req.socket as TLSSocket;
        b.seen.push({
          method: req.method ?? '',
          path: req.url ?? '',
          user: req.headers['x-remote-user'] as string | undefined,
          groups: req.headersDistinct['x-remote-group'],
          proxyCert: socket.authorized,
          authorization: req.headers.authorization,
        });
        b.handler(req, res);
      },
    );
    // An upgrade (SPDY, as kubectl exec): answered 101, then every byte echoed back after the user's name.
    b.server.on('upgrade', (req: IncomingMessage, socket: import('node:stream').Duplex) => {
      b.seen.push({
        method: req.method ?? '',
        path: req.url ?? '',
        user: req.headers['x-remote-user'] as string | undefined,
        groups: req.headersDistinct['x-remote-group'],
        proxyCert: (req.socket as TLSSocket).authorized,
        authorization: req.headers.authorization,
      });
      socket.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\n\r\n');
      socket.write(`${req.headers['x-remote-user']}:`);
      socket.pipe(socket);
    });
    await new Promise<void>((resolve) => b.server.listen(port, '127.0.0.1', resolve));
    b.port = (b.server.address() as { port: number }).port;
    b.url = `https://127.0.0.1:${b.port}`;
    return b;
  };

  const startProxy = async (overrides: Partial<ProxyOptions> = {}): Promise<RunningProxy> => {
    const [metricsPort] = await freePorts(1);
    return runProxy({
      securePort: 0,
      bindAddress: '127.0.0.1',
      tlsCertFile: serving.certFile,
      tlsPrivateKeyFile: serving.keyFile,
      clientCAFile: join(dir, 'ca.crt'),
      proxyClientCertFile: front.client.certFile,
      proxyClientKeyFile: front.client.keyFile,
      backendCAFile: join(dir, 'ca.crt'),
      backends: backends.map((b) => b.url),
      usernameHeader: 'X-Remote-User',
      groupHeader: 'X-Remote-Group',
      extraHeaderPrefix: 'X-Remote-Extra-',
      healthCheckIntervalMs: 60_000,
      healthCheckTimeoutMs: 1000,
      maxAttempts: 3,
      maxRequestBytes: 1024,
      shutdownTimeoutMs: 1000,
      metricsPort,
      metricsBindAddress: '127.0.0.1',
      logLevel: 'error',
      featureGates: new FeatureGateOptions().gates,
      featureGateWarnings: [],
      ...overrides,
    });
  };

  /** A request to the proxy; resolves with the status, headers and body once the answer ends. */
  const send = (
    proxy: RunningProxy,
    method: string,
    path: string,
    opts: { cert?: CertKeyPair; headers?: Record<string, string>; body?: string } = {},
  ): Promise<{ status: number; headers: IncomingMessage['headers']; body: string }> =>
    new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: proxy.port,
          method,
          path,
          ca: ca.certPem,
          cert: opts.cert?.certPem,
          key: opts.cert?.keyPem,
          headers: opts.headers,
          agent: false,
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(opts.body);
    });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-proxy-'));
    ca = ensureCA(dir);
    serving = ensureServingCert(dir, ca, []);
    front = ensureFrontProxyFiles(dir);
    user = newClientCert(ca, { cn: 'jane', orgs: ['dev', 'ops'] });
    backends.push(await startBackend('a'), await startBackend('b'));
  });

  after(async () => {
    for (const b of backends) {
      b.server.closeAllConnections();
      await new Promise((r) => b.server.close(r));
    }
    await rm(dir, { recursive: true, force: true });
  });

  const reset = (): void => {
    for (const b of backends) {
      b.ready = true;
      b.handler = answer(b.name);
      b.seen = [];
    }
  };

  it('forwards a client certificate identity over its own certificate, and strips forged identity headers', async () => {
    reset();
    const proxy = await startProxy();
    try {
      const forged = { 'X-Remote-User': 'mallory', 'X-Remote-Group': 'system:masters', 'X-Remote-Extra-Scopes': 'x' };
      assert.equal((await send(proxy, 'GET', '/api', { cert: user, headers: forged })).status, 200);
      assert.equal((await send(proxy, 'GET', '/api', { headers: { ...forged, Authorization: 'Bearer abc' } })).status, 200);
      const [byCert, byToken] = backends.flatMap((b) => b.seen).sort((x, y) => Number(Boolean(y.user)) - Number(Boolean(x.user)));
      assert.deepEqual(byCert, {
        method: 'GET',
        path: '/api',
        user: 'jane',
        groups: ['dev', 'ops'],
        proxyCert: true,
        authorization: undefined,
      });
      assert.deepEqual(byToken, {
        method: 'GET',
        path: '/api',
        user: undefined,
        groups: undefined,
        proxyCert: false,
        authorization: 'Bearer abc',
      });
    } finally {
      await proxy.close();
    }
  });

  it('refuses a client certificate of another CA with a 401 Status, without forwarding', async () => {
    reset();
    const proxy = await startProxy();
    try {
      const stranger = newClientCert(ensureCA(join(dir, 'other')), { cn: 'jane' });
      const res = await send(proxy, 'GET', '/api', { cert: stranger });
      assert.equal(res.status, 401);
      assert.equal(JSON.parse(res.body).reason, 'Unauthorized');
      assert.deepEqual(
        backends.flatMap((b) => b.seen),
        [],
      );
    } finally {
      await proxy.close();
    }
  });

  it('balances round-robin over the ready replicas', async () => {
    reset();
    const proxy = await startProxy();
    try {
      for (let i = 0; i < 4; i++) assert.equal((await send(proxy, 'GET', '/api')).status, 200);
      assert.deepEqual(
        backends.map((b) => b.seen.length),
        [2, 2],
      );
    } finally {
      await proxy.close();
    }
  });

  it('tries a read again on the other replica when the first cut the connection before answering', async () => {
    reset();
    backends[0].handler = (req) => req.socket.destroy();
    const proxy = await startProxy();
    try {
      for (let i = 0; i < 2; i++) {
        const res = await send(proxy, 'GET', '/api');
        assert.equal(res.status, 200);
        assert.equal(JSON.parse(res.body).backend, 'b');
      }
      assert.ok(backends[0].seen.length >= 1, 'replica a was never tried');
      const metrics = await (await fetch(`http://127.0.0.1:${proxy.metricsPort}/metrics`)).text();
      assert.match(metrics, /orch_proxy_retries_total\{backend="https:\/\/127\.0\.0\.1:\d+"\} [1-9]/);
      assert.match(metrics, /orch_proxy_backend_errors_total\{backend="[^"]+",phase="request"\} [1-9]/);
    } finally {
      await proxy.close();
    }
  });

  it('never sends a write twice once it may have arrived: 503 with Retry-After instead', async () => {
    reset();
    backends[0].handler = (req) => req.socket.destroy();
    const proxy = await startProxy();
    try {
      const results = [];
      for (let i = 0; i < 2; i++) results.push(await send(proxy, 'POST', '/api/v1/namespaces', { body: '{}' }));
      const failed = results.find((r) => r.status === 503);
      assert.ok(failed, `statuses ${results.map((r) => r.status)}`);
      assert.equal(failed.headers['retry-after'], '1');
      assert.equal(JSON.parse(failed.body).reason, 'ServiceUnavailable');
      assert.equal(backends[0].seen.filter((s) => s.method === 'POST').length, 1);
      assert.equal(backends[1].seen.filter((s) => s.method === 'POST').length, 1, 'the failed write was resent');
    } finally {
      await proxy.close();
    }
  });

  it('tries any request again when the replica refused the connection (nothing was sent)', async () => {
    reset();
    const down = await startBackend('down');
    const port = down.port;
    down.server.closeAllConnections();
    await new Promise((r) => down.server.close(r));
    const proxy = await startProxy({ backends: [`https://127.0.0.1:${port}`, backends[1].url] });
    try {
      // The first check found the closed replica not ready; pretend it was, as between two checks.
      proxy.pool.backends[0].ready = true;
      for (let i = 0; i < 2; i++) {
        const res = await send(proxy, 'POST', '/api/v1/namespaces', { body: '{}' });
        assert.equal(res.status, 201, res.body);
      }
      assert.equal(backends[1].seen.length, 2);
      assert.equal(proxy.pool.backends[0].ready, false, 'a refused connection takes the replica out');
    } finally {
      await proxy.close();
    }
  });

  it('answers 503 with Retry-After when no replica is ready, and 413 for a body over the limit', async () => {
    reset();
    for (const b of backends) b.ready = false;
    const proxy = await startProxy();
    try {
      const res = await send(proxy, 'GET', '/api');
      assert.equal(res.status, 503);
      assert.equal(res.headers['retry-after'], '1');
      assert.equal((await fetch(`http://127.0.0.1:${proxy.metricsPort}/readyz`)).status, 503);
      for (const b of backends) b.ready = true;
      proxy.pool.backends.forEach((b) => (b.ready = true));
      const big = await send(proxy, 'POST', '/api/v1/namespaces', { body: 'x'.repeat(2048) });
      assert.equal(big.status, 413);
      assert.equal(JSON.parse(big.body).reason, 'RequestEntityTooLarge');
    } finally {
      await proxy.close();
    }
  });

  it('streams: a watch gets its headers at once and each event as it is written; a draining replica keeps its watch', async () => {
    reset();
    let write: ((s: string) => void) | undefined;
    let end: (() => void) | undefined;
    backends[0].handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.flushHeaders();
      write = (s) => res.write(s);
      end = () => res.end();
    };
    backends[1].handler = answer('b');
    const proxy = await startProxy({ healthCheckIntervalMs: 100 });
    try {
      // Round-robin starts at a.
      const chunks: string[] = [];
      const headersAt = await new Promise<{ status: number; done: Promise<void> }>((resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port: proxy.port, path: '/api/v1/configmaps?watch=1', ca: ca.certPem, agent: false },
          (res) => {
            res.setEncoding('utf8');
            res.on('data', (c: string) => chunks.push(c));
            resolve({ status: res.statusCode ?? 0, done: new Promise((r) => res.on('end', () => r())) });
          },
        );
        req.on('error', reject);
        req.end();
      });
      assert.equal(headersAt.status, 200);
      write?.('{"type":"ADDED"}\n');
      await eventually('the first event', async () => chunks.join('') === '{"type":"ADDED"}\n', 5000);

      backends[0].ready = false; // a drains: no new requests, its watch goes on
      await eventually('replica a out of rotation', async () => !proxy.pool.backends[0].ready, 5000);
      for (let i = 0; i < 3; i++) assert.equal(JSON.parse((await send(proxy, 'GET', '/api')).body).backend, 'b');
      write?.('{"type":"MODIFIED"}\n');
      end?.();
      await headersAt.done;
      assert.equal(chunks.join(''), '{"type":"ADDED"}\n{"type":"MODIFIED"}\n');
    } finally {
      await proxy.close();
    }
  });

  it('while draining, an answer closes its connection even when the replica says keep-alive', async () => {
    reset();
    let answer: (() => void) | undefined;
    for (const b of backends)
      b.handler = (_req, res) => {
        answer = () => res.writeHead(200, { 'Content-Type': 'application/json', Connection: 'keep-alive' }).end('{}');
      };
    const proxy = await startProxy();
    const keepAlive = new Agent({ keepAlive: true, ca: ca.certPem });
    try {
      const answered = new Promise<IncomingMessage['headers']>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: proxy.port, path: '/api', agent: keepAlive }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.headers));
        });
        req.on('error', reject);
        req.end();
      });
      await eventually('the request at the replica', async () => answer !== undefined, 5000);
      const closed = proxy.close();
      answer?.();
      assert.equal((await answered).connection, 'close');
      await closed;
    } finally {
      keepAlive.destroy();
    }
  });

  it('passes an upgrade (SPDY, as kubectl exec) through with the identity, byte for byte both ways', async () => {
    reset();
    const proxy = await startProxy();
    try {
      const echoed = await new Promise<string>((resolve, reject) => {
        const req = request({
          host: '127.0.0.1',
          port: proxy.port,
          method: 'POST',
          path: '/api/v1/namespaces/default/pods/p/exec?command=sh',
          ca: ca.certPem,
          cert: user.certPem,
          key: user.keyPem,
          agent: false,
          headers: { Connection: 'Upgrade', Upgrade: 'SPDY/3.1', 'X-Remote-User': 'mallory' },
        });
        req.on('upgrade', (res, socket) => {
          assert.equal(res.statusCode, 101);
          let got = '';
          socket.setEncoding('utf8');
          socket.on('data', (c: string) => {
            got += c;
            if (got.endsWith('ping')) {
              socket.destroy();
              resolve(got);
            }
          });
          socket.write('ping');
        });
        req.on('response', (res) => reject(new Error(`answered ${res.statusCode} without upgrading`)));
        req.on('error', reject);
        req.end();
      });
      assert.equal(echoed, 'jane:ping');
      const seen = backends.flatMap((b) => b.seen);
      assert.equal(seen.length, 1);
      assert.equal(seen[0].proxyCert, true);
      assert.deepEqual(seen[0].groups, ['dev', 'ops']);
    } finally {
      await proxy.close();
    }
  });
});
