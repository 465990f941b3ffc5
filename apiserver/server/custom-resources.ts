/**
 * Custom resources inside every API server replica, as Kubernetes' apiextensions-apiserver runs them:
 * an informer over the CustomResourceDefinition store (watched, so a replica serves a CRD as soon as
 * its Established condition is stored) that
 * - serves each established CRD: its versions join the resource table, their schemas the definitions,
 *   each gets a generic store; discovery and OpenAPI follow; a changed or deleted CRD is served anew or
 *   no more (its watch cache and watchers closed);
 * - keeps each CRD's status: accepted names, NamesAccepted and Established (crd/naming.ts);
 * - finalizes a deleted CRD: Terminating while its objects are deleted, then its cleanup finalizer goes.
 * Every replica runs it; the writes are computed from the stored object, so replicas agree.
 */
import type { ApiObject } from '../api/object.js';
import { asApiObject, asKind, deepCopy } from '../api/object.js';
import type { ResourceDef } from '../api/resource.js';
import { ALL_VERBS } from '../api/resource.js';
import type { ResourceTable } from '../api/resource-table.js';
import type { Schema } from '../api/schema.js';
import type { CustomResourceDefinition } from '../api/generated/types.js';
import type { GenericStore } from '../registry/generic/store.js';
import type { RequestContext } from '../registry/generic/request-context.js';
import type { Cacher } from '../storage/cacher/cacher.js';
import type { Logger } from '../component-base/logs/logger.js';
import type { OpenApiSpecs } from '../endpoints/openapi-specs.js';
import { type CustomResourceConverter, customResourceServing } from '../registry/apiextensions/customresource/resource-defs.js';
import { reconcileNames } from '../registry/apiextensions/crd/naming.js';
import { cleanupFinalizer, isConditionTrue, setCondition } from '../registry/apiextensions/crd/conditions.js';
import { startStoreInformer, type StoreInformer } from './store-informer.js';
import { SYSTEM_USER } from './bootstrap-namespaces.js';
import * as status from '../api/status.js';

export interface CustomResourcesDeps {
  table: ResourceTable;
  /** The server's definitions, which the versions' schemas join. */
  definitions: Record<string, Schema>;
  /** The server's stores, which the versions' stores join. */
  stores: Map<ResourceDef, GenericStore>;
  /** A generic store for a custom resource version. */
  newStore(def: ResourceDef): GenericStore;
  crdStore: GenericStore;
  openapi: OpenApiSpecs;
  cacher?: Cacher;
  logger: Logger;
  /** Calls the conversion webhooks of CRDs with conversion strategy Webhook. */
  converter?: CustomResourceConverter;
}

export interface CustomResources {
  /** Resolves once the CRDs stored at start are served. */
  readonly synced: Promise<void>;
  stop(): void;
}

interface Served {
  /** What the serving was built from: spec, accepted names, terminating. */
  key: string;
  defs: ResourceDef[];
  definitions: string[];
}

/** How long a CRD whose objects are not all gone yet (finalizers) waits before the next round. */
const CLEANUP_RETRY_MS = 1000;

const asCrd = (o: ApiObject) => asKind<CustomResourceDefinition>(o);

