import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import { DEPLOYMENTS, REPLICASETS } from '../../../../controllers/controllerutil/resources.js';
import { DeploymentController } from '../../../../controllers/deployment/deployment-controller.js';
import { computeHash } from '../../../../controllers/controllerutil/template-hash.js';
import { newFakeContext } from '../../../support/fake-controller-context.js';

const REV = 'deployment.orch.io/revision';
const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().replace(/\.\d{3}Z$/, 'Z');
const template = (image: string) => ({ metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image }] } });

function deployment(
  o: {
    replicas?: number;
    image?: string;
    strategy?: unknown;
    paused?: boolean;
    limit?: number;
    status?: unknown;
    generation?: number;
  } = {},
): ApiObject {
  return {
    metadata: { name: 'web', namespace: 'ns', uid: 'd-uid', generation: o.generation ?? 1, resourceVersion: '7', annotations: {} },
    spec: {
      replicas: o.replicas ?? 3,
      selector: { matchLabels: { app: 'web' } },
      template: template(o.image ?? 'v2'),
      strategy: o.strategy ?? { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      revisionHistoryLimit: o.limit ?? 10,
      progressDeadlineSeconds: 600,
      ...(o.paused ? { paused: true } : {}),
    },
    status: o.status ?? {},
  };
}

function replicaSet(
  image: string,
  o: { replicas: number; available?: number; revision: number; agoMs?: number; desired?: number; max?: number },
): ApiObject {
  const hash = computeHash(template(image));
  const t = template(image);
  t.metadata.labels = { ...t.metadata.labels, 'pod-template-hash': hash } as never;
  return {
    metadata: {
      name: `web-${hash}`,
      namespace: 'ns',
      uid: `rs-${image}`,
      labels: { app: 'web', 'pod-template-hash': hash },
      generation: 1,
      resourceVersion: '3',
      creationTimestamp: iso(o.agoMs ?? 60_000),
      annotations: {
        [REV]: String(o.revision),
        'deployment.orch.io/desired-replicas': String(o.desired ?? 3),
        'deployment.orch.io/max-replicas': String(o.max ?? 4),
      },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'd-uid', controller: true }],
    },
    spec: { replicas: o.replicas, selector: { matchLabels: { app: 'web', 'pod-template-hash': hash } }, template: t },
    status: { replicas: o.replicas, readyReplicas: o.available ?? 0, availableReplicas: o.available ?? 0, observedGeneration: 1 },
  };
}

function setup(d: ApiObject, ...rss: ApiObject[]) {
  const ctx = newFakeContext();
  const c = new DeploymentController(ctx);
  ctx.cache(DEPLOYMENTS, d);
  ctx.cache(REPLICASETS, ...rss);
  const rsUpdates = () =>
    ctx.fake
      .made('PUT', '/replicasets/')
      .filter((r) => !r.path.endsWith('/status'))
      .map(
        (r) => `${r.body.metadata.name.startsWith('web-') ? r.body.spec.template.spec.containers[0].image : '?'}=${r.body.spec.replicas}`,
      );
  const lastStatus = () => ctx.fake.made('PUT', '/deployments/web/status').at(-1)?.body.status;
  return { ctx, c, rsUpdates, lastStatus };
}

