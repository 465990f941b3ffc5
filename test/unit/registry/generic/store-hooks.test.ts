import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newStoreHookEnv, type HookDependency } from '../../../../apiserver/registry/generic/store-hooks.js';

const COUNTER: HookDependency<{ n: number }> = { name: 'the counter' };
const MISSING: HookDependency<string> = { name: 'the missing thing' };

test('a hook environment hands out what the server provides, by dependency', () => {
  const counter = { n: 1 };
  const env = newStoreHookEnv([{ dependency: COUNTER, value: counter }]);
  assert.equal(env.need(COUNTER), counter);
});

test('a dependency the server does not provide is a wiring error that names it', () => {
  const env = newStoreHookEnv([]);
  assert.throws(() => env.need(MISSING), /store hooks need the missing thing/);
});
