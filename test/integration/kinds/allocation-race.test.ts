/**
 * Two API servers on one etcd with the same --etcd-prefix, creating and deleting Services at the
 * same time: the shared, compare-and-swap-updated ranges never hand out a cluster IP or node port
 * twice, and the stored allocation state matches the Services that exist.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startEtcd, type EtcdProcess } from '../../support/etcd.js';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { createNamespace } from '../../support/namespaces.js';
import { newEtcdStorage } from '../../../apiserver/storage/etcd3/index.js';
import type { Storage } from '../../../apiserver/storage/interfaces.js';
import { Bitmap } from '../../../apiserver/registry/core/service/allocator/bitmap.js';

const PREFIX = '/race';
const SVCS = '/api/v1/namespaces/race/services';
const PER_SERVER = 40;

/** How many offsets the stored state of a range marks as used. */
async function usedInStore(storage: Storage, key: string, size: number): Promise<number> {
  const kv = await storage.get(key);
  assert.ok(kv, `${key} is stored`);
  const bitmap = Bitmap.decode(size, JSON.parse(kv.value.toString()).data);
  return Array.from({ length: size }, (_, i) => i).filter((i) => bitmap.has(i)).length;
}

describe('allocation shared by two API servers on one etcd', () => {
  let etcd: EtcdProcess;
  let a: TestServer;
  let b: TestServer;
  let storage: Storage;

  before(async () => {
    etcd = await startEtcd();
    const options = { etcd: etcd.endpoint, etcdPrefix: PREFIX };
    [a, b] = await Promise.all([startTestServer(options), startTestServer(options)]);
    storage = newEtcdStorage({ endpoints: [etcd.endpoint] });
    await createNamespace(a.client, 'race');
  });
  after(async () => {
    await storage?.close();
    await Promise.all([a?.stop(), b?.stop()]);
    await etcd?.stop();
  });

  async function services(): Promise<any[]> {
    const r = await b.client.get('/api/v1/services');
    assert.equal(r.status, 200, r.text);
    return r.body.items;
  }

  function assertDistinct(items: any[]): void {
    const ips = items.map((s) => s.spec.clusterIP);
    const ports = items.flatMap((s) => (s.spec.ports ?? []).map((p: { nodePort?: number }) => p.nodePort).filter(Boolean));
    assert.equal(new Set(ips).size, ips.length, 'cluster IPs are distinct');
    assert.equal(new Set(ports).size, ports.length, 'node ports are distinct');
  }

  it('both servers agree on one default Service at 10.0.0.1', async () => {
    const [fromA, fromB] = await Promise.all([
      a.client.get('/api/v1/namespaces/default/services/orch'),
      b.client.get('/api/v1/namespaces/default/services/orch'),
    ]);
    assert.equal(fromA.status, 200, fromA.text);
    assert.equal(fromA.body.spec.clusterIP, '10.0.0.1');
    assert.equal(fromB.body.metadata.uid, fromA.body.metadata.uid);
  });

  it('concurrent creates on both servers get distinct cluster IPs and node ports', async () => {
    const create = (server: TestServer, name: string) =>
      server.client.post(SVCS, {
        metadata: { name },
        spec: {
          type: 'NodePort',
          ports: [
            { name: 'a', port: 80 },
            { name: 'b', port: 81 },
          ],
        },
      });
    const results = await Promise.all(Array.from({ length: PER_SERVER }, (_, i) => [create(a, `a-${i}`), create(b, `b-${i}`)]).flat());
    for (const r of results) assert.equal(r.status, 201, r.text);
    const items = await services();
    assert.equal(items.length, 2 * PER_SERVER + 1);
    assertDistinct(items);
    assert.equal(await usedInStore(storage, `${PREFIX}/ranges/serviceips`, 254), 2 * PER_SERVER + 1);
    assert.equal(await usedInStore(storage, `${PREFIX}/ranges/servicenodeports`, 2768), 4 * PER_SERVER);
  });

  it('concurrent deletes and creates keep the ranges consistent', async () => {
    const deletes = Array.from({ length: PER_SERVER / 2 }, (_, i) => [
      a.client.delete(`${SVCS}/b-${i}`),
      b.client.delete(`${SVCS}/a-${i}`),
    ]).flat();
    const creates = Array.from({ length: PER_SERVER / 2 }, (_, i) => [
      a.client.post(SVCS, { metadata: { name: `c-${i}` }, spec: { type: 'NodePort', ports: [{ port: 80 }] } }),
      b.client.post(SVCS, { metadata: { name: `d-${i}` }, spec: { ports: [{ port: 80 }] } }),
    ]).flat();
    for (const r of await Promise.all([...deletes, ...creates])) assert.ok(r.status === 200 || r.status === 201, r.text);
    const items = await services();
    assert.equal(items.length, 2 * PER_SERVER + 1);
    assertDistinct(items);
    assert.equal(await usedInStore(storage, `${PREFIX}/ranges/serviceips`, 254), items.length);
    const nodePorts = items.flatMap((s) => (s.spec.ports ?? []).filter((p: { nodePort?: number }) => p.nodePort)).length;
    assert.equal(await usedInStore(storage, `${PREFIX}/ranges/servicenodeports`, 2768), nodePorts);
  });
});
