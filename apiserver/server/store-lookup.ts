/**
 * The server's look-up of its stores by Kubernetes group ('' core), version and plural: the
 * StoreLookup actions are given, over the served table (which maps a group to its served domain).
 * `stores` is read at each call, as some users are built before the stores are.
 */
import type { ResourceDef } from '../api/resource.js';
import type { ResourceTable } from '../api/resource-table.js';
import type { StoreLookup } from '../registry/actions.js';
import type { GenericStore } from '../registry/store.js';

export function storeLookup(table: ResourceTable, stores: () => ReadonlyMap<ResourceDef, GenericStore> | undefined): StoreLookup {
  return {
    store(kubernetesGroup, version, plural) {
      const def = table.lookup(table.domain.group(kubernetesGroup), version, plural);
      const store = def && stores()?.get(def);
      if (!store) throw new Error(`no store for ${kubernetesGroup}/${version}/${plural}`);
      return store;
    },
  };
}
