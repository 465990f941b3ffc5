/**
 * One generic store per served resource, each with its kind's hooks, actions and computed objects made
 * from the server's environment, and a look-up of the others for its actions.
 */
import type { ResourceDef } from '../../api/resource.js';
import type { ResourceTable } from '../../api/resource-table.js';
import { GenericStore, type StoreConfig } from './store.js';
import type { StoreHookEnv } from './store-hooks.js';
import { type Answer, answerAction, answerKey, type StoreAction, type StoreLookup } from './actions.js';
import type { KindDeclaration } from './kind-declaration.js';

export type StoresConfig = Omit<StoreConfig, 'def' | 'hooks' | 'actions' | 'createAction' | 'computed' | 'lookup'> & {
  hookEnv: StoreHookEnv;
  /** What the server answers for kinds and subresources never stored, by answerKey(); absent = not served. */
  answers?: ReadonlyMap<string, Answer>;
};

const declared = (d: { kubernetesGroup: string; version: string; plural: string }) => `${d.kubernetesGroup}/${d.version}/${d.plural}`;

export function newStores(
  table: ResourceTable,
  declarations: readonly KindDeclaration[],
  config: StoresConfig,
): Map<ResourceDef, GenericStore> {
  const { hookEnv, answers, ...storeConfig } = config;
  const byKey = new Map(declarations.map((d) => [declared(d), d]));
  const stores = new Map<ResourceDef, GenericStore>();
  const byDeclared = new Map<string, GenericStore>();
  const lookup: StoreLookup = {
    store(kubernetesGroup, version, plural) {
      const store = byDeclared.get(declared({ kubernetesGroup, version, plural }));
      if (!store) throw new Error(`no store for ${declared({ kubernetesGroup, version, plural })}`);
      return store;
    },
  };
  const answered = (key: string): StoreAction | undefined => {
    const answer = answers?.get(key);
    return answer && answerAction(answer);
  };
  for (const def of table.all()) {
    const d = byKey.get(declared(def));
    // Answered subresources (serviceaccounts/token) are actions like any other, when the server answers them.
    const actions: Record<string, StoreAction> = { ...d?.actions };
    for (const sub of Object.keys(def.createSubresources ?? {})) {
      const action = answered(answerKey(def.group, def.plural, sub));
      if (action) actions[sub] = action;
    }
    const store = new GenericStore({
      ...storeConfig,
      def,
      hooks: d?.hooks?.(hookEnv),
      actions,
      createAction: def.ephemeral ? (answered(answerKey(def.group, def.plural)) ?? d?.newCreateAction?.(hookEnv)) : d?.createAction,
      computed: d?.computed?.(hookEnv),
      lookup,
    });
    stores.set(def, store);
    byDeclared.set(declared(def), store);
  }
  return stores;
}
