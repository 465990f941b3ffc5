/**
 * Watch clients that do not read: what the server holds for each stays bounded, and one that falls
 * too far behind is closed (it would resume from its last resourceVersion, or re-list), served from
 * the watch cache or, with --watch-cache=false, from the store. A client that reads gets everything.
 */
import { describe, it, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { connect, type TLSSocket } from 'node:tls';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { eventually } from '../../support/eventually.js';

const CM = '/api/v1/namespaces/default/configmaps';

/** A watch over raw TLS whose client never reads a byte (until asked to). */
function unreadWatch(s: TestServer, path: string): TLSSocket {
  const socket = connect({ host: '127.0.0.1', port: s.port, ca: s.ca, servername: 'localhost', rejectUnauthorized: false });
  socket.on('error', () => {});
  socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${s.token}\r\nAccept: application/json\r\n\r\n`);
  socket.pause();
  return socket;
}

/** The resident memory of the server process (the child of this process), in MB. */
function serverRss(): number {
  const children = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1].split(' ')[1] === String(process.pid);
      } catch {
        return false;
      }
    });
  assert.equal(children.length, 1, 'one server process');
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${children[0]}/status`, 'utf8'))![1]) / 1024;
}

async function metric(s: TestServer, line: RegExp): Promise<number> {
  const text = (await s.client.get('/metrics')).text;
  const m = text.split('\n').find((l) => line.test(l));
  return m ? Number(m.split(' ').at(-1)) : 0;
}

const configMap = (name: string, bytes: number, v = 0) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { v: `${v}`.padEnd(bytes, 'x') },
});

describe('a 1 MB ConfigMap sent to 100 watches that do not read', () => {
  let s: TestServer;
  const sockets: TLSSocket[] = [];
  before(async () => {
    s = await startTestServer({ process: true, args: ['--workers=1'] });
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    await s?.stop();
  });

  it('costs each watch a bounded slice, not a copy of the event', async () => {
    assert.equal((await s.client.post(CM, configMap('big', 1_000_000))).status, 201);
    // Once, so the cache and the event's encoding exist before the baseline.
    const w = await s.client.watch(`${CM}?watch=1&resourceVersion=0`);
    await w.next(10_000);
    w.close();
    const before = serverRss();
    for (let i = 0; i < 100; i++) sockets.push(unreadWatch(s, `${CM}?watch=1&resourceVersion=0`));
    await eventually(
      'the watches are served',
      async () => (await metric(s, /^apiserver_longrunning_requests\{verb="WATCH".*configmaps/)) >= 100,
    );
    await new Promise((r) => setTimeout(r, 500));
    const grown = serverRss() - before;
    // Each encrypted 1 MB event of its own was ≈100 MB here; 64 KiB slices and connections are ≈10-20 MB.
    assert.ok(grown < 60, `the server grew by ${grown.toFixed(0)} MB`);
  });
});

for (const cached of [true, false]) {
  describe(`watches that do not read, ${cached ? 'from the watch cache' : 'with --watch-cache=false'}`, () => {
    let s: TestServer;
    const sockets: TLSSocket[] = [];
    before(async () => {
      s = await startTestServer({ process: true, args: ['--workers=1', ...(cached ? [] : ['--watch-cache=false'])] });
    });
    after(async () => {
      for (const socket of sockets) socket.destroy();
      await s?.stop();
    });

    it('are closed once far behind, between whole events, while a reading watch gets every event', async () => {
      const created = await s.client.post(CM, configMap('changing', 200_000));
      const rv = created.body.metadata.resourceVersion;
      const reader = await s.client.watch(`${CM}?watch=1&resourceVersion=${rv}`);
      for (let i = 0; i < 5; i++) sockets.push(unreadWatch(s, `${CM}?watch=1&resourceVersion=${rv}`));
      await eventually(
        'the watches are served',
        async () => (await metric(s, /^apiserver_longrunning_requests\{verb="WATCH".*configmaps/)) >= 6,
      );
      // Updates of 200 kB until they are closed: tens of MB each slow client does not read, past what
      // the kernel buffers (its buffers grow to several MB) and the bounds (16 MiB cached, 4 MiB not).
      const terminated = () => metric(s, /^apiserver_terminated_watchers_total\{resource="configmaps"\}/);
      let received = 0;
      let updates = 0;
      while ((await terminated()) < 5) {
        assert.ok(updates < 1000, `${await terminated()} of 5 closed after ${updates} updates`);
        for (let i = 0; i < 20; i++) {
          const r = await s.client.put(`${CM}/changing`, configMap('changing', 200_000, ++updates));
          assert.equal(r.status, 200);
          // A reading client: it takes what came before the next write (a few ms for 200 kB over TLS;
          // more on a loaded machine, so the writer waits for it rather than for a fixed time).
          const deadline = Date.now() + 10_000;
          while (received < updates && Date.now() < deadline) received += (await reader.drain(10)).length;
          assert.equal(received, updates, `the reader got ${received} events of ${updates} within 10 s of the write`);
        }
      }
      assert.equal(await terminated(), 5);
      while (received < updates)
        received += (await reader.drain(200)).length || assert.fail(`the reader got ${received} events of ${updates}`);
      assert.equal(received, updates);
      reader.close();
      // What a closed client reads is whole events up to where it stopped, then the end of the response
      // (or of the connection, when the close cut an event).
      const socket = sockets[0];
      const chunks: Buffer[] = [];
      await new Promise<void>((resolve) => {
        socket.on('data', (d: Buffer) => {
          chunks.push(d);
          if (d.toString('latin1').endsWith('\r\n0\r\n\r\n')) resolve();
        });
        socket.once('close', resolve);
        socket.resume();
      });
      const body = Buffer.concat(chunks).toString();
      const lines = body
        .slice(body.indexOf('\r\n\r\n') + 4)
        .replace(/\r\n[0-9a-f]+\r\n/g, '')
        .split('\n')
        .filter((l) => l.startsWith('{'));
      assert.ok(lines.length > 0 && lines.length < updates, `${lines.length} events of ${updates} before the close`);
      const complete = lines.filter((l) => {
        try {
          return JSON.parse(l).type === 'MODIFIED';
        } catch {
          return false;
        }
      });
      assert.ok(complete.length >= lines.length - 1, 'at most the last event is cut (the connection was closed in it)');
    });
  });
}
