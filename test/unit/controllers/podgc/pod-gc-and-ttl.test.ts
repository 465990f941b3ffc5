import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import { notFound } from '../../../../apiserver/api/status.js';
import { JOBS, NODES, PODS } from '../../../../controllers/controllerutil/resources.js';
import { PodGcController } from '../../../../controllers/podgc/pod-gc-controller.js';
import { TtlAfterFinishedController } from '../../../../controllers/ttlafterfinished/ttl-after-finished-controller.js';
import { newFakeContext } from '../../../support/fake-controller-context.js';

const pod = (name: string, o: { phase?: string; node?: string; createdMin?: number; deleting?: boolean } = {}): ApiObject => ({
  metadata: {
    name,
    namespace: 'ns',
    uid: `uid-${name}`,
    creationTimestamp: new Date(Date.UTC(2026, 0, 1, 0, o.createdMin ?? 0)).toISOString(),
    ...(o.deleting ? { deletionTimestamp: '2026-01-01T01:00:00Z', finalizers: ['x'] } : {}),
  },
  spec: o.node ? { nodeName: o.node } : {},
  status: { phase: o.phase ?? 'Running' },
});

describe('pod garbage collector', () => {
  it('deletes the oldest terminated Pods beyond the threshold', async () => {
    const ctx = newFakeContext();
    const gc = new PodGcController(ctx, { terminatedPodThreshold: 2 });
    ctx.cache(NODES, { metadata: { name: 'n1' } });
    ctx.cache(
      PODS,
      pod('s3', { phase: 'Succeeded', createdMin: 3, node: 'n1' }),
      pod('f1', { phase: 'Failed', createdMin: 1, node: 'n1' }),
      pod('s2', { phase: 'Succeeded', createdMin: 2, node: 'n1' }),
      pod('s0', { phase: 'Succeeded', createdMin: 0, node: 'n1' }),
      pod('run', { node: 'n1' }),
    );
    await gc.gc();
    assert.deepEqual(
      ctx.fake.made('DELETE').map((r) => [r.path.split('/').at(-1), r.body.gracePeriodSeconds]),
      [
        ['s0', 0],
        ['f1', 0],
      ],
    );
  });

  it('fails and deletes Pods of a vanished Node after the quarantine, and unscheduled terminating Pods at once', async () => {
    let now = 0;
    const ctx = newFakeContext();
    const gc = new PodGcController(ctx, { quarantineMs: 40_000, now: () => now });
    ctx.fake.on((req) => {
      if (req.method === 'GET' && req.path === '/api/v1/nodes/gone') throw notFound({ group: '', resource: 'nodes' }, 'gone');
      return undefined;
    });
    ctx.cache(PODS, pod('orphan', { node: 'gone' }), pod('pending-delete', { deleting: true }));
    await gc.gc();
    assert.deepEqual(
      ctx.fake.made('DELETE').map((r) => r.path.split('/').at(-1)),
      ['pending-delete'],
      'the orphan waits for the quarantine',
    );
    now = 41_000;
    ctx.fake.requests.length = 0;
    await gc.gc();
    const [status] = ctx.fake.made('PUT', '/pods/orphan/status');
    assert.equal(status.body.status.phase, 'Failed');
    assert.equal(status.body.status.conditions[0].type, 'DisruptionTarget');
    assert.equal(status.body.status.conditions[0].reason, 'DeletionByPodGC');
    assert.equal(ctx.fake.made('DELETE', '/pods/orphan').length, 1);
  });
});

describe('ttl-after-finished controller', () => {
  const finishedJob = (ttl: number | undefined, completionTime: string): ApiObject => ({
    metadata: { name: 'done', namespace: 'ns', uid: 'job-uid' },
    spec: ttl === undefined ? {} : { ttlSecondsAfterFinished: ttl },
    status: { completionTime, conditions: [{ type: 'Complete', status: 'True', lastTransitionTime: completionTime }] },
  });

  it('waits until the TTL has passed, then deletes the Job in the foreground with its uid', async () => {
    const ctx = newFakeContext();
    let now = Date.parse('2026-01-01T00:00:30Z');
    const c = new TtlAfterFinishedController(ctx, { now: () => now });
    const job = finishedJob(60, '2026-01-01T00:00:00Z');
    ctx.cache(JOBS, job);
    ctx.fake.on((req) => (req.method === 'GET' ? job : undefined));
    assert.deepEqual(await c.sync('ns/done'), { requeueAfterMs: 30_000 });
    now += 30_000;
    await c.sync('ns/done');
    const [del] = ctx.fake.made('DELETE', '/apis/batch/v1/namespaces/ns/jobs/done');
    assert.equal(del.body.propagationPolicy, 'Foreground');
    assert.deepEqual(del.body.preconditions, { uid: 'job-uid' });
  });

  it('leaves Jobs without a TTL alone', async () => {
    const ctx = newFakeContext();
    const c = new TtlAfterFinishedController(ctx);
    ctx.cache(JOBS, finishedJob(undefined, '2026-01-01T00:00:00Z'));
    assert.equal(await c.sync('ns/done'), undefined);
    assert.deepEqual(ctx.fake.requests, []);
  });
});
