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
import type { ApiObject } from '../api/object.js';
import type { Equivalent, KubeResource, ObjectReader, ObjectWriter, PluginEnv, ReadOptions } from '../admission/interfaces.js';
import { typedReader } from '../admission/resources.js';
import type { Watch } from '../registry/generic/watch.js';
import type { GenericStore } from '../registry/generic/store.js';
import type { RequestContext } from '../registry/generic/request-context.js';
import { SYSTEM_USER } from './bootstrap-namespaces.js';

export interface AdmissionAccess {
  reader: ObjectReader;
  writer: ObjectWriter;
  watch: PluginEnv['watch'];
  equivalents: PluginEnv['equivalents'];
  /** Stops the watches. */
  close(): void;
}

/** The object in another resource's served form. */
function served(def: ResourceDef, obj: ApiObject): ApiObject {
  return { ...obj, apiVersion: def.apiVersion, kind: def.kind };
}

/** A cached read is resourceVersion "0": whatever the watch cache holds. */
const readOptions = (opts: ReadOptions) => (opts.cached ? { resourceVersion: '0' } : {});

/** `stores` is read lazily: admission is built before the stores that take it. */
export function newAdmissionAccess(
  table: ResourceTable,
  domain: ApiDomain,
  stores: () => ReadonlyMap<ResourceDef, GenericStore>,
): AdmissionAccess {
  const found = new Map<string, GenericStore>();
  const storeOf = (r: KubeResource): GenericStore => {
    const id = `${r.resource}.${r.group}`;
    let store = found.get(id);
    if (store) return store;
    const group = domain.group(r.group);
    const def = table.all().find((d) => d.group === group && d.plural === r.resource && !d.conversion);
    store = def && stores().get(def);
    if (!store) throw status.internal(new Error(`admission: no store for ${id}`));
    found.set(id, store);
    return store;
  };
  const ctx = (namespace: string): RequestContext => ({ namespace, user: SYSTEM_USER, dryRun: false, now: new Date() });
  const watches = new Set<Watch>();
  let closed = false;
  const sameStorage = (d: ResourceDef, s: { kubernetesGroup: string; version: string; resource: string }) =>
    d.kubernetesGroup === s.kubernetesGroup && d.version === s.version && d.plural === s.resource;
  return {
    watch(r, changed) {
      const start = async () => {
        if (closed) return;
        let w: Watch | undefined;
        try {
          w = await storeOf(r).watch(
            ctx(''),
            {},
            {
              send: () => {
                changed();
                return true;
              },
              close: () => {
                if (w) watches.delete(w);
                changed();
                setTimeout(start, 100).unref();
              },
            },
          );
          watches.add(w);
        } catch {
          setTimeout(start, 1000).unref();
        }
      };
      // The stores exist once admission does: start on the next turn.
      setImmediate(start);
    },
    equivalents(def) {
      const out: Equivalent[] = [];
      const conv = def.conversion;
      if (conv) {
        const target = table.all().find((d) => !d.conversion && sameStorage(d, conv.storage));
        if (target)
          out.push({
            def: target,
            convert: (o) => served(target, conv.toStorage(o)),
            convertBack: (o) => served(def, conv.fromStorage(o)),
          });
      }
      for (const other of table.all()) {
        const oc = other.conversion;
        if (other === def || !oc || !sameStorage(def, oc.storage)) continue;
        out.push({ def: other, convert: (o) => served(other, oc.fromStorage(o)), convertBack: (o) => served(def, oc.toStorage(o)) });
      }
      return out;
    },
    close() {
      closed = true;
      for (const w of watches) w.stop();
      watches.clear();
    },
    reader: typedReader({
      async get(r, namespace, name, opts = {}) {
        try {
          return await storeOf(r).get(ctx(namespace), name, readOptions(opts));
        } catch (err) {
          if (status.isApiError(err, 'NotFound')) return null;
          throw err;
        }
      },
      async list(r, namespace, opts = {}) {
        return (await storeOf(r).list(ctx(namespace), readOptions(opts))).items;
      },
    }),
    writer: {
      create: (r, namespace, obj) => storeOf(r).create(ctx(namespace), obj),
      async replace(r, namespace, obj, subresource) {
        const { object } = await storeOf(r).update(ctx(namespace), obj.metadata.name!, () => obj, { subresource });
        return object;
      },
    },
  };
}
