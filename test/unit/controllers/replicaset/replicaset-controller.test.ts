import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../../../apiserver/api/generated/types.js';
import { type ApiObject, asKind } from '../../../../apiserver/api/object.js';
import { ApiError, notFound } from '../../../../apiserver/api/status.js';
import { ReplicaSetController } from '../../../../controllers/replicaset/replicaset-controller.js';
import { PODS, REPLICASETS } from '../../../../controllers/controllerutil/resources.js';
import { newFakeContext } from '../../../support/fake-controller-context.js';

const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().replace(/\.\d{3}Z$/, 'Z');

function replicaSet(replicas: number, extra: Record<string, unknown> = {}): ApiObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'web', namespace: 'ns', uid: 'rs-uid', generation: 2, resourceVersion: '10' },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web', tier: 'front' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
      ...extra,
    },
  };
}

function pod(
  name: string,
  opts: {
    ready?: boolean;
    readyAgoMs?: number;
    node?: string;
    phase?: string;
    owned?: boolean;
    labels?: Record<string, string>;
    createdAgoMs?: number;
  } = {},
): Pod {
  // Only what the controller reads: no containers.
  return asKind<Pod>({
    metadata: {
      name,
      namespace: 'ns',
      uid: `uid-${name}`,
      resourceVersion: '5',
      creationTimestamp: iso(opts.createdAgoMs ?? 60_000),
      labels: opts.labels ?? { app: 'web', tier: 'front' },
      ...(opts.owned === false
        ? {}
        : { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs-uid', controller: true }] }),
    },
    spec: { nodeName: opts.node },
    status: {
      phase: opts.phase ?? 'Running',
      conditions: opts.ready ? [{ type: 'Ready', status: 'True', lastTransitionTime: iso(opts.readyAgoMs ?? 30_000) }] : [],
    },
  });
}

describe('replicaset controller sync', () => {
  it('creates the missing Pods from the template, owned by the ReplicaSet, and records events', async () => {
    const ctx = newFakeContext();
    const c = new ReplicaSetController(ctx);
    ctx.cache(REPLICASETS, replicaSet(3));
    await c.sync('ns/web');
    const creates = ctx.fake.made('POST', '/api/v1/namespaces/ns/pods');
    assert.equal(creates.length, 3);
    for (const { body } of creates) {
      assert.equal(body.metadata.generateName, 'web-');
      assert.deepEqual(body.metadata.labels, { app: 'web', tier: 'front' });
      assert.deepEqual(body.metadata.ownerReferences, [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs-uid', controller: true, blockOwnerDeletion: true },
      ]);
      assert.deepEqual(body.spec, { containers: [{ name: 'c', image: 'nginx' }] });
    }
    assert.equal(ctx.events.filter((e) => e.reason === 'SuccessfulCreate').length, 3);
    const [status] = ctx.fake.made('PUT', '/replicasets/web/status');
    assert.deepEqual(status.body.status, {
      replicas: 0,
      fullyLabeledReplicas: 0,
      readyReplicas: 0,
      availableReplicas: 0,
      observedGeneration: 2,
    });
  });

  it('does not create again until the informer has seen its creations', async () => {
    const ctx = newFakeContext();
    const c = new ReplicaSetController(ctx);
    ctx.cache(REPLICASETS, replicaSet(2));
    await c.sync('ns/web');
    await c.sync('ns/web');
    assert.equal(ctx.fake.made('POST', '/pods').length, 2, 'a resync while creations are in flight creates nothing');
    ctx.cache(PODS, pod('web-a'));
    await c.sync('ns/web');
    assert.equal(ctx.fake.made('POST', '/pods').length, 2, 'one of two creations seen');
    ctx.cache(PODS, pod('web-b'));
    await c.sync('ns/web');
    assert.equal(ctx.fake.made('POST', '/pods').length, 2);
    const last = ctx.fake.made('PUT', '/status').at(-1)!;
    assert.equal(last.body.status.replicas, 2);
  });

  it('scales down in Kubernetes ranking: unscheduled, pending, not ready, then the most recently ready', async () => {
    const ctx = newFakeContext();
    const c = new ReplicaSetController(ctx);
    ctx.cache(REPLICASETS, replicaSet(2));
    ctx.cache(
      PODS,
      pod('ready-old', { ready: true, node: 'n1', readyAgoMs: 10 * 3600_000 }),
      pod('ready-new', { ready: true, node: 'n2', readyAgoMs: 1000 }),
      pod('not-ready', { node: 'n3' }),
      pod('pending', { node: 'n4', phase: 'Pending' }),
      pod('unscheduled', { ready: true, phase: 'Pending' }),
    );
    await c.sync('ns/web');
    assert.deepEqual(
      ctx.fake.made('DELETE', '/pods/').map((r) => r.path.split('/').at(-1)),
      ['unscheduled', 'pending', 'not-ready'],
    );
    assert.equal(ctx.events.filter((e) => e.reason === 'SuccessfulDelete').length, 3);
    // Until the deletions are seen, nothing more happens.
    ctx.cache(REPLICASETS, { ...replicaSet(1), metadata: { ...replicaSet(1).metadata, resourceVersion: '11' } });
    await c.sync('ns/web');
    assert.equal(ctx.fake.made('DELETE', '/pods/').length, 3);
  });

  it('adopts a matching orphan and releases an owned Pod that no longer matches', async () => {
    const ctx = newFakeContext();
    const c = new ReplicaSetController(ctx);
    ctx.fake.on((req) => (req.method === 'GET' && req.path.endsWith('/replicasets/web') ? replicaSet(2) : undefined));
    ctx.fake.on((req) =>
      req.method === 'PATCH' ? { metadata: { name: req.path.split('/').at(-1), namespace: 'ns', labels: { app: 'web' } } } : undefined,
    );
    ctx.cache(REPLICASETS, replicaSet(2));
    ctx.cache(PODS, pod('orphan', { owned: false }), pod('owned', { ready: true }), pod('moved', { labels: { app: 'other' } }));
    await c.sync('ns/web');
    const patches = ctx.fake.made('PATCH');
    assert.equal(patches.length, 2);
    const adopt = patches.find((p) => p.path.endsWith('/orphan'))!;
    assert.equal(adopt.contentType, 'application/strategic-merge-patch+json');
    assert.deepEqual(adopt.body.metadata, {
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'rs-uid', controller: true, blockOwnerDeletion: true },
      ],
      uid: 'uid-orphan',
    });
    const release = patches.find((p) => p.path.endsWith('/moved'))!;
    assert.deepEqual(release.body.metadata, { ownerReferences: [{ $patch: 'delete', uid: 'rs-uid' }], uid: 'uid-moved' });
    assert.equal(ctx.fake.made('POST', '/pods').length, 0, 'two Pods after adoption');
  });

  it('counts ready, available (minReadySeconds) and fully labeled Pods, and requeues for availability', async () => {
    const ctx = newFakeContext();
    const c = new ReplicaSetController(ctx);
    ctx.cache(REPLICASETS, replicaSet(3, { minReadySeconds: 60 }));
    ctx.cache(
      PODS,
      pod('a', { ready: true, readyAgoMs: 120_000 }),
      pod('b', { ready: true, readyAgoMs: 1000 }),
      pod('c', { ready: true, readyAgoMs: 1000, labels: { app: 'web' } }),
    );
    const result = await c.sync('ns/web');
    const [status] = ctx.fake.made('PUT', '/status');
    assert.deepEqual(status.body.status, {
      replicas: 3,
      fullyLabeledReplicas: 2,
      readyReplicas: 3,
      availableReplicas: 1,
      observedGeneration: 2,
    });
    assert.equal(result?.requeueAfterMs, 60_000);
  });

  it('counts a Pod already gone when it deletes it as a deletion seen: the next sync is not held for it', async () => {
    const ctx = newFakeContext();
    const c = new ReplicaSetController(ctx);
    ctx.fake.on((req) => {
      if (req.method === 'DELETE' && req.path.endsWith('/gone')) throw notFound({ group: '', resource: 'pods' }, 'gone');
      return undefined;
    });
    ctx.cache(REPLICASETS, replicaSet(1));
    const deleted = pod('deleted', { node: 'n3' });
    ctx.cache(PODS, pod('gone', { node: 'n1' }), pod('kept', { ready: true, node: 'n2' }), deleted);
    await c.sync('ns/web');
    assert.deepEqual(
      ctx.fake
        .made('DELETE', '/pods/')
        .map((r) => r.path.split('/').at(-1))
        .sort(),
      ['deleted', 'gone'],
    );
    assert.equal(c.expectations.satisfied('ns/web'), false, 'the deletion it made is awaited');
    // The informer sees the deletion it made; the Pod that was gone already sends none.
    ctx.informers.forResource(PODS).delete(deleted);
    assert.equal(c.expectations.satisfied('ns/web'), true);
  });

  it('reports a failed creation as a ReplicaFailure condition and a Warning event, and retries', async () => {
    const ctx = newFakeContext();
    const c = new ReplicaSetController(ctx);
    ctx.fake.on((req) => {
      if (req.method === 'POST')
        throw new ApiError({
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: 'exceeded quota',
          reason: 'Forbidden',
          code: 403,
        });
      return undefined;
    });
    ctx.cache(REPLICASETS, replicaSet(5));
    await assert.rejects(c.sync('ns/web'), /exceeded quota/);
    assert.equal(ctx.fake.made('POST').length, 1, 'slow start stops after the first failed batch');
    const [status] = ctx.fake.made('PUT', '/status');
    assert.equal(status.body.status.conditions[0].type, 'ReplicaFailure');
    assert.equal(status.body.status.conditions[0].reason, 'FailedCreate');
    assert.ok(ctx.events.some((e) => e.type === 'Warning' && e.reason === 'FailedCreate'));
    assert.ok(c.expectations.satisfied('ns/web'), 'failed and skipped creations are not awaited');
  });
});
