import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type ApiObject, asKind } from '../../../../apiserver/api/object.js';
import type { Node, Pod, Taint } from '../../../../apiserver/api/generated/types.js';
import { DAEMONSETS, NODES, PODS } from '../../../../controllers/controllerutil/resources.js';
import { DaemonSetController, targetNode } from '../../../../controllers/daemonset/daemonset-controller.js';
import { podFitsNode } from '../../../../controllers/controllerutil/node-eligibility.js';
import { computeHash } from '../../../../controllers/controllerutil/template-hash.js';
import { conflict, notFound } from '../../../../apiserver/api/status.js';
import { newFakeContext } from '../../../support/fake-controller-context.js';

const node = (name: string, labels: Record<string, string> = {}, taints: Taint[] = []): Node => ({
  metadata: { name, labels },
  spec: { taints },
});

const template = (image = 'agent:1', extra: Record<string, unknown> = {}) => ({
  metadata: { labels: { app: 'agent' } },
  spec: { containers: [{ name: 'c', image }], ...extra },
});

function daemonSet(tpl = template(), strategy: unknown = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } }): ApiObject {
  return {
    metadata: { name: 'agent', namespace: 'ns', uid: 'ds-uid', generation: 1 },
    spec: { selector: { matchLabels: { app: 'agent' } }, template: tpl, updateStrategy: strategy },
  };
}

/** A daemon Pod with only what the controller reads (no containers). */
function pod(name: string, nodeName: string, revision: string, ready = true): Pod {
  return asKind<Pod>({
    metadata: {
      name,
      namespace: 'ns',
      uid: `uid-${name}`,
      labels: { app: 'agent', 'controller-revision-hash': revision },
      creationTimestamp: '2026-01-01T00:00:00Z',
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'ds-uid', controller: true }],
    },
    spec: {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [nodeName] }] }],
          },
        },
      },
    },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  });
}

describe('node eligibility', () => {
  it('matches nodeSelector, required node affinity and taints', () => {
    const n = node('n1', { disk: 'ssd', zone: 'a' }, [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }]);
    assert.equal(podFitsNode({}, n), false, 'the taint');
    const tolerate = { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }] };
    assert.equal(podFitsNode(tolerate, n), true);
    assert.equal(podFitsNode({ ...tolerate, nodeSelector: { disk: 'hdd' } }, n), false);
    const affinity = (op: string, values: string[]) => ({
      ...tolerate,
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: op, values }] }],
          },
        },
      },
    });
    assert.equal(podFitsNode(affinity('In', ['a', 'b']), n), true);
    assert.equal(podFitsNode(affinity('NotIn', ['a']), n), false);
    assert.equal(
      podFitsNode({}, node('plain', {}, [{ key: 'x', effect: 'PreferNoSchedule' }])),
      true,
      'PreferNoSchedule does not keep Pods off',
    );
  });
});

