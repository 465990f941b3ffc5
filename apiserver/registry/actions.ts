/**
 * What a kind does besides storing what it is sent (a pure Strategy cannot): actions — a POST of one
 * kind that acts on stored objects (a Binding assigns a pod to a node, an Eviction deletes a pod when the
 * disruption budgets allow it) — and computed kinds, whose objects are not stored but made on each
 * read (ComponentStatus). A kind's declaration names them (resources/kind-declaration.ts); newStores
 * gives each store its own, with a look-up of the other stores an action writes through.
 */
import type { ApiObject } from '../api/object.js';
import type { GenericStore } from './store.js';
import type { RequestContext } from './request-context.js';
import type { StoreHookEnv } from './store-hooks.js';

/** The stores an action reads and writes, by Kubernetes group ('' core), version and plural. */
export interface StoreLookup {
  store(kubernetesGroup: string, version: string, plural: string): GenericStore;
}

/** What an action answers: the HTTP code and the object (a Status or an object). */
export interface ActionResult {
  code: number;
  object: unknown;
}

export interface StoreAction {
  /** Performs the action on the object `name` (the URL's name, or the body's for a collection POST) with the decoded body. */
  run(stores: StoreLookup, ctx: RequestContext, name: string, body: ApiObject): Promise<ActionResult>;
}

/** A kind whose objects are made on read: the current objects of a request. */
export interface ComputedObjects {
  list(ctx: RequestContext): Promise<ApiObject[]>;
}

/** A computed kind's objects, made once per server from its environment (as store hooks are). */
export type ComputedObjectsFactory = (env: StoreHookEnv) => ComputedObjects;

/** metav1.Status{Status: Success} with a code, as action endpoints answer. */
export function successStatus(code: number): ActionResult {
  return { code, object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code } };
}
