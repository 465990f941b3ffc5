/**
 * What the metrics know of storage: the resource a key belongs to ("pods", "deployments.apps"), and
 * how many objects each stored resource holds (apiserver_storage_objects), exact when scraped.
 *
 * Counting every resource in the store on each scrape (one `limit=1` list per resource, some 60)
 * was most of a scrape's cost. With the watch cache, a count is read where it is already known once
 * the cache's feed has caught up with the store's current revision (one revision read per scrape):
 * a resource's loaded watch cache holds exactly its objects; any other keeps the count last taken
 * from the store at revision R for as long as the feed has routed no change of it after R (a change
 * by any replica comes through the feed). Only resources changed since are counted in the store
 * again; when the feed lost history, all are. Without a watch cache (or with its feed down) each
 * scrape counts every resource as before.
 */
import type { ResourceDef } from '../api/resource.js';
import type { GenericStore } from '../registry/generic/store.js';
import type { ChangeListener } from '../storage/cacher/cacher.js';
import type { Storage } from '../storage/interfaces.js';

export interface StorageMetricSources {
  /** The resource label of a storage key; '' for keys of no served resource (allocators, markers). */
  typeOf(key: string): string;
  /** Objects per stored resource. */
  count(storage: Storage): Promise<Map<string, number>>;
  /** Reads counts from the watch cache and keeps the store's between its changes (see the top). */
  follow(cacher: CountFeed): void;
}

/** What the counts need of the watch cache (a Cacher has it). */
export interface CountFeed {
  follow(listener: ChangeListener): () => void;
  caughtUpWithStore(): Promise<number | undefined>;
}

interface Root {
  label: string;
  /** The stores of the resource (kinds sharing storage share the root). */
  stores: GenericStore[];
}

/** `stores` is read on first use (it exists once the server is wired). */
export function newStorageMetricSources(storagePrefix: string, stores: () => ReadonlyMap<ResourceDef, GenericStore>): StorageMetricSources {
  const base = `${storagePrefix.replace(/\/+$/, '')}/`;
  let roots: Map<string, Root> | undefined;
  let rootsOf: ReadonlyMap<ResourceDef, GenericStore> | undefined;
  let rootsSize = 0;
  const resources = () => {
    const all = stores();
    // Custom resources add their stores to the same map later.
    if (roots && rootsOf === all && rootsSize === all.size) return roots;
    roots = new Map();
    rootsOf = all;
    rootsSize = all.size;
    for (const [def, store] of all) {
      if (def.notStored || def.ephemeral) continue;
      const root = store.keys.listPrefix('');
      const [a, b] = root.slice(base.length).split('/');
      const known = roots.get(root);
      if (known) known.stores.push(store);
      else roots.set(root, { label: b ? `${b}.${a}` : a, stores: [store] });
    }
    return roots;
  };

  // Following the watch cache's feed: the last change's revision under each key prefix a resource
  // root can be (one or two segments after the base), and the counts taken from the store.
  let feed: CountFeed | undefined;
  const lastChange = new Map<string, number>();
  const counted = new Map<string, { count: number; revision: number }>();
  let generation = 0;
  const listener: ChangeListener = {
    change(key, revision) {
      if (!key.startsWith(base)) return;
      const first = key.indexOf('/', base.length);
      if (first < 0) return;
      lastChange.set(key.slice(0, first + 1), revision);
      const second = key.indexOf('/', first + 1);
      if (second >= 0) lastChange.set(key.slice(0, second + 1), revision);
    },
    reset() {
      generation++;
      lastChange.clear();
      counted.clear();
    },
  };

  return {
    typeOf(key) {
      const known = resources();
      if (!key.startsWith(base)) return '';
      // The resource root is the key up to its first or second '/' after the base (a group's resources).
      const first = key.indexOf('/', base.length);
      if (first < 0) return '';
      const second = key.indexOf('/', first + 1);
      return (second >= 0 && known.get(key.slice(0, second + 1))?.label) || known.get(key.slice(0, first + 1))?.label || '';
    },
    async count(storage) {
      // Every change up to the store's current revision has reached the caches and `lastChange`.
      const fresh = feed ? (await feed.caughtUpWithStore()) !== undefined : false;
      const gen = generation;
      const counts = new Map<string, number>();
      await Promise.all(
        [...resources()].map(async ([root, { label, stores: kinds }]) => {
          if (fresh) {
            const cached = kinds.map((k) => k.cachedObjectCount()).find((n) => n !== undefined);
            if (cached !== undefined) return void counts.set(label, cached);
            const last = counted.get(root);
            if (last && last.revision >= (lastChange.get(root) ?? 0)) return void counts.set(label, last.count);
          }
          const r = await storage.list(root, { limit: 1 });
          const n = r.items.length + r.remaining;
          counts.set(label, n);
          // Kept only while the feed follows without a gap from before this count on.
          if (fresh && gen === generation) counted.set(root, { count: n, revision: r.revision });
        }),
      );
      return counts;
    },
    follow(cacher) {
      feed = cacher;
      cacher.follow(listener);
    },
  };
}
