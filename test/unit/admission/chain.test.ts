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
