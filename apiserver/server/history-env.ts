/** The history group's environment (registry/history/history-env.ts): the server's stores and its authorizer. */
import type { Authorizer } from '../authorization/interfaces.js';
import type { GenericStore } from '../registry/generic/store.js';
import type { HistoryEnv } from '../registry/history/history-env.js';
import type { Storage } from '../storage/interfaces.js';

export function newHistoryEnv(storage: Storage, authorizer: Authorizer, stores: () => Iterable<GenericStore>): HistoryEnv {
  return {
    storage,
    stores,
    async may(user, q) {
      const r = await authorizer.authorize({
        user,
        verb: q.verb,
        resourceRequest: true,
        apiGroup: q.group,
        apiVersion: '*',
        resource: q.resource,
        subresource: q.subresource,
        namespace: q.namespace,
        name: q.name,
        path: '',
      });
      return r.decision === 'Allow';
    },
  };
}
