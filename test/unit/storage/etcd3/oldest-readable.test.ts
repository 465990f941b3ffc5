import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findOldestReadable } from '../../../../apiserver/storage/etcd3/oldest-readable.js';

/** A fake store compacted to `compacted`, counting probes. */
function store(compacted: number): { probes: number[]; readable: (revision: number) => Promise<boolean> } {
  const probes: number[] = [];
  return {
    probes,
    readable: async (revision) => {
      probes.push(revision);
      return revision >= compacted;
    },
  };
}

test('findOldestReadable: one probe when nothing was compacted beyond the lower bound', async () => {
  const s = store(40);
  assert.equal(await findOldestReadable(40, 1000, s.readable), 40);
  assert.deepEqual(s.probes, [40]);
  const fresh = store(1);
  assert.equal(await findOldestReadable(1, 1000, fresh.readable), 1);
  assert.deepEqual(fresh.probes, [1]);
});

test('findOldestReadable: finds every compacted revision exactly with a logarithmic number of probes', async () => {
  for (let compacted = 2; compacted <= 300; compacted++) {
    const s = store(compacted);
    assert.equal(await findOldestReadable(1, 300, s.readable), compacted);
    assert.ok(s.probes.length <= 1 + Math.ceil(Math.log2(300)), `${s.probes.length} probes for ${compacted}`);
  }
});

test('findOldestReadable: the upper bound itself can be the answer', async () => {
  const s = store(300);
  assert.equal(await findOldestReadable(10, 300, s.readable), 300);
});
