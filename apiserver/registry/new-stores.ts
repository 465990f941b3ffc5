/** One generic store per served resource, each with its kind's hooks made from the server's environment. */
import type { ResourceDef } from '../api/resource.js';
import type { ResourceTable } from '../api/resource-table.js';
import { GenericStore, type StoreConfig } from './store.js';
import type { StoreHookEnv } from './store-hooks.js';
import type { KindDeclaration } from './resources/kind-declaration.js';

export type StoresConfig = Omit<StoreConfig, 'def' | 'hooks'> & { hookEnv: StoreHookEnv };

const declared = (d: { kubernetesGroup: string; version: string; plural: string }) => `${d.kubernetesGroup}/${d.version}/${d.plural}`;

export function newStores(
  table: ResourceTable,
  declarations: readonly KindDeclaration[],
  config: StoresConfig,
): Map<ResourceDef, GenericStore> {
  const { hookEnv, ...storeConfig } = config;
  const hooks = new Map(declarations.map((d) => [declared(d), d.hooks]));
  const stores = new Map<ResourceDef, GenericStore>();
  for (const def of table.all()) {
    if (def.ephemeral) continue; // never stored: the server answers these kinds with its own handlers
    stores.set(def, new GenericStore({ ...storeConfig, def, hooks: hooks.get(declared(def))?.(hookEnv) }));
  }
  return stores;
}
