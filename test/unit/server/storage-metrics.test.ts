import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourceDef } from '../../../apiserver/api/resource.js';
import type { GenericStore } from '../../../apiserver/registry/generic/store.js';
import type { ChangeListener } from '../../../apiserver/storage/cacher/cacher.js';
import type { Storage } from '../../../apiserver/storage/interfaces.js';
import { newStorageMetricSources } from '../../../apiserver/server/storage-metrics.js';

/**
 * Stores whose keys live under the given roots (below the storage prefix /registry); `cached` answers
 * a root's loaded watch cache's count (undefined: none).
 */
function stores(
  roots: Record<string, Partial<ResourceDef>>,
  cached: (root: string) => number | undefined = () => undefined,
): () => ReadonlyMap<ResourceDef, GenericStore> {
  const map = new Map<ResourceDef, GenericStore>();
  for (const [root, def] of Object.entries(roots)) {
    map.set(
      def as ResourceDef,
      { keys: { listPrefix: () => `/registry/${root}/` }, cachedObjectCount: () => cached(root) } as unknown as GenericStore,
    );
  }
  return () => map;
}

/** A store of `sizes` objects per root whose limit=1 lists are recorded, at revision `revision.now`. */
function countingStorage(sizes: Map<string, number>, revision = { now: 10 }) {
  const lists: string[] = [];
  const storage = {
    async list(prefix: string) {
      lists.push(prefix);
      const n = sizes.get(prefix) ?? 0;
      return { items: n > 0 ? [{}] : [], remaining: Math.max(0, n - 1), more: n > 1, revision: revision.now };
    },
  } as unknown as Storage;
  return { storage, lists, revision };
}

/** A watch cache feed: its listener, and whether it has caught up with the store. */
function fakeFeed() {
  const feed = { listener: undefined as ChangeListener | undefined, fresh: true as boolean };
  return {
    feed,
    follow(l: ChangeListener) {
      feed.listener = l;
      return () => {};
    },
    caughtUpWithStore: async () => (feed.fresh ? 10 : undefined),
  };
}

describe('storage metric sources', () => {
  const sources = newStorageMetricSources(
    '/registry',
    stores({ configmaps: {}, 'apps/deployments': {}, namespaces: {}, 'apps/replicasets': { notStored: true } }),
  );

  it('labels a key with its resource: core by name, a group resource as resource.group', () => {
    assert.equal(sources.typeOf('/registry/configmaps/ns/cm'), 'configmaps');
    assert.equal(sources.typeOf('/registry/namespaces/default'), 'namespaces');
    assert.equal(sources.typeOf('/registry/apps/deployments/ns/web'), 'deployments.apps');
  });

  it("labels '' what no stored resource holds: other prefixes, unknown roots, kinds not stored", () => {
    assert.equal(sources.typeOf('/other/configmaps/ns/cm'), '');
    assert.equal(sources.typeOf('/registry/ranges/serviceips'), '');
    assert.equal(sources.typeOf('/registry/apps/replicasets/ns/rs'), '');
    assert.equal(sources.typeOf('/registry/configmaps'), '');
  });

  it('counts in the store only what changed since its last count, reads loaded caches, and counts everything after lost history', async () => {
    const sizes = new Map([
      ['/registry/configmaps/', 3],
      ['/registry/apps/deployments/', 2],
      ['/registry/namespaces/', 4],
    ]);
    const { storage, lists, revision } = countingStorage(sizes);
    const counted = newStorageMetricSources(
      '/registry',
      stores({ configmaps: {}, 'apps/deployments': {}, namespaces: {} }, (r) => (r === 'namespaces' ? 7 : undefined)),
    );
    const feed = fakeFeed();
    counted.follow(feed);
    const expect = (cm: number, deploy: number) =>
      new Map([
        ['configmaps', cm],
        ['deployments.apps', deploy],
        ['namespaces', 7],
      ]);
    // The namespaces' loaded cache answers; the others are counted once, then kept.
    assert.deepEqual(await counted.count(storage), expect(3, 2));
    assert.deepEqual(lists.sort(), ['/registry/apps/deployments/', '/registry/configmaps/']);
    lists.length = 0;
    assert.deepEqual(await counted.count(storage), expect(3, 2));
    assert.deepEqual(lists, []);
    // A change at or before the count's revision is in it; one after is counted again.
    feed.feed.listener!.change('/registry/configmaps/ns/a', 10);
    assert.deepEqual(await counted.count(storage), expect(3, 2));
    assert.deepEqual(lists, []);
    sizes.set('/registry/apps/deployments/', 5);
    revision.now = 12;
    feed.feed.listener!.change('/registry/apps/deployments/ns/web', 11);
    assert.deepEqual(await counted.count(storage), expect(3, 5));
    assert.deepEqual(lists, ['/registry/apps/deployments/']);
    lists.length = 0;
    // History lost: every count is taken again.
    feed.feed.listener!.reset();
    assert.deepEqual(await counted.count(storage), expect(3, 5));
    assert.deepEqual(lists.sort(), ['/registry/apps/deployments/', '/registry/configmaps/']);
    lists.length = 0;
    // The feed behind or down: nothing kept is trusted, not even the caches.
    feed.feed.fresh = false;
    sizes.set('/registry/namespaces/', 4);
    assert.deepEqual(await counted.count(storage), new Map([...expect(3, 5), ['namespaces', 4]]));
    assert.equal(lists.length, 3);
  });
});
