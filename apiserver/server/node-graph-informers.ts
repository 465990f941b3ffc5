/** Keeps the Node authorizer's graph current with Pods and PersistentVolumeClaims, each through its store's informer. */
import type { ApiObject } from '../api/object.js';
import type { ResourceTable } from '../api/resource-table.js';
import type { ResourceDef } from '../api/resource.js';
import type { GenericStore } from '../registry/generic/store.js';
import type { NodeGraph } from '../authorization/node/graph.js';
import { startStoreInformer } from './store-informer.js';
import { storeLookup } from './store-lookup.js';
import type { Logger } from '../component-base/logs/logger.js';

export function startNodeGraphInformers(
  graph: NodeGraph,
  table: ResourceTable,
  stores: Map<ResourceDef, GenericStore>,
  env: { logger: Logger },
): { synced: Promise<void>; stop(): void } {
  const lookup = storeLookup(table, () => stores);
  const store = (plural: string) => lookup.store('', 'v1', plural);
  const pods = startStoreInformer(
    store('pods'),
    { replace: (objs: ApiObject[]) => graph.replacePods(objs), put: (o) => graph.putPod(o), remove: (o) => graph.removePod(o) },
    env,
  );
  const claims = startStoreInformer(
    store('persistentvolumeclaims'),
    { replace: (objs: ApiObject[]) => graph.replaceClaims(objs), put: (o) => graph.putClaim(o), remove: (o) => graph.removeClaim(o) },
    env,
  );
  return {
    synced: Promise.all([pods.synced, claims.synced]).then(() => {}),
    stop: () => {
      pods.stop();
      claims.stop();
    },
  };
}
