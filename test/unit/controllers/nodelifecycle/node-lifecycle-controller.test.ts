import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import { NodeLifecycleController } from '../../../../controllers/nodelifecycle/node-lifecycle-controller.js';
import { NODES, PODS } from '../../../../controllers/controllerutil/resources.js';
import { newFakeContext } from '../../../support/fake-controller-context.js';

const LEASES = { group: 'coordination.orch.io', version: 'v1', resource: 'leases' };

const node = (
  ready: string,
  extra: {
    name?: string;
    rv?: string;
    heartbeat?: string;
    spec?: Record<string, unknown>;
    conditions?: unknown[];
    labels?: Record<string, string>;
  } = {},
): ApiObject => ({
  metadata: {
    name: extra.name ?? 'n1',
    resourceVersion: extra.rv ?? '1',
    creationTimestamp: '2026-01-01T00:00:00Z',
    ...(extra.labels ? { labels: extra.labels } : {}),
  },
  spec: extra.spec ?? {},
  status: {
    conditions: [
      {
        type: 'Ready',
        status: ready,
        lastHeartbeatTime: extra.heartbeat ?? '2026-01-01T00:00:00Z',
        lastTransitionTime: '2026-01-01T00:00:00Z',
      },
      ...(extra.conditions ?? []),
    ],
  },
});

function setup(n: ApiObject, ...others: ApiObject[]) {
  let now = 0;
  const ctx = newFakeContext();
  const c = new NodeLifecycleController(ctx, { now: () => now, gracePeriodMs: 40_000 });
  ctx.cache(NODES, n, ...others);
  let renewals = 0;
  /** The kubelets of these Nodes renew their Leases. */
  const renew = (...names: string[]) => {
    renewals++;
    for (const name of names)
      ctx.cache(LEASES, {
        metadata: { name, namespace: 'orch-node-lease', resourceVersion: String(renewals) },
        spec: { renewTime: new Date(Date.UTC(2026, 0, 1, 0, 0, renewals)).toISOString().replace('Z', '000Z') },
      });
  };
  return { ctx, c, renew, advance: (ms: number) => (now += ms) };
}

/** Healthy Nodes beside n1: with every Node of a cluster down, nothing gets a NoExecute taint. */
const healthy = (...names: string[]) => names.map((name) => node('True', { name }));

describe('node lifecycle controller', () => {
  it('sets Ready Unknown after the grace period without heartbeats, taints the Node unreachable and its Pods not ready', async () => {
    const { ctx, c, advance, renew } = setup(node('True'), ...healthy('n2', 'n3'));
    ctx.cache(PODS, {
      metadata: { name: 'p', namespace: 'ns' },
      spec: { nodeName: 'n1' },
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    });
    renew('n2', 'n3');
    await c.monitor();
    advance(30_000);
    renew('n2', 'n3');
    await c.monitor();
    assert.equal(ctx.fake.made('PUT').length, 0, 'within the grace period');
    advance(11_000);
    renew('n2', 'n3');
    await c.monitor();
    const [status] = ctx.fake.made('PUT', '/api/v1/nodes/n1/status');
    const ready = status.body.status.conditions.find((x: any) => x.type === 'Ready');
    assert.deepEqual([ready.status, ready.reason, ready.message], ['Unknown', 'NodeStatusUnknown', 'Kubelet stopped posting node status.']);
    const [pod] = ctx.fake.made('PUT', '/pods/p/status');
    assert.equal(pod.body.status.conditions[0].status, 'False');
    // NoSchedule at once; NoExecute when the zone's queue gives n1 its turn (the first one: at once too).
    const taints = ctx.fake.made('PATCH', '/api/v1/nodes/n1').map((r) => r.body.spec.taints);
    assert.deepEqual(
      taints.map((list: any[]) => list.map((t) => `${t.key}:${t.effect}`)),
      [['node.orch.io/unreachable:NoSchedule'], ['node.orch.io/unreachable:NoSchedule', 'node.orch.io/unreachable:NoExecute']],
    );
    assert.ok(taints[1][1].timeAdded);
  });

  it('a renewed Lease keeps the Node alive', async () => {
    const { ctx, c, advance } = setup(node('True'));
    await c.monitor();
    for (let i = 1; i <= 5; i++) {
      advance(20_000);
      ctx.cache(LEASES, {
        metadata: { name: 'n1', namespace: 'orch-node-lease', resourceVersion: String(i) },
        spec: { renewTime: `2026-01-01T00:0${i}:00.000000Z` },
      });
      await c.monitor();
    }
    assert.equal(ctx.fake.made('PUT').length, 0);
  });

  it('taints by condition and spec, and removes taints whose cause cleared', async () => {
    const { ctx, c, renew } = setup(
      node('False', {
        spec: {
          unschedulable: true,
          taints: [
            { key: 'node.orch.io/unreachable', effect: 'NoExecute' },
            { key: 'team', value: 'a', effect: 'NoSchedule' },
          ],
        },
        conditions: [{ type: 'MemoryPressure', status: 'True' }],
      }),
      ...healthy('n2'),
    );
    renew('n2');
    await c.monitor();
    const taints = ctx.fake.made('PATCH').at(-1)!.body.spec.taints;
    assert.deepEqual(
      taints.map((t: any) => `${t.key}:${t.effect}`),
      [
        'team:NoSchedule',
        'node.orch.io/not-ready:NoSchedule',
        'node.orch.io/not-ready:NoExecute',
        'node.orch.io/memory-pressure:NoSchedule',
        'node.orch.io/unschedulable:NoSchedule',
      ],
    );
  });

  it('evicts Pods from a Node with a NoExecute taint they do not tolerate, or once their tolerationSeconds passed', async () => {
    const added = new Date(0).toISOString();
    const tainted = node('True', { spec: { taints: [{ key: 'node.orch.io/unreachable', effect: 'NoExecute', timeAdded: added }] } });
    const { ctx, c, advance } = setup(tainted);
    const bound = (name: string, tolerations: unknown[] = []) => ({
      metadata: { name, namespace: 'ns', uid: `uid-${name}` },
      spec: { nodeName: 'n1', tolerations },
      status: { phase: 'Running' },
    });
    ctx.cache(
      PODS,
      bound('plain'),
      bound('patient', [{ key: 'node.orch.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }]),
      bound('forever', [{ operator: 'Exists' }]),
    );
    await c.monitor();
    assert.deepEqual(
      ctx.fake.made('DELETE').map((r) => r.path.split('/').at(-1)),
      ['plain'],
    );
    assert.equal(ctx.fake.made('PUT', '/pods/plain/status')[0].body.status.conditions[0].reason, 'DeletionByTaintManager');
    assert.ok(ctx.events.some((e) => e.reason === 'TaintManagerEviction'));
    advance(301_000);
    await c.monitor();
    assert.deepEqual(
      ctx.fake.made('DELETE').map((r) => r.path.split('/').at(-1)),
      ['plain', 'plain', 'patient'],
      'the cache still holds plain (no watch here); patient goes after 300 s; forever stays',
    );
  });
});
