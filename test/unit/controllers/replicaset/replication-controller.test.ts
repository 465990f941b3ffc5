import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import { PODS, REPLICATIONCONTROLLERS } from '../../../../controllers/controllerutil/resources.js';
import { ReplicaSetController } from '../../../../controllers/replicaset/replicaset-controller.js';
import { REPLICATION_CONTROLLER_KIND } from '../../../../controllers/replicaset/replicated-kind.js';
import { newFakeContext } from '../../../support/fake-controller-context.js';

function replicationController(replicas: number): ApiObject {
  return {
    apiVersion: 'v1',
    kind: 'ReplicationController',
    metadata: { name: 'web', namespace: 'ns', uid: 'rc-uid', generation: 3, resourceVersion: '10' },
    spec: {
      replicas,
      selector: { app: 'web' },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  };
}

const RC_REF = { apiVersion: 'v1', kind: 'ReplicationController', name: 'web', uid: 'rc-uid', controller: true };

function pod(name: string, labels: Record<string, string>, owned: boolean): ApiObject {
  return {
    metadata: {
      name,
      namespace: 'ns',
      uid: `uid-${name}`,
      resourceVersion: '5',
      labels,
      ...(owned ? { ownerReferences: [RC_REF] } : {}),
    },
    spec: {},
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2020-01-01T00:00:00Z' }] },
  };
}

describe('replicationcontroller controller sync (the ReplicaSet controller on ReplicationControllers)', () => {
  it('creates Pods owned by the ReplicationController, selected by its label map, and records events as replication-controller', async () => {
    const ctx = newFakeContext();
    const components: string[] = [];
    const recorder = ctx.recorder;
    ctx.recorder = (component) => {
      components.push(component);
      return recorder(component);
    };
    const c = new ReplicaSetController(ctx, { kind: REPLICATION_CONTROLLER_KIND });
    assert.deepEqual(components, ['replication-controller']);
    ctx.cache(REPLICATIONCONTROLLERS, replicationController(2));
    await c.sync('ns/web');
    const creates = ctx.fake.made('POST', '/api/v1/namespaces/ns/pods');
    assert.equal(creates.length, 2);
    for (const { body } of creates) {
      assert.equal(body.metadata.generateName, 'web-');
      assert.deepEqual(body.metadata.ownerReferences, [{ ...RC_REF, blockOwnerDeletion: true }]);
    }
    assert.deepEqual(
      ctx.events.map((e) => [e.reason, e.regarding.kind]),
      [
        ['SuccessfulCreate', 'ReplicationController'],
        ['SuccessfulCreate', 'ReplicationController'],
      ],
    );
    const [status] = ctx.fake.made('PUT', '/api/v1/namespaces/ns/replicationcontrollers/web/status');
    assert.equal(status.body.status.observedGeneration, 3);
  });

  it('adopts a matching orphan, ignores Pods its label map does not select, and counts ready replicas', async () => {
    const ctx = newFakeContext();
    const c = new ReplicaSetController(ctx, { kind: REPLICATION_CONTROLLER_KIND });
    ctx.cache(REPLICATIONCONTROLLERS, replicationController(2));
    ctx.cache(PODS, pod('owned', { app: 'web' }, true), pod('orphan', { app: 'web' }, false), pod('other', { app: 'db' }, false));
    ctx.fake.on((req) =>
      req.method === 'GET' && req.path === '/api/v1/namespaces/ns/replicationcontrollers/web' ? replicationController(2) : undefined,
    );
    ctx.fake.on((req) => (req.method === 'PATCH' && req.path.endsWith('/pods/orphan') ? pod('orphan', { app: 'web' }, true) : undefined));
    await c.sync('ns/web');
    const adoptions = ctx.fake.made('PATCH', '/pods/');
    assert.deepEqual(
      adoptions.map((r) => r.path),
      ['/api/v1/namespaces/ns/pods/orphan'],
    );
    assert.equal(ctx.fake.made('POST', '/pods').length, 0);
    const [status] = ctx.fake.made('PUT', '/replicationcontrollers/web/status');
    assert.equal(status.body.status.replicas, 2);
    assert.equal(status.body.status.readyReplicas, 2);
    assert.equal(status.body.status.availableReplicas, 2);
  });
});
