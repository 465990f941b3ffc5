import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import type { StatefulSet, StatefulSetSpec } from '../../../../apiserver/api/generated/types.js';
import { PODS, PVCS, STATEFULSETS } from '../../../../controllers/controllerutil/resources.js';
import { StatefulSetController } from '../../../../controllers/statefulset/statefulset-controller.js';
import { REVISION_LABEL } from '../../../../controllers/controllerutil/controller-history.js';
import { newFakeContext } from '../../../support/fake-controller-context.js';

function statefulSet(spec: Partial<StatefulSetSpec> = {}): StatefulSet {
  return {
    metadata: { name: 'db', namespace: 'ns', uid: 'sts-uid', generation: 1, resourceVersion: '2' },
    spec: {
      replicas: 3,
      serviceName: 'db',
      selector: { matchLabels: { app: 'db' } },
      template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'c', image: 'postgres:15' }] } },
      volumeClaimTemplates: [
        { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
      ],
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      ...spec,
    },
  };
}

function pod(_set: StatefulSet, ordinal: number, o: { ready?: boolean; revision?: string; phase?: string } = {}): ApiObject {
  return {
    metadata: {
      name: `db-${ordinal}`,
      namespace: 'ns',
      uid: `uid-${ordinal}`,
      labels: { app: 'db', [REVISION_LABEL]: o.revision ?? '' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 'sts-uid', controller: true }],
    },
    spec: {},
    status: {
      phase: o.phase ?? 'Running',
      conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True', lastTransitionTime: '2026-01-01T00:00:00Z' }],
    },
  };
}

function setup(set: StatefulSet, ...pods: ApiObject[]) {
  const ctx = newFakeContext();
  const c = new StatefulSetController(ctx);
  ctx.cache(STATEFULSETS, set);
  ctx.cache(PODS, ...pods);
  return { ctx, c, rev: c.updateRevision(set) };
}

describe('statefulset controller sync', () => {
  it('creates ordinal 0 with its claim first, named, labelled and addressed as Kubernetes does', async () => {
    const set = statefulSet();
    const { ctx, c, rev } = setup(set);
    await c.sync('ns/db');
    const [claim] = ctx.fake.made('POST', '/persistentvolumeclaims');
    assert.equal(claim.body.metadata.name, 'data-db-0');
    assert.deepEqual(claim.body.metadata.labels, { app: 'db' });
    const creates = ctx.fake.made('POST', '/pods');
    assert.equal(creates.length, 1, 'OrderedReady: one at a time');
    const p = creates[0].body;
    assert.equal(p.metadata.name, 'db-0');
    assert.equal(p.metadata.generateName, undefined);
    assert.deepEqual(p.metadata.labels, {
      app: 'db',
      'statefulset.orch.io/pod-name': 'db-0',
      'apps.orch.io/pod-index': '0',
      [REVISION_LABEL]: rev,
    });
    assert.equal(p.spec.hostname, 'db-0');
    assert.equal(p.spec.subdomain, 'db');
    assert.deepEqual(p.spec.volumes, [{ name: 'data', persistentVolumeClaim: { claimName: 'data-db-0' } }]);
  });

  it('waits for each ordinal to be Running and Ready; Parallel creates all at once', async () => {
    const set = statefulSet();
    const rev = new StatefulSetController(newFakeContext()).updateRevision(set);
    const waiting = setup(set, pod(set, 0, { ready: false, revision: rev }));
    await waiting.c.sync('ns/db');
    assert.equal(waiting.ctx.fake.made('POST', '/pods').length, 0);
    const next = setup(set, pod(set, 0, { revision: rev }));
    await next.c.sync('ns/db');
    assert.deepEqual(
      next.ctx.fake.made('POST', '/pods').map((r) => r.body.metadata.name),
      ['db-1'],
    );
    const parallel = setup(statefulSet({ podManagementPolicy: 'Parallel' }));
    await parallel.c.sync('ns/db');
    assert.deepEqual(
      parallel.ctx.fake.made('POST', '/pods').map((r) => r.body.metadata.name),
      ['db-0', 'db-1', 'db-2'],
    );
  });

  it('scales down from the highest ordinal and keeps the claims', async () => {
    const set = statefulSet({ replicas: 1 });
    const rev = new StatefulSetController(newFakeContext()).updateRevision(set);
    const { ctx, c } = setup(set, pod(set, 0, { revision: rev }), pod(set, 1, { revision: rev }), pod(set, 2, { revision: rev }));
    ctx.cache(PVCS, { metadata: { name: 'data-db-2', namespace: 'ns' } });
    await c.sync('ns/db');
    assert.deepEqual(
      ctx.fake.made('DELETE').map((r) => r.path.split('/').at(-1)),
      ['db-2'],
    );
  });

  it('rolls a new template from the highest ordinal down to the partition, one healthy step at a time', async () => {
    const set = statefulSet({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 1 } } });
    const { ctx, c, rev } = setup(
      set,
      pod(set, 0, { revision: 'old' }),
      pod(set, 1, { revision: 'old' }),
      pod(set, 2, { revision: 'old' }),
    );
    await c.sync('ns/db');
    assert.deepEqual(
      ctx.fake.made('DELETE').map((r) => r.path.split('/').at(-1)),
      ['db-2'],
    );
    const status = ctx.fake.made('PUT', '/statefulsets/db/status').at(-1)!.body.status;
    assert.deepEqual([status.replicas, status.readyReplicas, status.updatedReplicas, status.updateRevision], [3, 3, 0, rev]);

    const below = setup(set, pod(set, 0, { revision: 'old' }), pod(set, 1, { revision: rev }), pod(set, 2, { revision: rev }));
    await below.c.sync('ns/db');
    assert.equal(below.ctx.fake.made('DELETE').length, 0, 'ordinal 0 is below the partition');
  });

  it('replaces a failed Pod', async () => {
    const set = statefulSet({ replicas: 1 });
    const rev = new StatefulSetController(newFakeContext()).updateRevision(set);
    const { ctx, c } = setup(set, pod(set, 0, { revision: rev, phase: 'Failed' }));
    await c.sync('ns/db');
    assert.equal(ctx.fake.made('DELETE', '/pods/db-0').length, 1);
  });
});
