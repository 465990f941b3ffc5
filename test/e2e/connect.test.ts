/**
 * End to end (issue 18): the CONNECT subresources through orch. A small HTTPS node-agent stand-in
 * (requiring the API server's client certificate) answers container logs — streamed, line by line —
 * exec over WebSocket (v5/v4.channel.k8s.io), SPDY upgrades (echoing bytes: the proxy joins connections, it
 * does not speak SPDY) and /healthz for nodes/proxy; a real HTTP backend sits behind a Service.
 * kubectl logs -f, kubectl exec (1.32: WebSocket) and kubectl get --raw .../services/Y:80/proxy/ go through orch; the caller's
 * credentials never reach a backend.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createHttpsServer, request as httpsRequest, type Server as HttpsServer } from 'node:https';
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server as HttpServer } from 'node:http';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { ensureCA, ensureServingCert, newClientCert } from '../../apiserver/component-base/certs/certs.js';
import { startTestServer, type TestServer } from '../support/api-server.js';
import { eventually } from '../support/eventually.js';
import { KUBECTL_1_32, newKubectl } from '../support/kubectl.js';
import { run } from '../support/processes.js';
import { createDefaultServiceAccount, createNamespace } from '../support/namespaces.js';

const NS = 'conn';
const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** A non-loopback IPv4 address of this machine: Endpoints may not point at loopback. */
function hostAddress(): string {
  const found = Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal);
  assert.ok(found, 'this machine has a non-loopback IPv4 address');
  return found.address;
}

/** One unmasked binary WebSocket frame (payloads here are short). */
function frame(channel: number, text: string): Buffer {
  const payload = Buffer.concat([Buffer.from([channel]), Buffer.from(text)]);
  return Buffer.concat([Buffer.from([0x82, payload.length]), payload]);
}

interface Seen {
  path: string;
  headers: IncomingHttpHeaders;
  clientCN?: string;
}

