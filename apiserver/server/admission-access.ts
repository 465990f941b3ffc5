/**
 * The doors admission plugins read and write other objects through (admission/interfaces.ts:
 * ObjectReader, ObjectWriter): the generic stores' own get/list (consistent reads, served by the watch
 * cache once it is proved fresh) and create/update, as the API server's own user. admission/ never
 * sees a store; this is the only place the two meet.
 */
import type { ApiDomain } from '../api/domain.js';
import type { ResourceDef } from '../api/resource.js';
import type { ResourceTable } from '../api/resource-table.js';
import * as status from '../api/status.js';
import type { KubeResource, ObjectReader, ObjectWriter } from '../admission/interfaces.js';
import type { GenericStore } from '../registry/store.js';
import type { RequestContext } from '../registry/request-context.js';
import { SYSTEM_USER } from './bootstrap-namespaces.js';

export interface AdmissionAccess {
  reader: ObjectReader;
  writer: ObjectWriter;
}

/** `stores` is read lazily: admission is built before the stores that take it. */
export function newAdmissionAccess(
  table: ResourceTable,
  domain: ApiDomain,
  stores: () => ReadonlyMap<ResourceDef, GenericStore>,
): AdmissionAccess {
  const storeOf = (r: KubeResource): GenericStore => {
    const group = domain.group(r.group);
    const def = table.all().find((d) => d.group === group && d.plural === r.resource && !d.conversion);
    const store = def && stores().get(def);
    if (!store) throw status.internal(new Error(`admission: no store for ${r.resource}.${r.group}`));
    return store;
  };
  const ctx = (namespace: string): RequestContext => ({ namespace, user: SYSTEM_USER, dryRun: false, now: new Date() });
  return {
    reader: {
      async get(r, namespace, name) {
        try {
          return await storeOf(r).get(ctx(namespace), name);
        } catch (err) {
          if (status.isApiError(err, 'NotFound')) return null;
          throw err;
        }
      },
      async list(r, namespace) {
        return (await storeOf(r).list(ctx(namespace))).items;
      },
    },
    writer: {
      create: (r, namespace, obj) => storeOf(r).create(ctx(namespace), obj),
      async replace(r, namespace, obj, subresource) {
        const { object } = await storeOf(r).update(ctx(namespace), obj.metadata.name!, () => obj, { subresource });
        return object;
      },
    },
  };
}
