import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import { DAEMONSETS, DaemonSetController, targetNode } from '../../../../controllers/daemonset/daemonset-controller.js';
import { podFitsNode } from '../../../../controllers/controllerutil/node-eligibility.js';
import { computeHash } from '../../../../controllers/controllerutil/template-hash.js';
import { PODS } from '../../../../controllers/controllerutil/pod-control.js';
import { NODES } from '../../../../controllers/podgc/pod-gc-controller.js';
import { newFakeContext } from '../../../support/fake-controller-context.js';

const node = (name: string, labels: Record<string, string> = {}, taints: unknown[] = []): ApiObject => ({
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

function pod(name: string, nodeName: string, revision: string, ready = true): ApiObject {
  return {
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
  };
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

  it('rolls a new template within maxUnavailable, old unavailable Pods first', async () => {
    const ctx = newFakeContext();
    const c = new DaemonSetController(ctx);
    ctx.cache(NODES, node('n1'), node('n2'), node('n3'));
    ctx.cache(DAEMONSETS, daemonSet(template('agent:2')));
    ctx.cache(PODS, pod('p1', 'n1', 'old'), pod('p2', 'n2', 'old'), pod('p3', 'n3', 'old', false));
    await c.sync('ns/agent');
    assert.deepEqual(
      ctx.fake.made('DELETE').map((r) => r.path.split('/').at(-1)),
      ['p3'],
      'one unavailable already uses the budget of 1',
    );
  });
});
