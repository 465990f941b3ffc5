import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceDef } from '../../../../apiserver/api/resource.js';
import type { GenericStore } from '../../../../apiserver/registry/generic/store.js';
import type { Storage } from '../../../../apiserver/storage/interfaces.js';
import { startObjectCounts } from '../../../../apiserver/server/flowcontrol/object-counts.js';

test('object counts come from a loaded watch cache, else from one limit=1 list of the store', async () => {
  const listed: string[] = [];
  const storage = {
    async list(prefix: string, opts: { limit?: number }) {
      listed.push(`${prefix} ${opts.limit}`);
      return { items: [{}], remaining: 41, revision: 1, more: true };
    },
  } as unknown as Storage;
  const store = (prefix: string, cached: number | undefined) =>
    ({ keys: { listPrefix: () => prefix }, cachedObjectCount: () => cached }) as unknown as GenericStore;
  const def = (group: string, plural: string) => ({ group, plural }) as ResourceDef;
  const stores = new Map([
    [def('', 'configmaps'), store('/registry/configmaps/', 5000)],
    [def('', 'secrets'), store('/registry/secrets/', undefined)],
  ]);
  const counts = startObjectCounts(storage, () => stores, 60_000);
  try {
    while (counts.get('', 'secrets') === undefined) await new Promise((r) => setImmediate(r));
    assert.equal(counts.get('', 'configmaps'), 5000);
    assert.equal(counts.get('', 'secrets'), 42);
    assert.deepEqual(listed, ['/registry/secrets/ 1']);
  } finally {
    counts.stop();
  }
});