export function startCustomResources(deps: CustomResourcesDeps): CustomResources {
  const { table, crdStore, logger } = deps;
  const domain = table.domain;
  const finalizer = cleanupFinalizer(domain.group('apiextensions.k8s.io'));
  const known = new Map<string, CustomResourceDefinition>();
  const served = new Map<string, Served>();
  const running = new Map<string, Promise<void>>();
  const dirty = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  const ctx = (namespace = ''): RequestContext => ({ namespace, user: SYSTEM_USER, dryRun: false, now: new Date() });

  const unserve = (name: string) => {
    const s = served.get(name);
    if (!s) return;
    served.delete(name);
    for (const def of s.defs) {
      const store = deps.stores.get(def);
      deps.stores.delete(def);
      if (store) deps.cacher?.forget(store);
    }
    for (const d of s.definitions) delete deps.definitions[d];
    table.setCustom(name, []);
    deps.openapi.invalidate();
  };

  const serve = (crd: CustomResourceDefinition) => {
    const name = crd.metadata.name!;
    const terminating = !!crd.metadata.deletionTimestamp;
    const key = JSON.stringify([crd.spec, crd.status?.acceptedNames, terminating]);
    if (served.get(name)?.key === key) return;
    unserve(name);
    const { defs, definitions } = customResourceServing(crd, domain, deps.converter);
    // While its objects are being removed, a CRD's resources take no new ones (Kubernetes refuses creates then).
    const servedDefs = terminating ? defs.map((d) => ({ ...d, verbs: ALL_VERBS.filter((v) => v !== 'create') })) : defs;
    Object.assign(deps.definitions, definitions);
    for (const def of servedDefs) deps.stores.set(def, deps.newStore(def));
    table.setCustom(name, servedDefs);
    served.set(name, { key, defs: servedDefs, definitions: Object.keys(definitions) });
    deps.openapi.invalidate();
    logger.info('serving custom resource', { crd: name, versions: servedDefs.map((d) => d.version), terminating });
  };

  const storageStore = (name: string): GenericStore | undefined => {
    const s = served.get(name);
    const def = s?.defs.find((d) => !d.conversion) ?? s?.defs[0];
    return def && deps.stores.get(def);
  };

  /** Deletes the CRD's objects; true once none is left. */
  const deleteInstances = async (name: string): Promise<boolean> => {
    const store = storageStore(name);
    if (!store) return true;
    const list = await store.list(ctx());
    for (const obj of list.items) {
      if (obj.metadata.deletionTimestamp) continue;
      try {
        await store.delete(ctx(obj.metadata.namespace ?? ''), obj.metadata.name!);
      } catch (err) {
        if (!status.isApiError(err) || err.status.code !== 404) throw err;
      }
    }
    return list.items.length === 0 || (await store.list(ctx())).items.length === 0;
  };

  const writeStatus = (name: string, change: (crd: CustomResourceDefinition) => boolean) =>
    crdStore.update(
      ctx(),
      name,
      (old) => {
        if (!old) throw status.notFound(crdStore.groupResource, name);
        const next = asCrd(deepCopy(old));
        if (!change(next)) return old;
        return asApiObject(next);
      },
      { subresource: 'status' },
    );

  const finalize = async (crd: CustomResourceDefinition): Promise<void> => {
    const name = crd.metadata.name!;
    if (!crd.metadata.finalizers?.includes(finalizer)) return;
    const progress = {
      type: 'Terminating' as const,
      status: 'True',
      reason: 'InstanceDeletionInProgress',
      message: 'CustomResource deletion is in progress',
    };
    await writeStatus(name, (c) => setCondition(c, progress, new Date()));
    if (!(await deleteInstances(name))) {
      schedule(name, CLEANUP_RETRY_MS);
      return;
    }
    const done = { type: 'Terminating' as const, status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' };
    await writeStatus(name, (c) => setCondition(c, done, new Date()));
    await crdStore.update(ctx(), name, (old) => {
      if (!old) throw status.notFound(crdStore.groupResource, name);
      const next = deepCopy(old);
      next.metadata.finalizers = (next.metadata.finalizers ?? []).filter((f) => f !== finalizer);
      return next;
    });
  };

  const reconcile = async (name: string): Promise<void> => {
    const crd = known.get(name);
    if (!crd) return;
    if (crd.metadata.deletionTimestamp) {
      if (isConditionTrue(crd, 'Established')) serve(crd);
      await finalize(crd);
      return;
    }
    const others = [...known.values()];
    const desired = deepCopy(crd);
    if (reconcileNames(desired, others, new Date())) {
      await writeStatus(name, (c) => reconcileNames(c, [...known.values()], new Date()));
      return; // the write comes back as an event
    }
    if (isConditionTrue(crd, 'Established') && crd.status?.acceptedNames) serve(crd);
    else unserve(name);
  };

  /** Runs reconcile(name) one at a time per CRD; a change while it runs runs it again. */
  const enqueue = (name: string) => {
    if (stopped) return;
    if (running.has(name)) {
      dirty.add(name);
      return;
    }
    const run = reconcile(name)
      .catch((err: unknown) => {
        // Gone meanwhile: its DELETED event ends it.
        if (status.isApiError(err) && err.status.code === 404) return;
        logger.warn('custom resource definition reconcile failed, retrying', { crd: name, err: String(err) });
        schedule(name, 500);
      })
      .finally(() => {
        running.delete(name);
        if (dirty.delete(name)) enqueue(name);
      });
    running.set(name, run);
  };

  const schedule = (name: string, ms: number) => {
    const t = setTimeout(() => {
      timers.delete(t);
      enqueue(name);
    }, ms);
    timers.add(t);
  };

  let markSynced: () => void = () => {};
  const synced = new Promise<void>((resolve) => (markSynced = resolve));
  const informer: StoreInformer = startStoreInformer(
    crdStore,
    {
      replace(objs) {
        const names = new Set(objs.map((o) => o.metadata.name!));
        for (const name of [...known.keys()]) if (!names.has(name)) known.delete(name);
        for (const name of [...served.keys()]) if (!names.has(name)) unserve(name);
        for (const o of objs) known.set(o.metadata.name!, asCrd(o));
        // The CRDs established before this replica started are served before it reports ready.
        for (const o of objs) {
          const crd = asCrd(o);
          if (isConditionTrue(crd, 'Established') && crd.status?.acceptedNames) serve(crd);
        }
        for (const name of names) enqueue(name);
        markSynced();
      },
      put(o) {
        known.set(o.metadata.name!, asCrd(o));
        enqueue(o.metadata.name!);
      },
      remove(o) {
        known.delete(o.metadata.name!);
        unserve(o.metadata.name!);
        // Names a deleted CRD held may now be free for another.
        for (const name of known.keys()) enqueue(name);
      },
    },
    { logger },
  );
  return {
    synced,
    stop() {
      stopped = true;
      informer.stop();
      for (const t of timers) clearTimeout(t);
    },
  };
}
