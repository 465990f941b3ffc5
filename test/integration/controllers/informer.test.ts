/**
 * Informers against a real orch-apiserver, reached through a TCP proxy the test can cut: paged lists,
 * the watch that follows, and a partition during which the informer's resourceVersion is compacted
 * away (etcd compaction; or, with the watch cache, pushed out of its window) — the re-watch gets a
 * 410, the informer relists and delivers exactly the difference.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { useEtcd } from '../../support/etcd.js';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { createNamespace } from '../../support/namespaces.js';
import { newEtcdStorage } from '../../../apiserver/storage/etcd3/index.js';
import { newLogger } from '../../../apiserver/component-base/logs/logger.js';
import { ApiClient } from '../../../controllers/client/api-client.js';
import { Informer } from '../../../controllers/informers/informer.js';
import { objectKey } from '../../../controllers/informers/indexer.js';

/** A TCP proxy to `port` that can drop every connection and refuse new ones for a while. */
async function startProxy(port: number): Promise<{ port: number; cut(): void; restore(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let down = false;
  const server: Server = createServer((client) => {
    if (down) return client.destroy();
    const upstream = connect(port, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as { port: number }).port,
    cut() {
      down = true;
      for (const s of sockets) s.destroy();
    },
    restore() {
      down = false;
    },
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

async function until(what: string, cond: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Registers the scenario against a server made by `start`, with `compact` run during the partition. */
function scenario(start: () => Promise<TestServer>, compact: (srv: TestServer) => Promise<void>, changesDuringPartition: number) {
  let srv: TestServer;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let client: ApiClient;

  before(async () => {
    srv = await start();
    proxy = await startProxy(srv.port);
    client = new ApiClient({
      server: `https://127.0.0.1:${proxy.port}`,
      cluster: { server: '', caPem: srv.ca, insecureSkipTlsVerify: false, disableCompression: false },
      token: srv.token,
      namespace: 'default',
    });
  });
  after(async () => {
    client?.close();
    await proxy?.close();
    await srv?.stop();
  });

  it('lists in pages, then follows the watch', async () => {
    await createNamespace(srv.client, 'paged');
    for (let i = 0; i < 5; i++) await srv.client.post('/api/v1/namespaces/paged/configmaps', { metadata: { name: `cm-${i}` } });
    const informer = new Informer(client.resource({ group: '', version: 'v1', resource: 'configmaps' }), { pageSize: 2 });
    const log: string[] = [];
    informer.addEventHandler({
      onAdd: (o) => log.push(`add ${objectKey(o)}`),
      onUpdate: (_o, n) => log.push(`update ${objectKey(n)}`),
      onDelete: (o) => log.push(`delete ${objectKey(o)}`),
    });
    informer.run();
    try {
      assert.equal(await informer.waitForSync(), true);
      assert.deepEqual(
        informer.indexer.byIndex('namespace', 'paged').map(objectKey).sort(),
        [0, 1, 2, 3, 4].map((i) => `paged/cm-${i}`),
      );
      log.length = 0;
      await srv.client.post('/api/v1/namespaces/paged/configmaps', { metadata: { name: 'new' } });
      await srv.client.patch('/api/v1/namespaces/paged/configmaps/cm-0', { data: { a: 'b' } }, 'application/merge-patch+json');
      await srv.client.delete('/api/v1/namespaces/paged/configmaps/cm-1');
      await until('three events', () => log.length >= 3);
      assert.deepEqual(log, ['add paged/new', 'update paged/cm-0', 'delete paged/cm-1']);
    } finally {
      await informer.stop();
    }
  });

  it('survives losing its resourceVersion (410) without losing an event', async () => {
    await createNamespace(srv.client, 'gap');
    for (const name of ['kept', 'changed', 'gone']) await srv.client.post('/api/v1/namespaces/gap/configmaps', { metadata: { name } });
    const informer = new Informer(client.resource({ group: '', version: 'v1', resource: 'configmaps' }), {
      backoff: { initialMs: 50, maxMs: 200 },
    });
    const log: string[] = [];
    const inGap = (o: { metadata: { namespace?: string } }) => o.metadata.namespace === 'gap';
    informer.addEventHandler({
      onAdd: (o) => inGap(o) && log.push(`add ${o.metadata.name}`),
      onUpdate: (_o, n) => inGap(n) && log.push(`update ${n.metadata.name}`),
      onDelete: (o) => inGap(o) && log.push(`delete ${o.metadata.name}`),
    });
    informer.run();
    try {
      await informer.waitForSync();
      const before = informer.lastSyncResourceVersion;
      log.length = 0;

      proxy.cut();
      const cms = '/api/v1/namespaces/gap/configmaps';
      assert.equal((await srv.client.post(cms, { metadata: { name: 'added' } })).status, 201);
      assert.equal((await srv.client.patch(`${cms}/changed`, { data: { v: '1' } }, 'application/merge-patch+json')).status, 200);
      assert.equal((await srv.client.delete(`${cms}/gone`)).status, 200);
      for (let i = 0; i < changesDuringPartition; i++) {
        await srv.client.post(cms, { metadata: { name: 'transient' } });
        await srv.client.delete(`${cms}/transient`);
      }
      await compact(srv);
      proxy.restore();

      await until('the relist', () => log.length >= 3);
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(log.sort(), ['add added', 'delete gone', 'update changed'], 'the difference, and nothing that came and went');
      const server = (await srv.client.get(cms)).body;
      assert.deepEqual(
        informer.indexer
          .byIndex('namespace', 'gap')
          .map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`)
          .sort(),
        server.items
          .map((o: { metadata: { name: string; resourceVersion: string } }) => `${o.metadata.name}@${o.metadata.resourceVersion}`)
          .sort(),
      );
      assert.ok(Number(informer.lastSyncResourceVersion) > Number(before));
      // And it watches again afterwards.
      await srv.client.post(cms, { metadata: { name: 'after' } });
      await until('a watch event after the relist', () => log.includes('add after'));
    } finally {
      await informer.stop();
    }
  });
}

describe('informer on etcd without the watch cache: etcd compaction', () => {
  const etcd = useEtcd();
  scenario(
    () => startTestServer({ etcd: etcd(), args: ['--watch-cache=false'] }),
    async () => {
      const storage = newEtcdStorage({ endpoints: [etcd()], logger: newLogger({ logLevel: 'error' }) });
      try {
        await storage.compact(await storage.currentRevision());
      } finally {
        await storage.close();
      }
    },
    1,
  );
});

describe('informer on the embedded store with a small watch cache: changes beyond its window', () => {
  scenario(
    () => startTestServer({ args: ['--default-watch-cache-size=5'] }),
    async () => {},
    10,
  );
});
