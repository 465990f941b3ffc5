/**
 * Keeps a PolicyCache current with the four RBAC resources, each through its store's informer; the
 * returned promise settles once all four have listed.
 */
import { type ApiObject, asKind } from '../api/object.js';
import type { ResourceTable } from '../api/resource-table.js';
import type { ResourceDef } from '../api/resource.js';
import type { GenericStore } from '../registry/generic/store.js';
import type { PolicyCache } from '../authorization/rbac/policy-cache.js';
import { RBAC_KINDS, type Binding, type Role } from '../authorization/rbac/types.js';
import { startStoreInformer, type StoreInformer } from './store-informer.js';
import { storeLookup } from './store-lookup.js';
import type { Logger } from '../component-base/logs/logger.js';

const PLURALS = { Role: 'roles', ClusterRole: 'clusterroles', RoleBinding: 'rolebindings', ClusterRoleBinding: 'clusterrolebindings' };

export function startRbacInformers(
  cache: PolicyCache,
  table: ResourceTable,
  stores: Map<ResourceDef, GenericStore>,
  env: { logger: Logger },
): { synced: Promise<void>; stop(): void } {
  const lookup = storeLookup(table, () => stores);
  const informers: StoreInformer[] = RBAC_KINDS.map((kind) => {
    const store = lookup.store('rbac.authorization.k8s.io', 'v1', PLURALS[kind]);
    const as = (o: ApiObject) => asKind<Role & Binding>(o);
    return startStoreInformer(
      store,
      {
        replace: (objs) => cache.replace(kind, objs.map(as)),
        put: (o) => cache.put(kind, as(o)),
        remove: (o) => cache.remove(kind, as(o)),
      },
      env,
    );
  });
  return {
    synced: Promise.all(informers.map((i) => i.synced)).then(() => {}),
    stop: () => {
      for (const i of informers) i.stop();
    },
  };
}
