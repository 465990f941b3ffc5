/**
 * Requests as clients other than kubectl write them (the official Python client, webhooks, node
 * agents), answered as kube-apiserver answers them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestServer, type TestServer } from '../../support/api-server.js';

describe('unmodified clients', () => {
  let s: TestServer;

  before(async () => {
    s = await startTestServer();
  });
  after(() => s.stop());

  it('watch=True (the Python client) is a watch, with its bookmarks', async () => {
    const w = await s.client.watch('/api/v1/namespaces/default/configmaps?watch=True&allowWatchBookmarks=True');
    try {
      assert.equal(w.status, 200);
      // A watch from "" is a watch-list (the WatchList gate): with bookmarks allowed, its initial events end with one.
      const end = await w.next(5000);
      assert.equal(end.type, 'BOOKMARK');
      assert.equal(end.object.metadata.annotations['orch.io/initial-events-end'], 'true');
      const created = await s.client.post('/api/v1/namespaces/default/configmaps', { metadata: { name: 'py' } });
      assert.equal(created.status, 201, created.text);
      const e = await w.next(5000);
      assert.equal(e.type, 'ADDED');
      assert.equal(e.object.metadata.name, 'py');
    } finally {
      w.close();
    }
    const list = await s.client.get('/api/v1/namespaces/default/configmaps?watch=False&pretty=True');
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.kind, 'ConfigMapList');
    assert.match(list.text, /\n {2}"kind"/, 'pretty=True indents');
  });
});
