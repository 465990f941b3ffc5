/**
 * Two API servers on one etcd, each with its own watch cache fed by that etcd: what is written
 * through one is read and watched through the other at once.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { createNamespace } from '../../support/namespaces.js';
import { useEtcd } from '../../support/etcd.js';

const CM = (name = '') => `/api/v1/namespaces/replicated/configmaps${name ? `/${name}` : ''}`;

describe('watch caches of two replicas', () => {
  const etcd = useEtcd();
  let a: TestServer;
  let b: TestServer;

  before(async () => {
    const etcdPrefix = `/registry-${randomBytes(4).toString('hex')}`;
    a = await startTestServer({ etcd: etcd(), etcdPrefix });
    b = await startTestServer({ etcd: etcd(), etcdPrefix });
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
  });

  it('reads on one replica see what the other just wrote', async () => {
    await createNamespace(a.client, 'replicated');
    assert.equal((await b.client.get('/api/v1/namespaces/replicated')).status, 200);
    assert.equal((await b.client.get(CM())).body.items.length, 0); // the list builds b's cache
    for (let i = 0; i < 10; i++) {
      const created = await a.client.post(CM(), {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `c${i}` },
        data: { i: String(i) },
      });
      assert.equal(created.status, 201, created.text);
      const got = await b.client.get(CM(`c${i}`));
      assert.equal(got.status, 200);
      assert.deepEqual(got.body, created.body);
      const list = await b.client.get(CM());
      assert.equal(list.body.items.length, i + 1);
    }
  });

  it('watches on one replica follow writes on the other, also resumed from a resourceVersion', async () => {
    const rv = (await b.client.get(CM())).body.metadata.resourceVersion;
    const live = await b.client.watch(`${CM()}?watch=1`);
    assert.equal(live.status, 200);
    for (let i = 0; i < 10; i++) assert.equal((await live.next()).type, 'ADDED');
    const patched = await a.client.patch(CM('c3'), { data: { changed: 'yes' } }, 'application/merge-patch+json');
    const deleted = await a.client.delete(CM('c4'));
    assert.equal(deleted.status, 200);
    const mod = await live.next();
    assert.equal(mod.type, 'MODIFIED');
    assert.deepEqual(mod.object, patched.body);
    const del = await live.next();
    assert.equal(del.type, 'DELETED');
    assert.equal(del.object.metadata.name, 'c4');
    live.close();
    const resumed = await b.client.watch(`${CM()}?watch=1&resourceVersion=${rv}`);
    assert.deepEqual([(await resumed.next()).type, (await resumed.next()).type], ['MODIFIED', 'DELETED']);
    assert.deepEqual(await resumed.drain(), []);
    resumed.close();
  });
});