describe('daemonset controller sync', () => {
  it('creates one Pod per eligible Node, pinned by node affinity, with the daemon tolerations', async () => {
    const ctx = newFakeContext();
    const c = new DaemonSetController(ctx);
    ctx.cache(
      NODES,
      node('n1'),
      node('n2', {}, [{ key: 'node.orch.io/unschedulable', effect: 'NoSchedule' }]),
      node('n3', {}, [{ key: 'dedicated', effect: 'NoSchedule' }]),
    );
    ctx.cache(DAEMONSETS, daemonSet());
    await c.sync('ns/agent');
    const creates = ctx.fake.made('POST', '/pods').map((r) => r.body);
    assert.deepEqual(creates.map(targetNode).sort(), ['n1', 'n2']);
    assert.equal(creates[0].metadata.labels['controller-revision-hash'], computeHash(template()));
    assert.ok(creates[0].spec.tolerations.some((t: any) => t.key === 'node.orch.io/not-ready' && t.effect === 'NoExecute'));
    const status = ctx.fake.made('PUT', '/daemonsets/agent/status').at(-1)!.body.status;
    assert.equal(status.desiredNumberScheduled, 2);
  });

  it('deletes Pods on Nodes that are not eligible any more, and duplicates', async () => {
    const ctx = newFakeContext();
    const c = new DaemonSetController(ctx);
    const rev = computeHash(template('agent:1', { nodeSelector: { role: 'edge' } }));
    ctx.cache(NODES, node('edge', { role: 'edge' }), node('core', { role: 'core' }));
    ctx.cache(DAEMONSETS, daemonSet(template('agent:1', { nodeSelector: { role: 'edge' } })));
    const dup = pod('edge-2', 'edge', rev);
    dup.metadata.creationTimestamp = '2026-01-02T00:00:00Z';
    ctx.cache(PODS, pod('edge-1', 'edge', rev), dup, pod('core-1', 'core', rev));
    await c.sync('ns/agent');
    assert.deepEqual(
      ctx.fake
        .made('DELETE')
        .map((r) => r.path.split('/').at(-1))
        .sort(),
      ['core-1', 'edge-2'],
    );
    assert.equal(ctx.fake.made('POST', '/pods').length, 0);
  });

  it('rolls a new template within maxUnavailable; old unavailable Pods are replaced besides the budget', async () => {
    const ctx = newFakeContext();
    const c = new DaemonSetController(ctx);
    ctx.cache(NODES, node('n1'), node('n2'), node('n3'));
    ctx.cache(DAEMONSETS, daemonSet(template('agent:2')));
    ctx.cache(PODS, pod('p1', 'n1', 'old'), pod('p2', 'n2', 'old'), pod('p3', 'n3', 'old', false));
    await c.sync('ns/agent');
    // Kubernetes' rollingUpdate: an unavailable old Pod is an allowed replacement, not counted
    // against maxUnavailable (1), which lets one available old Pod go as well.
    const deleted = ctx.fake.made('DELETE').map((r) => r.path.split('/').at(-1));
    assert.equal(deleted.length, 2, deleted.join());
    assert.equal(deleted[0], 'p3');
    assert.ok(['p1', 'p2'].includes(deleted[1]!));
  });

  it('with a new Pod unavailable the budget of 1 is used: only old unavailable Pods go', async () => {
    const ctx = newFakeContext();
    const c = new DaemonSetController(ctx);
    ctx.cache(NODES, node('n1'), node('n2'), node('n3'));
    ctx.cache(DAEMONSETS, daemonSet(template('agent:2')));
    const rev = computeHash(template('agent:2'));
    ctx.cache(PODS, pod('p1', 'n1', rev, false), pod('p2', 'n2', 'old'), pod('p3', 'n3', 'old', false));
    await c.sync('ns/agent');
    assert.deepEqual(
      ctx.fake.made('DELETE').map((r) => r.path.split('/').at(-1)),
      ['p3'],
    );
  });

  it('maxSurge: new Pods beside old ones within the surge, the old one deleted once the new one is available', async () => {
    const ctx = newFakeContext();
    const c = new DaemonSetController(ctx);
    ctx.cache(NODES, node('n1'), node('n2'), node('n3'));
    const ds = daemonSet(template('agent:2'));
    (ds.spec as any).updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } };
    ctx.cache(DAEMONSETS, ds);
    const rev = computeHash(template('agent:2'));
    const ready = pod('new1', 'n1', rev);
    ctx.cache(PODS, pod('old1', 'n1', 'old'), ready, pod('old2', 'n2', 'old'), pod('old3', 'n3', 'old'));
    await c.sync('ns/agent');
    assert.deepEqual(
      ctx.fake.made('DELETE').map((r) => r.path.split('/').at(-1)),
      ['old1'],
      'n1 surged and its new Pod is available',
    );
    const created = ctx.fake
      .made('POST', '/pods')
      .map((r) => r.body.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution);
    assert.equal(created.length, 1, 'one more Node surges, within maxSurge 1');
    assert.ok(['n2', 'n3'].includes(created[0].nodeSelectorTerms[0].matchFields[0].values[0]));
  });

  it('maxSurge: a new Pod that is not available yet holds the surge and keeps the old one', async () => {
    const ctx = newFakeContext();
    const c = new DaemonSetController(ctx);
    ctx.cache(NODES, node('n1'), node('n2'));
    const ds = daemonSet(template('agent:2'));
    (ds.spec as any).updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } };
    ctx.cache(DAEMONSETS, ds);
    const rev = computeHash(template('agent:2'));
    ctx.cache(PODS, pod('old1', 'n1', 'old'), pod('new1', 'n1', rev, false), pod('old2', 'n2', 'old'));
    await c.sync('ns/agent');
    assert.equal(ctx.fake.made('DELETE').length, 0);
    assert.equal(ctx.fake.made('POST', '/pods').length, 0);
  });

  it('a status write that conflicts with a lagging cache is retried on the fresh DaemonSet, not failed into backoff', async () => {
    const ctx = newFakeContext();
    const c = new DaemonSetController(ctx);
    ctx.cache(NODES, node('n1'));
    ctx.cache(DAEMONSETS, daemonSet());
    ctx.cache(PODS, pod('p1', 'n1', computeHash(template())));
    let puts = 0;
    ctx.fake.on((req) => {
      if (req.method === 'PUT' && req.path.endsWith('/daemonsets/agent/status') && puts++ === 0)
        throw conflict({ group: 'apps', resource: 'daemonsets' }, 'agent', 'the object has been modified');
      if (req.method === 'GET' && req.path.endsWith('/daemonsets/agent')) {
        const fresh = daemonSet();
        fresh.metadata.resourceVersion = '7';
        fresh.status = { collisionCount: 1, numberReady: 0 };
        return fresh;
      }
      return undefined;
    });
    assert.equal(await c.sync('ns/agent'), undefined);
    const written = ctx.fake.made('PUT', '/daemonsets/agent/status').map((r) => r.body);
    assert.equal(written.length, 2);
    assert.equal(written[1].metadata.resourceVersion, '7');
    assert.deepEqual([written[1].status.numberReady, written[1].status.collisionCount], [1, 1]);
  });

  it('status counts the oldest Pod of a surged Node', async () => {
    const ctx = newFakeContext();
    const c = new DaemonSetController(ctx);
    ctx.cache(NODES, node('n1'));
    const ds = daemonSet(template('agent:2'));
    (ds.spec as any).updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } };
    ctx.cache(DAEMONSETS, ds);
    const fresh = pod('a-new', 'n1', computeHash(template('agent:2')), false);
    fresh.metadata.creationTimestamp = '2026-01-02T00:00:00Z';
    ctx.cache(PODS, fresh, pod('z-old', 'n1', 'old'));
    await c.sync('ns/agent');
    const status = ctx.fake.made('PUT', '/daemonsets/agent/status').at(-1)!.body.status;
    assert.deepEqual([status.numberReady, status.numberAvailable, status.updatedNumberScheduled], [1, 1, 0]);
  });

  it('a ready Pod not yet available for minReadySeconds brings a resync then', async () => {
    const ctx = newFakeContext();
    const c = new DaemonSetController(ctx);
    ctx.cache(NODES, node('n1'));
    const ds = daemonSet();
    (ds.spec as any).minReadySeconds = 30;
    ctx.cache(DAEMONSETS, ds);
    const p = pod('p1', 'n1', computeHash(template()));
    (p.status as any).conditions[0].lastTransitionTime = new Date().toISOString();
    ctx.cache(PODS, p);
    assert.deepEqual(await c.sync('ns/agent'), { requeueAfterMs: 30_000 });
    const status = ctx.fake.made('PUT', '/daemonsets/agent/status').at(-1)!.body.status;
    assert.deepEqual([status.numberReady, status.numberAvailable ?? 0], [1, 0]);
  });

  it('a Pod deletion seen while a sync talks to the API is not expected again: expectations are read before the cache', async () => {
    const ctx = newFakeContext();
    const c = new DaemonSetController(ctx);
    ctx.cache(NODES, node('n1'));
    ctx.cache(DAEMONSETS, daemonSet(template('agent:2')));
    const old = pod('p1', 'n1', 'old');
    ctx.cache(PODS, old);
    const deleted = () => ctx.fake.made('DELETE').map((r) => r.path.split('/').at(-1));
    await c.sync('ns/agent');
    assert.deepEqual(deleted(), ['p1']);
    // The next sync starts with p1 still cached; the watch reports its deletion while the sync waits on the API.
    let delivered = false;
    ctx.fake.on(() => {
      if (!delivered) {
        delivered = true;
        ctx.informers.forResource(PODS).delete(old);
      }
      return undefined;
    });
    await c.sync('ns/agent');
    assert.deepEqual(deleted(), ['p1'], 'p1 is not deleted (and awaited) a second time');
    await c.sync('ns/agent');
    assert.equal(ctx.fake.made('POST', '/pods').length, 1, 'the new Pod follows');
  });

  it('a Pod found already gone when deleting is not awaited', async () => {
    const ctx = newFakeContext();
    const c = new DaemonSetController(ctx);
    ctx.cache(NODES, node('n1'));
    ctx.cache(DAEMONSETS, daemonSet(template('agent:2')));
    ctx.cache(PODS, pod('p1', 'n1', 'old'));
    ctx.fake.on((req) => {
      if (req.method === 'DELETE') throw notFound({ group: '', resource: 'pods' }, 'p1');
      return undefined;
    });
    await c.sync('ns/agent');
    assert.equal(c.expectations.satisfied('ns/agent'), true);
  });
});
