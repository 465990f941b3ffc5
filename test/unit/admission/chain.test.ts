import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newAdmissionChain } from '../../../apiserver/admission/chain.js';
import type { AdmissionPlugin } from '../../../apiserver/admission/interfaces.js';
import * as status from '../../../apiserver/api/status.js';
import { attrs, rejection } from './fixture.js';

function recorder(log: string[], name: string, over: Partial<AdmissionPlugin> = {}): AdmissionPlugin {
  return {
    name,
    handles: () => true,
    async admit(a) {
      log.push(`admit ${name}`);
      a.object!.metadata.labels = { ...a.object!.metadata.labels, [name]: 'x' };
    },
    async validate() {
      log.push(`validate ${name}`);
    },
    ...over,
  };
}

const cm = () => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'ns' } });

test('admit runs every mutating half in order; validate every validating half, in order', async () => {
  const log: string[] = [];
  const chain = newAdmissionChain([
    recorder(log, 'A'),
    recorder(log, 'B', { validate: undefined }),
    recorder(log, 'C', { admit: undefined }),
  ]);
  assert.deepEqual(chain.plugins, ['A', 'B', 'C']);
  const a = attrs({ resource: 'configmaps', namespace: 'ns', object: cm() });
  await chain.admit(a);
  await chain.validate(a);
  assert.deepEqual(log, ['admit A', 'admit B', 'validate A', 'validate C']);
  assert.deepEqual(a.object!.metadata.labels, { A: 'x', B: 'x' });
});

test('validators get a copy: what one changes is not stored', async () => {
  const chain = newAdmissionChain([
    {
      name: 'Sneaky',
      handles: () => true,
      async validate(a) {
        a.object!.metadata.name = 'changed';
      },
    },
  ]);
  const a = attrs({ resource: 'configmaps', namespace: 'ns', object: cm() });
  await chain.validate(a);
  assert.equal(a.object!.metadata.name, 'c');
});

test('the first refusal stops the chain with that plugin’s error', async () => {
  const log: string[] = [];
  const deny: AdmissionPlugin = {
    name: 'Deny',
    handles: () => true,
    async admit() {
      throw status.forbidden({ group: '', resource: 'configmaps' }, 'c', 'no');
    },
  };
  const chain = newAdmissionChain([recorder(log, 'A'), deny, recorder(log, 'B')]);
  const err = await rejection(chain.admit(attrs({ resource: 'configmaps', namespace: 'ns', object: cm() })));
  assert.equal(err.status.message, 'configmaps "c" is forbidden: no');
  assert.deepEqual(log, ['admit A']);
});

test('a plugin sees only the operations it handles', async () => {
  const log: string[] = [];
  const chain = newAdmissionChain([recorder(log, 'OnlyDelete', { handles: (op) => op === 'DELETE' })]);
  await chain.admit(attrs({ resource: 'configmaps', namespace: 'ns', object: cm() }));
  await chain.validate(attrs({ operation: 'DELETE', resource: 'configmaps', namespace: 'ns', oldObject: cm() }));
  assert.deepEqual(log, ['validate OnlyDelete']);
});

/** A ConfigMap whose `data` counts how often it is read (a copy reads it once). */
function countingReads(): { obj: ReturnType<typeof cm>; reads: () => number } {
  let reads = 0;
  const obj = cm();
  Object.defineProperty(obj, 'data', {
    enumerable: true,
    get: () => {
      reads++;
      return { a: 'b' };
    },
  });
  return { obj, reads: () => reads };
}

test('validators copy the object only when one reads it, and share that copy', async () => {
  const object = countingReads();
  const old = countingReads();
  const seen: unknown[] = [];
  const reader = (name: string): AdmissionPlugin => ({
    name,
    handles: () => true,
    async validate(a) {
      seen.push(a.object);
    },
  });
  const ignoring: AdmissionPlugin = { name: 'Ignoring', handles: () => true, async validate() {} };
  const a = attrs({ operation: 'UPDATE', resource: 'configmaps', namespace: 'ns', object: object.obj, oldObject: old.obj });

  await newAdmissionChain([ignoring]).validate(a);
  assert.equal(object.reads(), 0);

  await newAdmissionChain([ignoring, reader('A'), reader('B')]).validate(a);
  assert.equal(object.reads(), 1);
  assert.equal(old.reads(), 0);
  assert.equal(seen.length, 2);
  assert.equal(seen[0], seen[1]);
  assert.notEqual(seen[0], a.object);
  assert.deepEqual(seen[0], { ...cm(), data: { a: 'b' } });
});

test('a validator may replace the object it sees without touching the stored one', async () => {
  const chain = newAdmissionChain([
    {
      name: 'Replacing',
      handles: () => true,
      async validate(a) {
        (a as { object?: unknown }).object = { metadata: { name: 'other' } };
        assert.deepEqual(a.object, { metadata: { name: 'other' } });
      },
    },
  ]);
  const a = attrs({ resource: 'configmaps', namespace: 'ns', object: cm() });
  await chain.validate(a);
  assert.equal(a.object!.metadata.name, 'c');
});

test('a plugin that names its resources is called only for their writes, in its place in the chain', async () => {
  const log: string[] = [];
  const chain = newAdmissionChain([
    recorder(log, 'A'),
    recorder(log, 'PodsOnly', { handlesResource: (r) => r.kubernetesGroup === '' && r.plural === 'pods' }),
    recorder(log, 'B'),
  ]);
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' } };
  for (let i = 0; i < 2; i++) {
    log.length = 0;
    const a = attrs({ resource: 'configmaps', namespace: 'ns', object: cm() });
    await chain.admit(a);
    await chain.validate(a);
    assert.deepEqual(log, ['admit A', 'admit B', 'validate A', 'validate B']);
    log.length = 0;
    const p = attrs({ resource: 'pods', namespace: 'ns', object: pod });
    await chain.admit(p);
    await chain.validate(p);
    assert.deepEqual(log, ['admit A', 'admit PodsOnly', 'admit B', 'validate A', 'validate PodsOnly', 'validate B']);
  }
});
