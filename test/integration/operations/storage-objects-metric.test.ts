/**
 * apiserver_storage_objects stays exact while its counts come from the watch cache and from counts
 * kept between changes (server/storage-metrics.ts): after creates and deletes, scraped again and
 * again, for a resource with a loaded watch cache (ConfigMaps, watched) and ones nobody reads
 * (PodTemplates, ResourceQuotas); and on a replica whose store another replica writes (one etcd).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { startEtcd, type EtcdProcess } from '../../support/etcd.js';
import type { TestClient } from '../../support/http-client.js';

const KINDS = [
  { resource: 'configmaps', path: '/api/v1/namespaces/default/configmaps', body: {} },
  {
    resource: 'podtemplates',
    path: '/api/v1/namespaces/default/podtemplates',
    body: { template: { spec: { containers: [{ name: 'c', image: 'i' }] } } },
  },
  { resource: 'resourcequotas', path: '/api/v1/namespaces/default/resourcequotas', body: { spec: { hard: { pods: '10' } } } },
];

async function storedObjects(c: TestClient, resource: string): Promise<number> {
  const text = (await c.get('/metrics')).text;
  const m = new RegExp(`^apiserver_storage_objects\\{resource="${resource}"\\} (\\d+)$`, 'm').exec(text);
  return m ? Number(m[1]) : 0;
}

/**
 * What the API lists across all namespaces: the truth the metric must report. Read at the end only:
 * a list loads the resource's watch cache, and the counts of resources without one are under test.
 */
async function listed(c: TestClient, path: string): Promise<number> {
  const r = await c.get(path.replace(/\/namespaces\/default/, ''));
  assert.equal(r.status, 200, r.text);
  return r.body.items.length;
}

/** Each kind's count as first scraped (nothing kept yet: counted in the store). */
async function baseline(c: TestClient): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const kind of KINDS) counts.set(kind.resource, await storedObjects(c, kind.resource));
  return counts;
}

/** Creates `n` objects named `<prefix>-<i>` through `writer`. */
async function create(writer: TestClient, kind: (typeof KINDS)[number], prefix: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const r = await writer.post(kind.path, { metadata: { name: `${prefix}-${i}` }, ...kind.body });
    assert.equal(r.status, 201, r.text);
  }
}

async function remove(writer: TestClient, kind: (typeof KINDS)[number], prefix: string, indexes: number[]): Promise<void> {
  for (const i of indexes) assert.equal((await writer.delete(`${kind.path}/${prefix}-${i}`)).status, 200);
}

/** Scrapes twice (the second may answer from counts kept by the first). */
async function assertCounts(reader: TestClient, expected: Map<string, number>): Promise<void> {
  for (let scrape = 0; scrape < 2; scrape++)
    for (const kind of KINDS)
      assert.equal(await storedObjects(reader, kind.resource), expected.get(kind.resource), `${kind.resource}, scrape ${scrape + 1}`);
}

/** At the end: the counts are what the API lists. */
async function assertListed(reader: TestClient, expected: Map<string, number>): Promise<void> {
  for (const kind of KINDS) assert.equal(await listed(reader, kind.path), expected.get(kind.resource), `${kind.resource} listed`);
  await assertCounts(reader, expected);
}

describe('apiserver_storage_objects after creates and deletes', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(async () => {
    await s?.stop();
  });

  it('is exact on one server, scrape after scrape', async () => {
    // A watch loads the ConfigMaps' cache; nothing reads the other two.
    const w = await s.client.watch('/api/v1/configmaps?watch=true');
    try {
      const expected = await baseline(s.client);
      await assertCounts(s.client, expected);
      for (const kind of KINDS) {
        await create(s.client, kind, 'm', 5);
        expected.set(kind.resource, expected.get(kind.resource)! + 5);
      }
      await assertCounts(s.client, expected);
      for (const kind of KINDS) {
        await remove(s.client, kind, 'm', [0, 2, 4]);
        expected.set(kind.resource, expected.get(kind.resource)! - 3);
      }
      await assertCounts(s.client, expected);
      await assertListed(s.client, expected);
    } finally {
      w.close();
    }
  });
});

describe('apiserver_storage_objects on a replica another one writes', () => {
  const prefix = `/registry-${randomBytes(4).toString('hex')}`;
  let etcd: EtcdProcess;
  let reader: TestServer;
  let writer: TestServer;
  before(async () => {
    etcd = await startEtcd();
    reader = await startTestServer({ etcd: etcd.endpoint, etcdPrefix: prefix });
    writer = await startTestServer({ etcd: etcd.endpoint, etcdPrefix: prefix });
  });
  after(async () => {
    await writer?.stop();
    await reader?.stop();
    await etcd?.stop();
  });

  it('counts the other replica’s creates and deletes', async () => {
    const expected = await baseline(reader.client);
    await assertCounts(reader.client, expected);
    for (const kind of KINDS) {
      await create(writer.client, kind, 'w', 4);
      expected.set(kind.resource, expected.get(kind.resource)! + 4);
    }
    await assertCounts(reader.client, expected);
    for (const kind of KINDS) {
      await remove(writer.client, kind, 'w', [1, 3]);
      expected.set(kind.resource, expected.get(kind.resource)! - 2);
    }
    await assertCounts(reader.client, expected);
    await assertListed(reader.client, expected);
  });
});
