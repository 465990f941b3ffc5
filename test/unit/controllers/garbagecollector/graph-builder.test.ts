import { describe, it, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { GraphBuilder } from '../../../../controllers/garbagecollector/graph-builder.js';
import { AbsentOwnerCache } from '../../../../controllers/garbagecollector/absent-owner-cache.js';
import { type GraphNode, alternateOwnerIdentity, partitionDependents } from '../../../../controllers/garbagecollector/graph.js';
import { WorkQueue } from '../../../../controllers/workqueue/work-queue.js';
import { newLogger } from '../../../../apiserver/component-base/logs/logger.js';
import type { InformerFactory } from '../../../../controllers/informers/informer-factory.js';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import type { OwnerReference } from '../../../../apiserver/api/object-meta.js';

const DELETED = '2024-01-01T00:00:00Z';

const ref = (uid: string, extra: Partial<OwnerReference> = {}): OwnerReference => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  name: uid,
  uid,
  ...extra,
});
const cm = (uid: string, meta: Partial<ApiObject['metadata']> = {}): ApiObject => ({
  metadata: { name: uid, namespace: 'ns', uid, ...meta },
});

describe('GraphBuilder', () => {
  let toDelete: WorkQueue<GraphNode>;
  let toOrphan: WorkQueue<GraphNode>;
  let absent: AbsentOwnerCache;
  let gb: GraphBuilder;
  const event = (type: 'add' | 'update' | 'delete', obj: ApiObject, oldObj?: ApiObject) =>
    gb.processEvent({ type, obj, oldObj, apiVersion: 'v1', kind: 'ConfigMap' });

  /** Every node queued, by name (drains the queue). */
  async function drain(q: WorkQueue<GraphNode>): Promise<string[]> {
    const names: string[] = [];
    while (q.len() > 0) {
      const n = (await q.get())!;
      names.push(n.identity.name);
      q.done(n);
    }
    return names.sort();
  }

  beforeEach(() => {
    toDelete = new WorkQueue();
    toOrphan = new WorkQueue();
    absent = new AbsentOwnerCache();
    gb = new GraphBuilder({
      informers: {} as InformerFactory,
      attemptToDelete: toDelete,
      attemptToOrphan: toOrphan,
      absentOwners: absent,
      logger: newLogger({ logLevel: 'error' }),
    });
  });

  it('an owner not seen yet becomes a virtual node, queued for verification; seeing it makes it real', async () => {
    event('add', cm('child', { ownerReferences: [ref('parent')] }));
    const parent = gb.uidToNode.get('parent')!;
    assert.equal(parent.virtual, true);
    assert.deepEqual(
      [...parent.dependents].map((d) => d.identity.name),
      ['child'],
    );
    assert.deepEqual(await drain(toDelete), ['parent']);
    event('add', cm('parent'));
    assert.equal(gb.uidToNode.get('parent')!.virtual, false);
    assert.deepEqual(await drain(toDelete), []);
  });

  it("an owner's deletion queues its dependents and records the owner as absent", async () => {
    event('add', cm('parent'));
    event('add', cm('child', { ownerReferences: [ref('parent')] }));
    event('delete', cm('parent'));
    assert.equal(gb.uidToNode.has('parent'), false);
    assert.deepEqual(await drain(toDelete), ['child']);
    assert.equal(absent.has({ apiVersion: 'v1', kind: 'ConfigMap', name: 'parent', uid: 'parent', namespace: 'ns' }), true);
  });

  it('deletion starting with orphan queues the owner for orphaning', async () => {
    const parent = cm('parent');
    event('add', parent);
    const deleting = cm('parent', { deletionTimestamp: DELETED, finalizers: ['orphan'] });
    event('update', deleting, parent);
    assert.deepEqual(await drain(toOrphan), ['parent']);
    event('update', deleting, deleting);
    assert.deepEqual(await drain(toOrphan), [], 'only the start of the deletion counts');
  });

  it('deletion starting with foregroundDeletion marks the owner and queues it with its dependents', async () => {
    const parent = cm('parent');
    event('add', parent);
    event('add', cm('a', { ownerReferences: [ref('parent', { blockOwnerDeletion: true })] }));
    event('add', cm('b', { ownerReferences: [ref('parent')] }));
    event('update', cm('parent', { deletionTimestamp: DELETED, finalizers: ['foregroundDeletion'] }), parent);
    const node = gb.uidToNode.get('parent')!;
    assert.equal(node.deletingDependents, true);
    assert.deepEqual(
      node.blockingDependents().map((d) => d.identity.name),
      ['a'],
    );
    assert.deepEqual(await drain(toDelete), ['a', 'b', 'parent']);
  });

  it('a dependent that stops blocking (reference removed or unblocked) queues its waiting owner', async () => {
    event('add', cm('parent'));
    event('add', cm('child', { ownerReferences: [ref('parent', { blockOwnerDeletion: true })] }));
    await drain(toDelete);
    event('update', cm('child', { ownerReferences: [ref('parent', { blockOwnerDeletion: false })] }));
    assert.deepEqual(await drain(toDelete), ['parent']);
    event('update', cm('child', { ownerReferences: [] }));
    assert.deepEqual(await drain(toDelete), [], 'the removed reference was no longer blocking');
    assert.equal(gb.uidToNode.get('parent')!.dependents.size, 0);
  });

  it("a dependent's deletion queues an owner that waits for its dependents", async () => {
    const parent = cm('parent');
    event('add', parent);
    event('add', cm('child', { ownerReferences: [ref('parent', { blockOwnerDeletion: true })] }));
    event('update', cm('parent', { deletionTimestamp: DELETED, finalizers: ['foregroundDeletion'] }), parent);
    await drain(toDelete);
    event('delete', cm('child', { ownerReferences: [ref('parent', { blockOwnerDeletion: true })] }));
    assert.deepEqual(await drain(toDelete), ['parent']);
  });

  it('a reference to an observed owner in another namespace queues the dependent', async () => {
    event('add', cm('parent'));
    event('add', { metadata: { name: 'child', namespace: 'other', uid: 'child', ownerReferences: [ref('parent')] } });
    assert.deepEqual(await drain(toDelete), ['child']);
  });

  it('a virtual delete of a virtual owner removes it and queues its dependents', async () => {
    event('add', cm('child', { ownerReferences: [ref('ghost')] }));
    await drain(toDelete);
    gb.enqueueVirtualDeleteEvent(gb.uidToNode.get('ghost')!.identity);
    assert.equal(gb.uidToNode.has('ghost'), false);
    assert.deepEqual(await drain(toDelete), ['child']);
  });

  it('dependents that disagree about an owner keep its node under another identity', async () => {
    event('add', cm('a', { ownerReferences: [ref('o', { name: 'right' })] }));
    event('add', cm('b', { ownerReferences: [ref('o', { name: 'wrong' })] }));
    await drain(toDelete);
    const owner = gb.uidToNode.get('o')!;
    const { matching, nonmatching } = partitionDependents(owner.dependents, owner.identity);
    assert.deepEqual([matching.map((d) => d.identity.name), nonmatching.map((d) => d.identity.name)], [['a'], ['b']]);
    assert.equal(alternateOwnerIdentity(nonmatching, owner.identity)?.name, 'wrong');
    gb.enqueueVirtualDeleteEvent({ ...owner.identity });
    assert.equal(gb.uidToNode.get('o')?.identity.name, 'wrong');
    assert.deepEqual(await drain(toDelete), ['a']);
  });
});
