import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newRuntimeClass } from '../../../../apiserver/admission/plugins/runtime-class.js';
import { RUNTIME_CLASSES } from '../../../../apiserver/admission/resources.js';
import { attrs, newEnv, Objects, rejection } from '../fixture.js';

const objects = new Objects();
objects.put(RUNTIME_CLASSES, {
  apiVersion: 'node.orch.io/v1',
  kind: 'RuntimeClass',
  metadata: { name: 'kata' },
  handler: 'kata',
  overhead: { podFixed: { cpu: '250m', memory: '120Mi' } },
  scheduling: { nodeSelector: { runtime: 'kata' }, tolerations: [{ key: 'kata', operator: 'Exists', effect: 'NoSchedule' }] },
});
objects.put(RUNTIME_CLASSES, { apiVersion: 'node.orch.io/v1', kind: 'RuntimeClass', metadata: { name: 'plain' }, handler: 'runc' });
const p = newRuntimeClass(newEnv(objects), undefined);
const pod = (spec: Record<string, unknown>) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns' },
  spec: { containers: [{ name: 'c', image: 'i' }], ...spec } as Record<string, unknown>,
});
const a = (obj: ReturnType<typeof pod>) => attrs({ resource: 'pods', namespace: 'ns', object: obj });

test('RuntimeClass sets overhead, merges the node selector and adds tolerations', async () => {
  const obj = pod({ runtimeClassName: 'kata', nodeSelector: { zone: 'a' } });
  await p.admit!(a(obj));
  assert.deepEqual(obj.spec.overhead, { cpu: '250m', memory: '120Mi' });
  assert.deepEqual(obj.spec.nodeSelector, { zone: 'a', runtime: 'kata' });
  assert.deepEqual(obj.spec.tolerations, [{ key: 'kata', operator: 'Exists', effect: 'NoSchedule' }]);
  await p.validate!(a(obj));
  // Equal by value, not by spelling.
  const same = pod({ runtimeClassName: 'kata', overhead: { cpu: '0.25', memory: '120Mi' } });
  await p.admit!(a(same));
});

test('RuntimeClass refuses a missing class, a different overhead, a conflicting selector, an overhead without a class', async () => {
  const msg = async (pr: Promise<void>) => (await rejection(pr)).status.message;
  assert.equal(
    await msg(p.admit!(a(pod({ runtimeClassName: 'nope' })))),
    'pods "p" is forbidden: pod rejected: RuntimeClass "nope" not found',
  );
  assert.match((await msg(p.admit!(a(pod({ runtimeClassName: 'kata', overhead: { cpu: '1' } })))))!, /Overhead doesn't match/);
  assert.match(
    (await msg(p.admit!(a(pod({ runtimeClassName: 'kata', nodeSelector: { runtime: 'runc' } })))))!,
    /conflict: runtimeClass.scheduling.nodeSelector\[runtime\] = kata; pod.spec.nodeSelector\[runtime\] = runc/,
  );
  assert.match(
    (await msg(p.validate!(a(pod({ runtimeClassName: 'plain', overhead: { cpu: '1' } })))))!,
    /Pod Overhead set without corresponding/,
  );
  assert.match((await msg(p.validate!(a(pod({ overhead: { cpu: '1' } })))))!, /Pod Overhead set without corresponding/);
});