describe('CONNECT subresources through orch', () => {
  let dir: string;
  let agent: HttpsServer;
  let backend: HttpServer;
  /** A node agent that accepts connections and never says a word (its TLS handshake never completes). */
  let silent: TcpServer;
  const silentSockets: Socket[] = [];
  /** Upgraded connections the agent answered: a server's close() does not track them. */
  const agentSockets: Socket[] = [];
  let s: TestServer;
  let k: ReturnType<typeof newKubectl>;
  const seenByAgent: Seen[] = [];
  const seenByBackend: Seen[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orch-connect-'));
    const ca = ensureCA(join(dir, 'ca'));
    const serving = ensureServingCert(join(dir, 'agent'), ca, ['127.0.0.1', 'localhost']);
    const client = newClientCert(ca, { cn: 'orch-apiserver-kubelet-client' });
    writeFileSync(join(dir, 'client.crt'), client.certPem);
    writeFileSync(join(dir, 'client.key'), client.keyPem);

    agent = createHttpsServer(
      { cert: serving.certPem, key: serving.keyPem, ca: ca.certPem, requestCert: true, rejectUnauthorized: true },
      (req, res) => {
        const cn = String((req.socket as TLSSocket).getPeerCertificate().subject?.CN ?? '');
        seenByAgent.push({ path: req.url ?? '', headers: req.headers, clientCN: cn });
        if (req.url?.startsWith('/containerLogs/conn/web/app')) {
          res.writeHead(200, { 'Content-Type': 'text/plain' });
          res.write('line 1\n');
          setTimeout(() => res.end('line 2\n'), 400);
        } else if (req.url === '/healthz') res.end('ok');
        else {
          res.statusCode = 404;
          res.end('not found');
        }
      },
    );
    agent.on('upgrade', (req, socket: Socket) => {
      agentSockets.push(socket);
      seenByAgent.push({ path: req.url ?? '', headers: req.headers });
      if (String(req.headers.upgrade).toLowerCase() === 'spdy/3.1' && req.url?.includes('command=refuse')) {
        // A node agent that refuses the upgrade with a chunked body.
        socket.end('HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nno way\r\n0\r\n\r\n');
        return;
      }
      if (String(req.headers.upgrade).toLowerCase() === 'spdy/3.1') {
        // Not SPDY itself: the stand-in echoes the bytes, which is what the proxy must pass both ways.
        socket.write(
          'HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\n\r\n',
        );
        socket.once('data', (d: Buffer) => socket.end(`echo:${d}`));
        return;
      }
      // kubectl 1.32 offers only v5.channel.k8s.io; older WebSocket clients v4. The agent picks one and says which.
      const offered = String(req.headers['sec-websocket-protocol'] ?? '').split(/,\s*/);
      const chosen = ['v5.channel.k8s.io', 'v4.channel.k8s.io'].find((p) => offered.includes(p));
      if (!req.url?.startsWith('/exec/conn/web/app') || !chosen) {
        socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
        return;
      }
      const accept = createHash('sha1').update(`${req.headers['sec-websocket-key']}${WS_GUID}`).digest('base64');
      socket.write(
        `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\nSec-WebSocket-Protocol: ${chosen}\r\n\r\n`,
      );
      const command = new URL(req.url, 'https://x').searchParams.getAll('command').join(' ');
      socket.write(frame(1, `ran: ${command}\n`));
      socket.write(frame(3, JSON.stringify({ metadata: {}, status: 'Success' })));
      socket.end(Buffer.from([0x88, 0x02, 0x03, 0xe8]));
    });
    await new Promise<void>((r) => agent.listen(0, '127.0.0.1', r));

    backend = createHttpServer((req, res) => {
      seenByBackend.push({ path: req.url ?? '', headers: req.headers });
      res.end(`hello from backend ${req.url}`);
    });
    silent = createTcpServer((socket) => {
      silentSockets.push(socket);
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const backendIP = hostAddress();
    await new Promise<void>((r) => backend.listen(0, backendIP, r));

    s = await startTestServer({
      args: [
        `--kubelet-client-certificate=${join(dir, 'client.crt')}`,
        `--kubelet-client-key=${join(dir, 'client.key')}`,
        `--kubelet-certificate-authority=${ca.certFile}`,
        '--kubelet-timeout=1s',
      ],
    });
    k = newKubectl(s.kubeconfig);
    const c = s.client;
    await createNamespace(c, NS);
    await createDefaultServiceAccount(c, NS);
    const agentPort = (agent.address() as AddressInfo).port;
    const nodes: [string, string, number][] = [
      ['node-1', '127.0.0.1', agentPort],
      ['node-silent', '127.0.0.1', (silent.address() as AddressInfo).port],
    ];
    for (const [name, ip, port] of nodes) {
      const r = await c.post('/api/v1/nodes', {
        metadata: { name },
        status: { addresses: [{ type: 'InternalIP', address: ip }], daemonEndpoints: { kubeletEndpoint: { Port: port } } },
      });
      assert.equal(r.status, 201, r.text);
    }
    for (const [pod, node] of [
      ['web', 'node-1'],
      ['stuck', 'node-silent'],
    ]) {
      assert.equal(
        (
          await c.post(`/api/v1/namespaces/${NS}/pods`, {
            metadata: { name: pod },
            spec: { containers: [{ name: 'app', image: 'nginx' }] },
          })
        ).status,
        201,
      );
      assert.equal(
        (await c.post(`/api/v1/namespaces/${NS}/pods/${pod}/binding`, { metadata: { name: pod }, target: { name: node } })).status,
        201,
      );
    }
    const backendPort = (backend.address() as AddressInfo).port;
    assert.equal(
      (
        await c.post(`/api/v1/namespaces/${NS}/services`, {
          metadata: { name: 'y' },
          spec: { ports: [{ port: 80, targetPort: backendPort }] },
        })
      ).status,
      201,
    );
    const ep = await c.post(`/api/v1/namespaces/${NS}/endpoints`, {
      metadata: { name: 'y' },
      subsets: [{ addresses: [{ ip: backendIP }], ports: [{ port: backendPort }] }],
    });
    assert.equal(ep.status, 201, ep.text);
  });

  after(async () => {
    await s?.stop();
    for (const socket of agentSockets) socket.destroy();
    agent?.closeAllConnections();
    await new Promise((r) => agent?.close(r));
    await new Promise((r) => backend?.close(r));
    for (const socket of silentSockets) socket.destroy();
    await new Promise((r) => silent?.close(r));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('kubectl logs -f streams from the node agent, line by line, with the client certificate and no caller credentials', async () => {
    const out = await k.ok(['logs', '-f', '-n', NS, 'web']);
    assert.equal(out, 'line 1\nline 2\n');
    const seen = seenByAgent.find((x) => x.path.startsWith('/containerLogs/conn/web/app'));
    assert.ok(seen, 'the node agent was asked');
    assert.match(seen.path, /follow=true/);
    assert.equal(seen.clientCN, 'orch-apiserver-kubelet-client');
    assert.equal(seen.headers.authorization, undefined);

    // follow=true is not buffered: the first line arrives well before the stream ends.
    const url = new URL(`${s.url}/api/v1/namespaces/${NS}/pods/web/log?follow=true`);
    const times = await new Promise<{ first: number; end: number; body: string }>((resolve, reject) => {
      const started = Date.now();
      const req = httpsRequest(url, { ca: s.ca, headers: { Authorization: `Bearer ${s.token}` } }, (res) => {
        let first = 0;
        let body = '';
        res.on('data', (chunk) => {
          if (!first) first = Date.now() - started;
          body += chunk;
        });
        res.on('end', () => resolve({ first, end: Date.now() - started, body }));
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(times.body, 'line 1\nline 2\n');
    assert.ok(times.end - times.first >= 300, `first chunk at ${times.first}ms, end at ${times.end}ms`);
  });

  /** An upgrade request through orch: the status, and the bytes the other side sends back after `send`. */
  function upgradeThroughOrch(
    path: string,
    headers: Record<string, string>,
    send = '',
    onUpgrade?: () => void,
  ): Promise<{ status: number; received: string; headers: IncomingHttpHeaders }> {
    return new Promise((resolve, reject) => {
      const req = httpsRequest(new URL(`${s.url}${path}`), {
        method: headers.Upgrade === 'websocket' ? 'GET' : 'POST',
        ca: s.ca,
        headers: { Authorization: `Bearer ${s.token}`, Connection: 'Upgrade', ...headers },
      });
      req.on('upgrade', (res, socket) => {
        let received = '';
        socket.on('data', (d: Buffer) => {
          received += d.toString('latin1');
        });
        socket.on('close', () => resolve({ status: res.statusCode ?? 0, received, headers: res.headers }));
        if (send) socket.write(send);
        onUpgrade?.();
      });
      req.on('response', (res) => {
        let received = '';
        res.on('data', (d: Buffer) => {
          received += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, received, headers: res.headers }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('exec: a WebSocket upgrade (v4.channel.k8s.io) is proxied to the node agent', async () => {
    const r = await upgradeThroughOrch(`/api/v1/namespaces/${NS}/pods/web/exec?command=echo&command=hi&stdout=true&stderr=true`, {
      Upgrade: 'websocket',
      'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
      'Sec-WebSocket-Version': '13',
      'Sec-WebSocket-Protocol': 'v4.channel.k8s.io',
    });
    assert.equal(r.status, 101);
    assert.equal(r.headers['sec-websocket-protocol'], 'v4.channel.k8s.io');
    assert.ok(r.received.includes('\x01ran: echo hi\n'), JSON.stringify(r.received));
    assert.ok(r.received.includes('{"metadata":{},"status":"Success"}'));
    const seen = seenByAgent.find((x) => x.path.startsWith('/exec/'));
    assert.ok(seen);
    assert.equal(seen.path, '/exec/conn/web/app?command=echo&command=hi&output=1&error=1');
    assert.equal(seen.headers.authorization, undefined);
  });

  it('kubectl exec (1.32, WebSocket v5.channel.k8s.io) runs the command on the node agent through orch', async () => {
    const r = await run(KUBECTL_1_32, ['--kubeconfig', s.kubeconfig, 'exec', '-n', NS, 'web', '-c', 'app', '--', 'echo', 'hi'], {
      env: k.env,
      timeoutMs: 30_000,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'ran: echo hi\n');
    const execs = seenByAgent.filter(
      (x) => x.path.startsWith('/exec/') && x.headers['sec-websocket-protocol']?.includes('v5.channel.k8s.io'),
    );
    assert.equal(execs.length, 1, JSON.stringify(execs.map((x) => x.path)));
    assert.equal(execs[0].path, '/exec/conn/web/app?command=echo&command=hi&output=1&error=1');
    assert.equal(execs[0].headers.authorization, undefined, "the caller's token never reaches the node agent");
    // The node agent ended the stream and kubectl closed its side: orch closed both connections and the
    // exec request is over (HTTP servers keep sockets half-open; a proxy must not leave them so).
    await eventually('the exec request is no longer in flight', async () => {
      const metrics = (await s.client.get('/metrics')).text;
      return /^apiserver_longrunning_requests\{[^}]*subresource="exec"[^}]*\} 0$/m.test(metrics);
    });
  });

  it('exec and port-forward: an SPDY/3.1 upgrade (what kubectl 1.28 speaks) is joined byte for byte', async () => {
    const r = await upgradeThroughOrch(
      `/api/v1/namespaces/${NS}/pods/web/exec?command=sh&stdin=true&stdout=true`,
      { Upgrade: 'SPDY/3.1', 'X-Stream-Protocol-Version': 'v4.channel.k8s.io' },
      'ping',
    );
    assert.equal(r.status, 101);
    assert.equal(r.headers['x-stream-protocol-version'], 'v4.channel.k8s.io');
    assert.equal(r.received, 'echo:ping');
    const pf = await upgradeThroughOrch(`/api/v1/namespaces/${NS}/pods/web/portforward?ports=8080`, { Upgrade: 'SPDY/3.1' }, 'x');
    assert.equal(pf.status, 101);
    assert.equal(pf.received, 'echo:x');
    assert.ok(seenByAgent.some((x) => x.path === '/portForward/conn/web?ports=8080' && x.headers.authorization === undefined));
  });

  it('an SPDY upgrade the node agent refuses with a chunked body reaches the client whole, without its Transfer-Encoding', async () => {
    const r = await upgradeThroughOrch(`/api/v1/namespaces/${NS}/pods/web/exec?command=refuse&stdout=true`, {
      Upgrade: 'SPDY/3.1',
      'X-Stream-Protocol-Version': 'v4.channel.k8s.io',
    });
    assert.equal(r.status, 403);
    assert.equal(r.received, 'no way');
    assert.equal(r.headers['transfer-encoding'], undefined);
    assert.equal(r.headers['content-type'], 'text/plain');
    assert.equal(r.headers.connection, 'close');
  });

  it('kubectl get --raw reaches the backend behind a Service, and a node through nodes/proxy', async () => {
    const out = await k.ok(['get', '--raw', `/api/v1/namespaces/${NS}/services/y:80/proxy/`]);
    assert.equal(out, 'hello from backend /');
    const deeper = await s.client.get(`/api/v1/namespaces/${NS}/services/y:80/proxy/a/b?x=1`);
    assert.equal(deeper.status, 200, deeper.text);
    assert.equal(deeper.text, 'hello from backend /a/b?x=1');
    for (const seen of seenByBackend) {
      assert.equal(seen.headers.authorization, undefined, 'no caller credentials reach the backend');
    }
    assert.equal(await k.ok(['get', '--raw', '/api/v1/nodes/node-1/proxy/healthz']), 'ok');
    const noEndpoints = await s.client.post(`/api/v1/namespaces/${NS}/services`, {
      metadata: { name: 'empty' },
      spec: { ports: [{ port: 80 }] },
    });
    assert.equal(noEndpoints.status, 201);
    const r = await s.client.get(`/api/v1/namespaces/${NS}/services/empty:80/proxy/`);
    assert.equal(r.status, 503, r.text);
    assert.equal(r.body.message, 'no endpoints available for service "empty"');
  });

  it('a node agent that never answers is a 503 Status after the dial timeout (--kubelet-timeout=1s), never a hang', async () => {
    const timed = async <T>(f: () => Promise<T>): Promise<[T, number]> => {
      const started = Date.now();
      const r = await f();
      return [r, Date.now() - started];
    };
    const [plain, plainMs] = await timed(() => s.client.get('/api/v1/nodes/node-silent/proxy/healthz'));
    assert.equal(plain.status, 503, plain.text);
    assert.equal(plain.body.kind, 'Status');
    assert.match(plain.body.message, /^error trying to reach service: dial tcp 127\.0\.0\.1:\d+: i\/o timeout$/);
    assert.ok(plainMs >= 900 && plainMs < 5000, `answered after ${plainMs}ms`);
    const upgrades: Record<string, string>[] = [
      { Upgrade: 'SPDY/3.1', 'X-Stream-Protocol-Version': 'v4.channel.k8s.io' },
      { Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==' },
    ];
    for (const headers of upgrades) {
      const [r, ms] = await timed(() => upgradeThroughOrch(`/api/v1/namespaces/${NS}/pods/stuck/exec?command=sh&stdout=true`, headers));
      assert.equal(r.status, 503, `${headers.Upgrade}: ${r.received}`);
      assert.match(JSON.parse(r.received).message, /i\/o timeout/);
      assert.ok(ms >= 900 && ms < 5000, `${headers.Upgrade} answered after ${ms}ms`);
    }
  });

  it('a missing pod is 404; discovery lists the CONNECT subresources as Kubernetes does', async () => {
    const missing = await s.client.get(`/api/v1/namespaces/${NS}/pods/nope/log`);
    assert.equal(missing.status, 404);
    const discovery = (await s.client.get('/api/v1')).body.resources as { name: string; kind: string; verbs: string[] }[];
    const byName = (n: string) => discovery.find((x) => x.name === n);
    assert.deepEqual(byName('pods/exec'), {
      name: 'pods/exec',
      singularName: '',
      namespaced: true,
      kind: 'PodExecOptions',
      verbs: ['create', 'get'],
    });
    assert.deepEqual(byName('pods/log'), { name: 'pods/log', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get'] });
    assert.deepEqual(byName('services/proxy')?.verbs, ['create', 'delete', 'get', 'patch', 'update']);
  });

  // Last: it shuts the server down.
  it('shutdown does not wait for an exec stream that stays open: it closes it, as kube-apiserver does', async () => {
    // The stand-in answers an SPDY upgrade and then waits for bytes that never come.
    let upgraded!: () => void;
    const open = new Promise<void>((r) => {
      upgraded = r;
    });
    const held = upgradeThroughOrch(
      `/api/v1/namespaces/${NS}/pods/web/exec?command=sh&stdin=true&stdout=true`,
      { Upgrade: 'SPDY/3.1', 'X-Stream-Protocol-Version': 'v4.channel.k8s.io' },
      '',
      upgraded,
    );
    // The client has its 101 (the metric counts the request from when it arrives, before the node agent answers).
    await Promise.race([open, held]);
    await eventually('the exec stream is open', async () =>
      /^apiserver_longrunning_requests\{[^}]*subresource="exec"[^}]*\} 1$/m.test((await s.client.get('/metrics')).text),
    );
    const started = Date.now();
    await s.shutdown();
    const tookMs = Date.now() - started;
    assert.ok(tookMs < 15_000, `shutdown took ${tookMs}ms (the request timeout is 60s)`);
    const r = await held;
    assert.equal(r.status, 101, 'the stream was open, and closed by the shutdown');
  });
});
