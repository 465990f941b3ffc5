import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newPriority } from '../../../../apiserver/admission/plugins/priority.js';
import { PRIORITY_CLASSES } from '../../../../apiserver/admission/resources.js';
import { attrs, newEnv, Objects, rejection } from '../fixture.js';

const pc = (name: string, value: number, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'scheduling.orch.io/v1',
  kind: 'PriorityClass',
  metadata: { name },
  value,
  ...extra,
});
const pod = (spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', namespace: 'ns' },
  spec: { containers: [{ name: 'c', image: 'i' }], ...spec } as Record<string, unknown>,
});

test('Priority: no class and no default → 0 and PreemptLowerPriority', async () => {
  const p = newPriority(newEnv(), undefined);
  const obj = pod();
  await p.admit!(attrs({ resource: 'pods', namespace: 'ns', object: obj }));
  assert.deepEqual([obj.spec.priority, obj.spec.preemptionPolicy, obj.spec.priorityClassName], [0, 'PreemptLowerPriority', undefined]);
});

test('Priority: the named class’s value and policy; the globalDefault (lowest of several) for pods without one', async () => {
  const objects = new Objects();
  objects.put(PRIORITY_CLASSES, pc('system-node-critical', 2000001000));
  objects.put(PRIORITY_CLASSES, pc('high', 1000, { globalDefault: true, preemptionPolicy: 'Never' }));
  objects.put(PRIORITY_CLASSES, pc('low', 10, { globalDefault: true, preemptionPolicy: 'PreemptLowerPriority' }));
  const p = newPriority(newEnv(objects), undefined);
  const named = pod({ priorityClassName: 'system-node-critical' });
  await p.admit!(attrs({ resource: 'pods', namespace: 'ns', object: named }));
  assert.equal(named.spec.priority, 2000001000);
  const unnamed = pod();
  await p.admit!(attrs({ resource: 'pods', namespace: 'ns', object: unnamed }));
  assert.deepEqual(
    [unnamed.spec.priorityClassName, unnamed.spec.priority, unnamed.spec.preemptionPolicy],
    ['low', 10, 'PreemptLowerPriority'],
  );
});

test('Priority refuses a missing class and a priority or policy that differs from the class', async () => {
  const objects = new Objects();
  objects.put(PRIORITY_CLASSES, pc('c', 5, { preemptionPolicy: 'Never' }));
  const p = newPriority(newEnv(objects), undefined);
  const run = (spec: Record<string, unknown>) => rejection(p.admit!(attrs({ resource: 'pods', namespace: 'ns', object: pod(spec) })));
  assert.equal(
    (await run({ priorityClassName: 'nope' })).status.message,
    'pods "p" is forbidden: no PriorityClass with name nope was found',
  );
  assert.match(
    (await run({ priorityClassName: 'c', priority: 7 })).status.message!,
    /the integer value of priority \(7\) must not be provided/,
  );
  assert.match(
    (await run({ priorityClassName: 'c', preemptionPolicy: 'PreemptLowerPriority' })).status.message!,
    /the string value of PreemptionPolicy \(PreemptLowerPriority\) must not be provided/,
  );
});

test('Priority keeps the stored priority on update', async () => {
  const p = newPriority(newEnv(), undefined);
  const old = pod({ priority: 5, preemptionPolicy: 'Never' });
  const obj = pod();
  await p.admit!(attrs({ operation: 'UPDATE', resource: 'pods', namespace: 'ns', object: obj, oldObject: old }));
  assert.deepEqual([obj.spec.priority, obj.spec.preemptionPolicy], [5, 'Never']);
});

test('Priority allows one globalDefault class only', async () => {
  const objects = new Objects();
  objects.put(PRIORITY_CLASSES, pc('d', 1, { globalDefault: true }));
  const p = newPriority(newEnv(objects), undefined);
  const g = { group: 'scheduling.k8s.io', resource: 'priorityclasses' };
  const err = await rejection(p.validate!(attrs({ ...g, object: pc('e', 2, { globalDefault: true }) })));
  assert.equal(
    err.status.message,
    'priorityclasses.scheduling.orch.io "e" is forbidden: PriorityClass d is already marked as default. Only one default can exist',
  );
  await p.validate!(
    attrs({ ...g, operation: 'UPDATE', object: pc('d', 1, { globalDefault: true }), oldObject: pc('d', 1, { globalDefault: true }) }),
  );
  await p.validate!(attrs({ ...g, object: pc('f', 2) }));
});
