import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { asKind, type KindObject } from '../../../../apiserver/api/object.js';
import type { DaemonSet, Pod, Service } from '../../../../apiserver/api/generated/types.js';
import { resolveControllerRef } from '../../../../controllers/controllerutil/controller-ref.js';
import { Expectations } from '../../../../controllers/controllerutil/expectations.js';
import { DAEMONSETS, PODS, SERVICES } from '../../../../controllers/controllerutil/resources.js';
import { enqueueControllers } from '../../../../controllers/controllerutil/run-controller.js';
import { endpointPods, enqueueServicesOfPods, selectsPods } from '../../../../controllers/controllerutil/service-pods.js';
import { WorkQueue } from '../../../../controllers/workqueue/work-queue.js';
import { newFakeContext } from '../../../support/fake-controller-context.js';

/** An object of kind `T`. */
const obj = <T extends KindObject>(kind: string, name: string, more: Partial<T> = {}, meta: Partial<KindObject['metadata']> = {}): T =>
  asKind<T>({
    apiVersion: 'v1',
    kind,
    metadata: { name, namespace: 'ns', uid: `uid-${name}`, resourceVersion: '1', ...meta },
    ...more,
  });

describe('what the workload and endpoints controllers share', () => {
  it('resolves a controller reference only to a cached owner of that kind and uid', () => {
    const ctx = newFakeContext();
    const sets = ctx.informers.forResource(DAEMONSETS);
    sets.add(obj<DaemonSet>('DaemonSet', 'ds'));
    const ref = { kind: 'DaemonSet', name: 'ds', uid: 'uid-ds' };
    assert.equal(resolveControllerRef(sets.indexer, 'ns', ref, 'DaemonSet')?.metadata.name, 'ds');
    assert.equal(resolveControllerRef(sets.indexer, 'ns', { ...ref, uid: 'uid-old' }, 'DaemonSet'), undefined, 'a re-created owner');
    assert.equal(resolveControllerRef(sets.indexer, 'ns', ref, 'Job'), undefined, 'another kind');
    assert.equal(resolveControllerRef(sets.indexer, 'other', ref, 'DaemonSet'), undefined, 'another namespace');
    assert.equal(resolveControllerRef(sets.indexer, 'ns', undefined, 'DaemonSet'), undefined, 'no reference');
  });

  it('queues every controller changed and forgets a deleted one’s expectations', () => {
    const ctx = newFakeContext();
    const sets = ctx.informers.forResource(DAEMONSETS);
    const queue = new WorkQueue<string>();
    const expectations = new Expectations();
    enqueueControllers(sets, queue, expectations);
    expectations.expect('ns/a', 2);
    expectations.expect('ns/b', 1);
    sets.add(obj<DaemonSet>('DaemonSet', 'a'));
    sets.update(obj<DaemonSet>('DaemonSet', 'b', {}, { resourceVersion: '2' }));
    assert.equal(queue.len(), 2);
    assert.equal(expectations.satisfied('ns/a'), false);
    sets.delete(obj<DaemonSet>('DaemonSet', 'a'));
    assert.equal(expectations.satisfied('ns/a'), true, 'deleted: nothing is expected any more');
    assert.equal(expectations.satisfied('ns/b'), false);
  });

  it('lists the selected Pods that belong in endpoints, and queues the Services a Pod event concerns', () => {
    const ctx = newFakeContext();
    const pods = ctx.informers.forResource(PODS);
    const services = ctx.informers.forResource(SERVICES);
    const web = obj<Service>('Service', 'web', { spec: { selector: { app: 'web' } } });
    const db = obj<Service>('Service', 'db', { spec: { selector: { app: 'db' } } });
    const none = obj<Service>('Service', 'none', { spec: { selector: {} } });
    services.add(web);
    services.add(db);
    services.add(none);
    assert.deepEqual([selectsPods(web), selectsPods(none), selectsPods(obj<Service>('Service', 'x'))], [true, false, false]);
    const queue = new WorkQueue<string>();
    enqueueServicesOfPods(pods, services, queue);
    const running = obj<Pod>('Pod', 'p1', { status: { podIP: '10.0.0.1', phase: 'Running' } }, { labels: { app: 'web' } });
    const deleting = obj<Pod>(
      'Pod',
      'p2',
      { status: { podIP: '10.0.0.2' } },
      { labels: { app: 'web' }, deletionTimestamp: '2026-01-01T00:00:00Z' },
    );
    const noIp = obj<Pod>('Pod', 'p3', {}, { labels: { app: 'web' } });
    pods.add(running);
    pods.add(deleting);
    pods.add(noIp);
    assert.deepEqual(
      endpointPods(web, pods, false).map((p) => p.metadata.name),
      ['p1'],
    );
    assert.deepEqual(
      endpointPods(web, pods, true)
        .map((p) => p.metadata.name)
        .sort(),
      ['p1', 'p2'],
    );
    assert.deepEqual(endpointPods(none, pods, true), []);
    // Three adds, each for web alone (the queue keeps a key once).
    assert.equal(queue.len(), 1);
    // Relabelled to db: both Services are looked at again.
    pods.update({ ...running, metadata: { ...running.metadata, labels: { app: 'db' }, resourceVersion: '2' } });
    assert.equal(queue.len(), 2);
  });
});
