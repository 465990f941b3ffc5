import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newEventRateLimit } from '../../../../apiserver/admission/plugins/event-rate-limit.js';
import { attrs, newEnv, rejection } from '../fixture.js';

const event = (ns: string, involved = 'a') => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: `e-${Math.random()}`, namespace: ns },
  involvedObject: { kind: 'Pod', name: involved, namespace: ns },
  source: { component: 'kubelet' },
});
const write = (p: ReturnType<typeof newEventRateLimit>, ns: string, involved?: string, user = 'alice') =>
  p.validate!(attrs({ resource: 'events', namespace: ns, object: event(ns, involved), user: { name: user, groups: [] } }));

test('EventRateLimit: a Namespace bucket of burst 2 refuses the third event of a namespace, not another’s', async () => {
  const p = newEventRateLimit(newEnv(), { kind: 'Configuration', limits: [{ type: 'Namespace', qps: 0.001, burst: 2 }] });
  await write(p, 'one');
  await write(p, 'one');
  const err = await rejection(write(p, 'one'));
  assert.equal(err.code, 429);
  assert.equal(err.status.message, 'Too many requests: limit reached on type Namespace for key one');
  await write(p, 'two');
});

test('EventRateLimit: Server, User and SourceAndObject keys; buckets refill at qps', async () => {
  // A token every 500 ms: the refusal right after cannot be undone by a slow machine's scheduling.
  const server = newEventRateLimit(newEnv(), { limits: [{ type: 'Server', qps: 2, burst: 1 }] });
  await write(server, 'a');
  await rejection(write(server, 'b'));
  await new Promise((r) => setTimeout(r, 600));
  await write(server, 'b');
  const user = newEventRateLimit(newEnv(), { limits: [{ type: 'User', qps: 0.001, burst: 1 }] });
  await write(user, 'a', 'x', 'alice');
  await write(user, 'a', 'x', 'bob');
  assert.match((await rejection(write(user, 'a', 'x', 'alice'))).status.message!, /type User for key alice/);
  const source = newEventRateLimit(newEnv(), { limits: [{ type: 'SourceAndObject', qps: 0.001, burst: 1 }] });
  await write(source, 'a', 'pod-1');
  await write(source, 'a', 'pod-2');
  await rejection(write(source, 'a', 'pod-1'));
});

test('EventRateLimit refuses a configuration without limits or with a bad type or rate', () => {
  assert.throws(() => newEventRateLimit(newEnv(), undefined), /limits: Required value/);
  assert.throws(
    () => newEventRateLimit(newEnv(), { limits: [{ type: 'Galaxy', qps: 1, burst: 1 }] }),
    /limits\[0\].type: Unsupported value: "Galaxy"/,
  );
  assert.throws(() => newEventRateLimit(newEnv(), { limits: [{ type: 'User', qps: 0, burst: 1 }] }), /limits\[0\].qps/);
});
