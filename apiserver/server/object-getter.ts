/**
 * The ObjectGetter authenticators read ServiceAccounts, Secrets and Pods through: a get with
 * resourceVersion "0", so the watch cache answers once loaded (as kube-apiserver's informers do: a
 * deletion is seen within the watch's latency) and the store otherwise.
 */
import type { ObjectGetter } from '../authentication/interfaces.js';
import type { ResourceTable } from '../api/resource-table.js';
import type { ResourceDef } from '../api/resource.js';
import * as status from '../api/status.js';
import type { GenericStore } from '../registry/generic/store.js';
import { SYSTEM_USER } from './bootstrap-namespaces.js';
import { storeLookup } from './store-lookup.js';

/** `stores` is read at each call: authentication is built before the stores that serve what it answers. */
export function newObjectGetter(table: ResourceTable, stores: () => ReadonlyMap<ResourceDef, GenericStore>): ObjectGetter {
  const lookup = storeLookup(table, stores);
  return async (resource, namespace, name) => {
    const store = lookup.store('', 'v1', resource);
    try {
      return await store.get({ namespace, user: SYSTEM_USER, dryRun: false, now: new Date() }, name, { resourceVersion: '0' });
    } catch (err) {
      if (status.isApiError(err, 'NotFound')) return null;
      throw err;
    }
  };
}
