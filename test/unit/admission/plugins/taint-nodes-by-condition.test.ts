import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newTaintNodesByCondition } from '../../../../apiserver/admission/plugins/taint-nodes-by-condition.js';
import { attrs, newEnv } from '../fixture.js';

test('TaintNodesByCondition taints a new node not-ready:NoSchedule, once', async () => {
  const p = newTaintNodesByCondition(newEnv(), undefined);
  const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' }, spec: {} as Record<string, unknown> };
  await p.admit!(attrs({ resource: 'nodes', object: node }));
  await p.admit!(attrs({ resource: 'nodes', object: node }));
  assert.deepEqual(node.spec.taints, [{ key: 'node.orch.io/not-ready', effect: 'NoSchedule' }]);
  assert.deepEqual([p.handles('CREATE'), p.handles('UPDATE')], [true, false]);
});
