import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../../../apiserver/api/generated/types.js';
import { type ApiObject, asKind } from '../../../../apiserver/api/object.js';
import { JOBS, PODS } from '../../../../controllers/controllerutil/resources.js';
import { JobController } from '../../../../controllers/job/job-controller.js';
import { formatIndexes, parseIndexes } from '../../../../controllers/job/job-util.js';
import { newFakeContext } from '../../../support/fake-controller-context.js';
import { notFound } from '../../../../apiserver/api/status.js';

const NOW = Date.parse('2026-01-01T12:00:00Z');
const at = (msAgo: number) => new Date(NOW - msAgo).toISOString().replace(/\.\d{3}Z$/, 'Z');
const LABELS = { 'batch.orch.io/controller-uid': 'job-uid' };

function job(spec: Record<string, unknown> = {}, status: Record<string, unknown> = { startTime: at(1000) }): ApiObject {
  return {
    metadata: { name: 'pi', namespace: 'ns', uid: 'job-uid', resourceVersion: '3' },
    spec: {
      parallelism: 2,
      completions: 3,
      backoffLimit: 2,
      selector: { matchLabels: LABELS },
      template: { metadata: { labels: LABELS }, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'perl' }] } },
      ...spec,
    },
    status,
  };
}

/** A Job's Pod with only what the controller reads (no containers). */
function pod(name: string, phase: string, extra: { index?: number; exitCode?: number; finishedAgo?: number } = {}): Pod {
  return asKind<Pod>({
    metadata: {
      name,
      namespace: 'ns',
      uid: `uid-${name}`,
      labels: LABELS,
      creationTimestamp: at(60_000),
      finalizers: ['batch.orch.io/job-tracking'],
      ...(extra.index !== undefined ? { annotations: { 'batch.orch.io/job-completion-index': String(extra.index) } } : {}),
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'pi', uid: 'job-uid', controller: true }],
    },
    spec: {},
    status: {
      phase,
      containerStatuses:
        extra.exitCode !== undefined
          ? [{ name: 'c', state: { terminated: { exitCode: extra.exitCode, finishedAt: at(extra.finishedAgo ?? 1000) } } }]
          : [],
    },
  });
}

function setup(j: ApiObject, ...pods: Pod[]) {
  const ctx = newFakeContext();
  const c = new JobController(ctx, { now: () => NOW });
  ctx.cache(JOBS, j);
  ctx.cache(PODS, ...pods);
  const status = () => ctx.fake.made('PUT', '/jobs/pi/status').at(-1)?.body.status;
  return { ctx, c, status };
}