describe('deployment controller sync', () => {
  it('creates the first ReplicaSet by template hash with revision 1 and the replicas annotations', async () => {
    const { ctx, c, lastStatus } = setup(deployment());
    await c.sync('ns/web');
    const [create] = ctx.fake.made('POST', '/apis/apps/v1/namespaces/ns/replicasets');
    const rs = create.body;
    const hash = computeHash(template('v2'));
    assert.equal(rs.metadata.name, `web-${hash}`);
    assert.equal(rs.spec.replicas, 3);
    assert.deepEqual(rs.spec.selector.matchLabels, { app: 'web', 'pod-template-hash': hash });
    assert.deepEqual(rs.spec.template.metadata.labels, { app: 'web', 'pod-template-hash': hash });
    assert.equal(rs.metadata.annotations[REV], '1');
    assert.equal(rs.metadata.annotations['deployment.orch.io/desired-replicas'], '3');
    assert.equal(rs.metadata.annotations['deployment.orch.io/max-replicas'], '4');
    assert.deepEqual(rs.metadata.ownerReferences, [
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'd-uid', controller: true, blockOwnerDeletion: true },
    ]);
    const [annotate] = ctx.fake.made('PUT', '/deployments/web').filter((r) => !r.path.endsWith('/status'));
    assert.equal(annotate.body.metadata.annotations[REV], '1');
    assert.deepEqual(
      ctx.events.map((e) => e.note),
      [`Scaled up replica set web-${hash} to 3`],
    );
    const status = lastStatus();
    assert.equal(status.observedGeneration, 1);
    assert.ok(status.conditions.some((x: any) => x.type === 'Progressing' && x.reason === 'NewReplicaSetCreated'));
  });

  it('rollout undo: the template kubectl sends back (resources: {}, creationTimestamp: null) reuses the old ReplicaSet', async () => {
    const d = deployment({ image: 'v1', generation: 3 });
    const t = (d.spec as any).template;
    t.metadata.creationTimestamp = null;
    t.spec.containers[0].resources = {};
    const { ctx, c } = setup(
      d,
      replicaSet('v1', { replicas: 0, revision: 1, agoMs: 120_000 }),
      replicaSet('v2', { replicas: 3, available: 3, revision: 2 }),
    );
    await c.sync('ns/web');
    assert.deepEqual(ctx.fake.made('POST', '/replicasets'), [], 'no new ReplicaSet');
    const back = ctx.fake.made('PUT', `/replicasets/web-${computeHash(template('v1'))}`).at(-1);
    assert.equal(back?.body.metadata.annotations[REV], '3');
  });

  it('rolls within maxSurge: a new ReplicaSet of 1 next to the old 3, revision 2', async () => {
    const { ctx, c } = setup(deployment(), replicaSet('v1', { replicas: 3, available: 3, revision: 1 }));
    await c.sync('ns/web');
    const [create] = ctx.fake.made('POST', '/replicasets');
    assert.equal(create.body.spec.replicas, 1);
    assert.equal(create.body.metadata.annotations[REV], '2');
    assert.equal(ctx.fake.made('PUT', '/replicasets/').length, 0, 'the old ReplicaSet waits');
  });

  it('scales the old ReplicaSet down only as far as the new one is available (maxUnavailable)', async () => {
    const unavailable = setup(
      deployment(),
      replicaSet('v1', { replicas: 3, available: 3, revision: 1 }),
      replicaSet('v2', { replicas: 1, available: 0, revision: 2 }),
    );
    await unavailable.c.sync('ns/web');
    assert.deepEqual(unavailable.rsUpdates(), [], 'new Pod unavailable: 4 Pods, 3 available = minAvailable');

    const available = setup(
      deployment(),
      replicaSet('v1', { replicas: 3, available: 3, revision: 1 }),
      replicaSet('v2', { replicas: 1, available: 1, revision: 2 }),
    );
    await available.c.sync('ns/web');
    assert.deepEqual(available.rsUpdates(), ['v1=2']);
    assert.ok(available.ctx.events.some((e) => /^Scaled down replica set web-\w+ to 2 from 3$/.test(e.note)));
  });

  it('scales the new ReplicaSet up once old Pods are gone', async () => {
    const { c, rsUpdates } = setup(
      deployment(),
      replicaSet('v1', { replicas: 2, available: 2, revision: 1 }),
      replicaSet('v2', { replicas: 1, available: 1, revision: 2 }),
    );
    await c.sync('ns/web');
    assert.deepEqual(rsUpdates(), ['v2=2']);
  });

  it('Recreate: old ReplicaSets go to 0 first, the new one is created only when no old Pod is left', async () => {
    const recreate = { type: 'Recreate' };
    const first = setup(deployment({ strategy: recreate }), replicaSet('v1', { replicas: 3, available: 3, revision: 1 }));
    await first.c.sync('ns/web');
    assert.deepEqual(first.rsUpdates(), ['v1=0']);
    assert.equal(first.ctx.fake.made('POST').length, 0);

    const waiting = setup(deployment({ strategy: recreate }), replicaSet('v1', { replicas: 0, available: 0, revision: 1 }));
    const old = waiting.ctx.informers.forResource(REPLICASETS).indexer.get(`ns/web-${computeHash(template('v1'))}`)!;
    old.status!.replicas = 1;
    await waiting.c.sync('ns/web');
    assert.equal(waiting.ctx.fake.made('POST').length, 0, 'an old Pod still exists');

    const ready = setup(deployment({ strategy: recreate }), replicaSet('v1', { replicas: 0, available: 0, revision: 1 }));
    await ready.c.sync('ns/web');
    const [create] = ready.ctx.fake.made('POST', '/replicasets');
    assert.equal(create.body.spec.replicas, 3);
    assert.equal(create.body.metadata.annotations['deployment.orch.io/max-replicas'], '3', 'no surge with Recreate');
  });

  it('deletes empty old ReplicaSets beyond revisionHistoryLimit, oldest revision first', async () => {
    const done = { observedGeneration: 1, replicas: 3, updatedReplicas: 3, availableReplicas: 3, readyReplicas: 3 };
    const { ctx, c } = setup(
      deployment({ limit: 1, status: done }),
      replicaSet('v0', { replicas: 0, revision: 1, agoMs: 300_000 }),
      replicaSet('v1', { replicas: 0, revision: 2, agoMs: 200_000 }),
      replicaSet('v1b', { replicas: 0, revision: 3, agoMs: 150_000 }),
      replicaSet('v2', { replicas: 3, available: 3, revision: 4 }),
    );
    await c.sync('ns/web');
    assert.deepEqual(
      ctx.fake.made('DELETE', '/replicasets/').map((r) => r.path.split('/').at(-1)),
      [`web-${computeHash(template('v0'))}`, `web-${computeHash(template('v1'))}`],
    );
  });

  it('paused: says so in Progressing and creates no new ReplicaSet', async () => {
    const { ctx, c } = setup(deployment({ paused: true }), replicaSet('v1', { replicas: 3, available: 3, revision: 1 }));
    await c.sync('ns/web');
    assert.equal(ctx.fake.made('POST').length, 0);
    const [status] = ctx.fake.made('PUT', '/deployments/web/status');
    const progressing = status.body.status.conditions.find((x: any) => x.type === 'Progressing');
    assert.deepEqual(
      [progressing.status, progressing.reason, progressing.message],
      ['Unknown', 'DeploymentPaused', 'Deployment is paused'],
    );
  });

  it('scales proportionally during a rollout', async () => {
    const { c, rsUpdates } = setup(
      deployment({ replicas: 20 }),
      replicaSet('v1', { replicas: 8, available: 8, revision: 1, desired: 10, max: 13 }),
      replicaSet('v2', { replicas: 5, available: 0, revision: 2, desired: 10, max: 13 }),
    );
    await c.sync('ns/web');
    assert.deepEqual(rsUpdates().sort(), ['v1=15', 'v2=10']);
  });

  it('marks a rollout that made no progress past its deadline ProgressDeadlineExceeded', async () => {
    const stuck = {
      observedGeneration: 1,
      replicas: 4,
      updatedReplicas: 1,
      readyReplicas: 3,
      availableReplicas: 3,
      unavailableReplicas: 1,
      conditions: [
        {
          type: 'Available',
          status: 'True',
          reason: 'MinimumReplicasAvailable',
          message: 'Deployment has minimum availability.',
          lastUpdateTime: iso(700_000),
          lastTransitionTime: iso(700_000),
        },
        {
          type: 'Progressing',
          status: 'True',
          reason: 'ReplicaSetUpdated',
          message: 'x',
          lastUpdateTime: iso(700_000),
          lastTransitionTime: iso(700_000),
        },
      ],
    };
    const { c, lastStatus } = setup(
      deployment({ status: stuck }),
      replicaSet('v1', { replicas: 3, available: 3, revision: 1 }),
      replicaSet('v2', { replicas: 1, available: 0, revision: 2 }),
    );
    await c.sync('ns/web');
    const p = lastStatus().conditions.find((x: any) => x.type === 'Progressing');
    assert.equal(p.status, 'False');
    assert.equal(p.reason, 'ProgressDeadlineExceeded');
    assert.match(p.message, /^ReplicaSet "web-\w+" has timed out progressing\.$/);
  });

  it('completes: Progressing NewReplicaSetAvailable once every replica is updated and available', async () => {
    const { c, lastStatus } = setup(
      deployment({ status: { observedGeneration: 1, replicas: 3, updatedReplicas: 3, availableReplicas: 2 } }),
      replicaSet('v2', { replicas: 3, available: 3, revision: 1 }),
    );
    await c.sync('ns/web');
    const s = lastStatus();
    assert.deepEqual([s.replicas, s.updatedReplicas, s.readyReplicas, s.availableReplicas, s.unavailableReplicas], [3, 3, 3, 3, 0]);
    assert.equal(s.conditions.find((x: any) => x.type === 'Progressing').reason, 'NewReplicaSetAvailable');
    assert.equal(s.conditions.find((x: any) => x.type === 'Available').status, 'True');
  });
});
