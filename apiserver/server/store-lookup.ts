/**
 * The server's look-up of its stores by Kubernetes group ('' core), version and plural: the
 * StoreLookup actions are given (answering the GenericStore itself), over the served table (which maps a group to its served domain).
 * `stores` is read at each call, as some users are built before the stores are.
 */
import type { ResourceDef } from '../api/resource.js';
import type { ResourceTable } from '../api/resource-table.js';
import type { GenericStore } from '../registry/generic/store.js';

/** StoreLookup (registry/generic/actions.ts) narrowed to the server's GenericStores. */
export interface ServerStoreLookup {
  store(kubernetesGroup: string, version: string, plural: string): GenericStore;
}

export function storeLookup(table: ResourceTable, stores: () => ReadonlyMap<ResourceDef, GenericStore> | undefined): ServerStoreLookup {
  return {
    store(kubernetesGroup, version, plural) {
      const def = table.lookup(table.domain.group(kubernetesGroup), version, plural);
      const store = def && stores()?.get(def);
      if (!store) throw new Error(`no store for ${kubernetesGroup}/${version}/${plural}`);
      return store;
    },
  };
}