describe('job controller sync', () => {
  it('starts parallelism Pods, never more than the completions left', async () => {
    const { ctx, c, status } = setup(job({}, {}), pod('done', 'Succeeded'), pod('done2', 'Succeeded'));
    await c.sync('ns/pi');
    const creates = ctx.fake.made('POST', '/pods');
    assert.equal(creates.length, 1, '3 completions - 2 succeeded');
    assert.equal(creates[0].body.metadata.generateName, 'pi-');
    assert.deepEqual(creates[0].body.metadata.ownerReferences[0], {
      apiVersion: 'batch/v1',
      kind: 'Job',
      name: 'pi',
      uid: 'job-uid',
      controller: true,
      blockOwnerDeletion: true,
    });
    const s = status();
    assert.equal(s.startTime, at(0));
    assert.deepEqual([s.active, s.succeeded, s.failed, s.ready], [1, 2, 0, 0]);
  });

  it('completes when enough Pods succeeded', async () => {
    const { ctx, c, status } = setup(job(), pod('a', 'Succeeded'), pod('b', 'Succeeded'), pod('c', 'Succeeded'));
    await c.sync('ns/pi');
    const s = status();
    assert.deepEqual(
      s.conditions.map((x: any) => [x.type, x.status]),
      [['Complete', 'True']],
    );
    assert.equal(s.completionTime, at(0));
    assert.ok(ctx.events.some((e) => e.reason === 'Completed'));
  });

  it('fails past the backoff limit and deletes the active Pods', async () => {
    const { ctx, c, status } = setup(job(), pod('f1', 'Failed'), pod('f2', 'Failed'), pod('f3', 'Failed'), pod('run', 'Running'));
    await c.sync('ns/pi');
    const failed = status().conditions.find((x: any) => x.type === 'Failed');
    assert.deepEqual(
      [failed.status, failed.reason, failed.message],
      ['True', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'],
    );
    assert.deepEqual(
      ctx.fake.made('DELETE', '/pods/').map((r) => r.path.split('/').at(-1)),
      ['run'],
    );
    assert.equal(status().active, 0);
  });

  it('waits 10 s doubling after failures before starting new Pods', async () => {
    const { ctx, c } = setup(job(), pod('f1', 'Failed', { exitCode: 1, finishedAgo: 5000 }));
    const r = await c.sync('ns/pi');
    assert.equal(ctx.fake.made('POST', '/pods').length, 0);
    assert.equal(r?.requeueAfterMs, 5000);
  });

  it('applies the pod failure policy: Ignore does not count, FailJob fails at once', async () => {
    const policy = {
      podFailurePolicy: {
        rules: [
          { action: 'FailJob', onExitCodes: { containerName: 'c', operator: 'In', values: [42] } },
          { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] },
        ],
      },
    };
    const disrupted = pod('evicted', 'Failed', { finishedAgo: 60_000 });
    (disrupted.status as any).conditions = [{ type: 'DisruptionTarget', status: 'True', lastTransitionTime: at(60_000) }];
    const ignored = setup(job(policy), disrupted);
    await ignored.c.sync('ns/pi');
    assert.equal(ignored.status().failed, 0);
    assert.equal(ignored.ctx.fake.made('POST', '/pods').length, 2, 'no backoff for an ignored failure');

    const fatal = setup(job(policy), pod('bad', 'Failed', { exitCode: 42 }));
    await fatal.c.sync('ns/pi');
    const failed = fatal.status().conditions.find((x: any) => x.type === 'Failed');
    assert.equal(failed.reason, 'PodFailurePolicy');
    assert.equal(failed.message, 'Container with exit code 42 matched FailJob rule at index 0');
  });

  it('Indexed: one Pod per pending index with its annotation, label, hostname and env; completedIndexes', async () => {
    const { ctx, c, status } = setup(
      job({ completionMode: 'Indexed', parallelism: 3, completions: 4 }),
      pod('i1', 'Succeeded', { index: 1 }),
      pod('i0', 'Running', { index: 0 }),
    );
    await c.sync('ns/pi');
    const creates = ctx.fake.made('POST', '/pods').map((r) => r.body);
    assert.deepEqual(
      creates.map((p) => [
        p.metadata.generateName,
        p.metadata.annotations['batch.orch.io/job-completion-index'],
        p.metadata.labels['batch.orch.io/job-completion-index'],
        p.spec.hostname,
      ]),
      [
        ['pi-2-', '2', '2', 'pi-2'],
        ['pi-3-', '3', '3', 'pi-3'],
      ],
    );
    assert.deepEqual(creates[0].spec.containers[0].env, [
      {
        name: 'JOB_COMPLETION_INDEX',
        valueFrom: { fieldRef: { fieldPath: "metadata.annotations['batch.orch.io/job-completion-index']" } },
      },
    ]);
    assert.equal(status().completedIndexes, '1');
    assert.equal(status().active, 3);
  });

  it('suspend deletes the active Pods and says so; activeDeadlineSeconds fails a Job that ran too long', async () => {
    const suspended = setup(job({ suspend: true }), pod('run', 'Running'));
    await suspended.c.sync('ns/pi');
    assert.equal(suspended.ctx.fake.made('DELETE', '/pods/run').length, 1);
    assert.equal(suspended.status().conditions[0].reason, 'JobSuspended');

    const late = setup(job({ activeDeadlineSeconds: 30 }, { startTime: at(31_000) }), pod('run', 'Running'));
    await late.c.sync('ns/pi');
    assert.equal(late.status().conditions[0].reason, 'DeadlineExceeded');
  });

  it('a Pod found already gone when deleting is not awaited; the deletion it made is', async () => {
    const deleted = pod('run', 'Running');
    const { ctx, c } = setup(job({ suspend: true }), deleted, pod('gone', 'Running'));
    ctx.fake.on((req) => {
      if (req.method === 'DELETE' && req.path.endsWith('/gone')) throw notFound({ group: '', resource: 'pods' }, 'gone');
      return undefined;
    });
    await c.sync('ns/pi');
    assert.deepEqual(
      ctx.fake
        .made('DELETE', '/pods/')
        .map((r) => r.path.split('/').at(-1))
        .sort(),
      ['gone', 'run'],
    );
    assert.equal(c.expectations.satisfied('ns/pi'), false);
    ctx.informers.forResource(PODS).delete(deleted);
    assert.equal(c.expectations.satisfied('ns/pi'), true);
  });

  it('tracks finished Pods by finalizer: uncounted first, finalizer removed, then counted', async () => {
    const { ctx, c } = setup(job({}, { startTime: at(1000), succeeded: 1 }), pod('a', 'Succeeded'), pod('f', 'Failed'));
    await c.sync('ns/pi');
    const [first, last] = ctx.fake.made('PUT', '/jobs/pi/status').map((r) => r.body.status);
    assert.deepEqual(first.uncountedTerminatedPods, { succeeded: ['uid-a'], failed: ['uid-f'] });
    assert.deepEqual([first.succeeded, first.failed ?? 0], [1, 0], 'not counted before the finalizers go');
    const patches = ctx.fake.made('PATCH', '/pods/');
    assert.deepEqual(
      patches.map((r) => [r.path.split('/').at(-1), r.contentType, r.body.metadata]),
      [
        [
          'a',
          'application/strategic-merge-patch+json',
          { '$deleteFromPrimitiveList/finalizers': ['batch.orch.io/job-tracking'], uid: 'uid-a' },
        ],
        [
          'f',
          'application/strategic-merge-patch+json',
          { '$deleteFromPrimitiveList/finalizers': ['batch.orch.io/job-tracking'], uid: 'uid-f' },
        ],
      ],
    );
    assert.deepEqual([last.succeeded, last.failed, last.uncountedTerminatedPods], [2, 1, {}]);
    const [created] = ctx.fake.made('POST', '/pods').map((r) => r.body);
    assert.deepEqual(created.metadata.finalizers, ['batch.orch.io/job-tracking']);
  });

  it('counts survive the Pods: a Job whose succeeded Pods are gone neither recreates nor forgets them', async () => {
    const { ctx, c, status } = setup(job({}, { startTime: at(1000), succeeded: 2 }));
    await c.sync('ns/pi');
    assert.equal(ctx.fake.made('POST', '/pods').length, 1, '3 completions - 2 counted');
    assert.equal(status().succeeded, 2);
  });

  it('finishes only when nothing is left uncounted', async () => {
    const { ctx, c, status } = setup(job(), pod('a', 'Succeeded'), pod('b', 'Succeeded'), pod('c', 'Succeeded'));
    ctx.fake.on((req) => {
      if (req.method === 'PATCH' && req.path.endsWith('/pods/c')) throw new Error('connection reset');
      return undefined;
    });
    await assert.rejects(c.sync('ns/pi'), /connection reset/);
    const s = status();
    assert.equal(s.conditions, undefined, 'not Complete while c is uncounted');
    assert.deepEqual([s.succeeded, s.uncountedTerminatedPods], [2, { succeeded: ['uid-c'] }]);
  });

  it('removes the finalizer of a Pod whose Job is gone', async () => {
    const ctx = newFakeContext();
    const c = new JobController(ctx, { now: () => NOW });
    const orphan = pod('left', 'Running');
    orphan.metadata.deletionTimestamp = at(0);
    ctx.cache(PODS, orphan);
    assert.deepEqual(c.queue.len(), 0);
    ctx.cache(PODS, { ...orphan, metadata: { ...orphan.metadata, resourceVersion: '9' } });
    assert.equal(c.queue.len(), 1, 'the update of a tracked Pod without its Job is queued');
    const key = await c.queue.get();
    await c.sync(key!);
    assert.deepEqual(
      ctx.fake.made('PATCH', '/pods/left').map((r) => r.body.metadata['$deleteFromPrimitiveList/finalizers']),
      [['batch.orch.io/job-tracking']],
    );
  });

  it('formats and parses completed index ranges', () => {
    assert.equal(formatIndexes([4, 0, 2, 1, 7, 8]), '0-2,4,7-8');
    assert.deepEqual(parseIndexes('0-2,4,7-8'), [0, 1, 2, 4, 7, 8]);
  });
});
