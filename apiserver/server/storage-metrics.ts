/**
 * What the metrics know of storage: the resource a key belongs to ("pods", "deployments.apps"), and
 * how many objects each stored resource holds (apiserver_storage_objects), counted when scraped.
 */
import type { ResourceDef } from '../api/resource.js';
import type { GenericStore } from '../registry/generic/store.js';
import type { Storage } from '../storage/interfaces.js';

export interface StorageMetricSources {
  /** The resource label of a storage key; '' for keys of no served resource (allocators, markers). */
  typeOf(key: string): string;
  /** Objects per stored resource. */
  count(storage: Storage): Promise<Map<string, number>>;
}

/** `stores` is read on first use (it exists once the server is wired). */
export function newStorageMetricSources(storagePrefix: string, stores: () => ReadonlyMap<ResourceDef, GenericStore>): StorageMetricSources {
  const base = `${storagePrefix.replace(/\/+$/, '')}/`;
  let roots: Map<string, string> | undefined;
  const labels = () => {
    if (roots) return roots;
    roots = new Map();
    for (const [def, store] of stores()) {
      if (def.notStored || def.ephemeral) continue;
      const root = store.keys.listPrefix('');
      const [a, b] = root.slice(base.length).split('/');
      roots.set(root, b ? `${b}.${a}` : a);
    }
    return roots;
  };
  return {
    typeOf(key) {
      const known = labels();
      if (!key.startsWith(base)) return '';
      // The resource root is the key up to its first or second '/' after the base (a group's resources).
      const first = key.indexOf('/', base.length);
      if (first < 0) return '';
      const second = key.indexOf('/', first + 1);
      return (second >= 0 && known.get(key.slice(0, second + 1))) || known.get(key.slice(0, first + 1)) || '';
    },
    async count(storage) {
      const counts = new Map<string, number>();
      await Promise.all(
        [...labels()].map(async ([root, label]) => {
          const r = await storage.list(root, { limit: 1 });
          counts.set(label, r.items.length + r.remaining);
        }),
      );
      return counts;
    },
  };
}
