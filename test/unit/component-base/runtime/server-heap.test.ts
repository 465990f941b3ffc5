import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withServerHeapArgs } from '../../../../apiserver/component-base/runtime/server-heap.js';

describe('withServerHeapArgs', () => {
  it('adds the young-generation size after the given node arguments', () => {
    assert.deepEqual(withServerHeapArgs(['--cpu-prof'], ''), ['--cpu-prof', '--max-semi-space-size=32']);
    assert.deepEqual(withServerHeapArgs([], ''), ['--max-semi-space-size=32']);
  });

  it('keeps an operator-given size, in the node arguments or in NODE_OPTIONS', () => {
    assert.deepEqual(withServerHeapArgs(['--max-semi-space-size=8'], ''), ['--max-semi-space-size=8']);
    assert.deepEqual(withServerHeapArgs(['--max-semi-space-size', '8'], ''), ['--max-semi-space-size', '8']);
    assert.deepEqual(withServerHeapArgs(['--inspect'], '--trace-warnings --max-semi-space-size=64'), ['--inspect']);
  });
});
