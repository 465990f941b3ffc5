/**
 * What a kind does besides storing what it is sent (a pure Strategy cannot): actions — a POST of one
 * kind that acts on stored objects (a Binding assigns a pod to a node, an Eviction deletes a pod when the
 * disruption budgets allow it) or is only answered, never stored (TokenReview, the access reviews,
 * serviceaccounts/token: `answerAction` over what the server computes) — and computed kinds, whose
 * objects are not stored but made on each read (ComponentStatus). A kind's declaration names its
 * actions (kind-declaration.ts), the server wires the answers (newStores' `answers`); every
 * action is admitted as a CREATE of its kind before it runs (GenericStore.act).
 */
import type { ApiList, ApiObject } from '../../api/object.js';
import type { ResourceDef } from '../../api/resource.js';
import type { ListOptions } from './list-options.js';
import type { UserInfo } from '../../api/user-info.js';
import type { ObjectStore } from './object-store.js';
import type { RequestContext } from './request-context.js';
import type { StoreHookEnv } from './store-hooks.js';

/** The stores an action reads and writes, by Kubernetes group ('' core), version and plural. */
export interface StoreLookup {
  store(kubernetesGroup: string, version: string, plural: string): ObjectStore;
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
  /** A kind whose listing pages itself (DeletedObject): one page, by the list's limit and continue. */
  page?(ctx: RequestContext, opts: ListOptions, def: ResourceDef): Promise<ApiList>;
}

/** A computed kind's objects, made once per server from its environment (as store hooks are). */
export type ComputedObjectsFactory = (env: StoreHookEnv) => ComputedObjects;

/** metav1.Status{Status: Success} with a code, as action endpoints answer. */
export function successStatus(code: number): ActionResult {
  return { code, object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code } };
}

/** What an answered kind or subresource is asked: the decoded body and who asks. */
export interface AnswerRequest {
  /** The request's namespace ('' for cluster-scoped kinds). */
  namespace: string;
  /** The parent object's name for a subresource (serviceaccounts/<name>/token), else the body's. */
  name: string;
  user: UserInfo;
  dryRun: boolean;
  object: ApiObject;
  /** The served apiVersion of the body (authentication.orch.io/v1, …). */
  apiVersion: string;
}

/** Computes the answer to a kind that is never stored, from the request alone. */
export type Answer = (r: AnswerRequest) => Promise<ApiObject>;

/** The key of an answer: "<served group>/<plural>" or "<served group>/<plural>/<subresource>". */
export function answerKey(group: string, plural: string, subresource = ''): string {
  return subresource ? `${group}/${plural}/${subresource}` : `${group}/${plural}`;
}

/** The action of an answered kind: 201 with the answer, typed as the request's body. */
export function answerAction(answer: Answer): StoreAction {
  return {
    async run(_stores, ctx, name, body) {
      const apiVersion = body.apiVersion ?? '';
      const out = await answer({ namespace: ctx.namespace, name, user: ctx.user, dryRun: ctx.dryRun, object: body, apiVersion });
      return { code: 201, object: { ...out, apiVersion, kind: body.kind } };
    },
  };
}
