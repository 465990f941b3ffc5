import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Informer } from '../../../../controllers/informers/informer.js';
import { Indexer, NAMESPACE_INDEX, objectKey } from '../../../../controllers/informers/indexer.js';
import type { ResourceClient } from '../../../../controllers/client/api-client.js';
import type { ApiObject } from '../../../../apiserver/api/object.js';

const cm = (ns: string, name: string, rv: string, uid = `${ns}-${name}`, labels?: Record<string, string>): ApiObject => ({
  metadata: { namespace: ns, name, uid, resourceVersion: rv, labels },
});

/** Records handler calls as "add a/x", "update a/x 1→2", "delete a/x". */
function recorder(informer: Informer): string[] {
  const log: string[] = [];
  informer.addEventHandler({
    onAdd: (o) => log.push(`add ${objectKey(o)}`),
    onUpdate: (old, o) => log.push(`update ${objectKey(o)} ${old.metadata.resourceVersion}→${o.metadata.resourceVersion}`),
    onDelete: (o) => log.push(`delete ${objectKey(o)}`),
  });
  return log;
}

// The informer's store side is driven directly here; its reflector never runs.
const unusedClient = {} as ResourceClient;

describe('Indexer', () => {
  it('keys objects by namespace/name and indexes them', () => {
    const idx = new Indexer({ app: (o) => (o.metadata.labels?.app ? [o.metadata.labels.app] : []) });
    idx.set(cm('a', 'x', '1', 'u1', { app: 'web' }));
    idx.set(cm('b', 'y', '1', 'u2', { app: 'web' }));
    idx.set({ metadata: { name: 'cluster-wide' } });
    assert.deepEqual(idx.keys().sort(), ['a/x', 'b/y', 'cluster-wide']);
    assert.deepEqual(idx.byIndex(NAMESPACE_INDEX, 'a').map(objectKey), ['a/x']);
    assert.deepEqual(idx.byIndex('app', 'web').map(objectKey).sort(), ['a/x', 'b/y']);
    idx.set(cm('a', 'x', '2', 'u1', { app: 'db' }));
    assert.deepEqual(idx.byIndex('app', 'web').map(objectKey), ['b/y']);
    idx.delete('b/y');
    assert.deepEqual(idx.byIndex('app', 'web'), []);
    assert.throws(() => idx.byIndex('nope', 'x'), /index "nope" does not exist/);
  });
});

describe('Informer store', () => {
  it('delivers watch events in order and keeps the cache', () => {
    const inf = new Informer(unusedClient);
    const log = recorder(inf);
    inf.replace([cm('a', 'x', '1')]);
    inf.add(cm('a', 'y', '2'));
    inf.update(cm('a', 'x', '3'));
    inf.delete(cm('a', 'y', '4'));
    assert.deepEqual(log, ['add a/x', 'add a/y', 'update a/x 1→3', 'delete a/y']);
    assert.equal(inf.hasSynced(), true);
    assert.deepEqual(inf.indexer.keys(), ['a/x']);
  });

  it('after a relist delivers only the difference: new, changed, vanished, and recreated under the same name', () => {
    const inf = new Informer(unusedClient);
    inf.replace([cm('a', 'same', '1'), cm('a', 'changed', '2'), cm('a', 'gone', '3'), cm('a', 'recreated', '4', 'old-uid')]);
    const log = recorder(inf);
    log.length = 0;
    inf.replace([cm('a', 'same', '1'), cm('a', 'changed', '7'), cm('a', 'new', '8'), cm('a', 'recreated', '9', 'new-uid')]);
    assert.deepEqual(log.sort(), ['add a/new', 'add a/recreated', 'delete a/gone', 'delete a/recreated', 'update a/changed 2→7'].sort());
    assert.deepEqual(inf.indexer.keys().sort(), ['a/changed', 'a/new', 'a/recreated', 'a/same']);
    assert.equal(inf.indexer.get('a/recreated')?.metadata.uid, 'new-uid');
  });

  it('replays cached objects as adds to a handler added late, and a failing handler does not stop others', () => {
    const inf = new Informer(unusedClient);
    inf.replace([cm('a', 'x', '1')]);
    const seen: string[] = [];
    inf.addEventHandler({
      onAdd: () => {
        throw new Error('bad handler');
      },
    });
    inf.addEventHandler({ onAdd: (o) => seen.push(objectKey(o)) });
    inf.add(cm('a', 'y', '2'));
    assert.deepEqual(seen, ['a/x', 'a/y']);
  });

  it('resyncs: every cached object is delivered as an update of itself each period', async () => {
    // A client whose list never answers keeps the reflector waiting; only the resync timer acts.
    const stuck = { listAll: () => new Promise(() => {}), list: () => new Promise(() => {}) } as unknown as ResourceClient;
    const inf = new Informer(stuck, { resyncPeriodMs: 30 });
    inf.replace([cm('a', 'x', '1'), cm('a', 'y', '2')]);
    const log = recorder(inf);
    log.length = 0;
    inf.run();
    await new Promise((r) => setTimeout(r, 80));
    void inf.stop();
    assert.ok(log.length >= 2, log.join(', '));
    assert.deepEqual(new Set(log), new Set(['update a/x 1→1', 'update a/y 2→2']));
  });
});
