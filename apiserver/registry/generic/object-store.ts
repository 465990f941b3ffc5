/**
 * A kind's objects as the code above the store reads and writes them (actions.ts: an action looks
 * up the stores it acts on): get, list, create, update, delete. GenericStore is one; the interface
 * lies below the store so that what it hands stores to never imports it.
 */
import type { ApiList, ApiObject } from '../../api/object.js';
import type { GroupResource } from '../../api/status.js';
import type { RequestContext } from './request-context.js';
import type { GetOptions } from './get.js';
import type { ListOptions } from './list-options.js';
import type { DeleteOptions } from './delete-options.js';

/** Computes the object to write from the stored one (null when absent): a PUT body, a patch result. */
export type UpdateFn = (old: ApiObject | null) => Promise<ApiObject> | ApiObject;

/**
 * Records field ownership (fieldmanager/) on the object a write is about to store, given the stored
 * object (null on create). Runs after defaulting and before admission and the strategy, as Kubernetes'
 * field manager does — for a subresource, after the subresource has taken its part of the request.
 */
export type TrackFields = (obj: ApiObject, live: ApiObject | null) => ApiObject;

export interface UpdateResult {
  object: ApiObject;
  created: boolean;
}

export interface UpdateOptions {
  subresource?: string;
  allowCreate?: boolean;
  trackFields?: TrackFields;
}

export interface DeleteResult {
  object: ApiObject;
  /** False when the object stays (finalizers, graceful deletion). */
  deleted: boolean;
}

export interface ObjectStore {
  /** The group and plural its errors name. */
  readonly groupResource: GroupResource;
  get(ctx: RequestContext, name: string, opts?: GetOptions): Promise<ApiObject>;
  list(ctx: RequestContext, opts?: ListOptions): Promise<ApiList>;
  create(ctx: RequestContext, input: ApiObject, opts?: { trackFields?: TrackFields }): Promise<ApiObject>;
  update(ctx: RequestContext, name: string, compute: UpdateFn, opts?: UpdateOptions): Promise<UpdateResult>;
  delete(ctx: RequestContext, name: string, options?: DeleteOptions): Promise<DeleteResult>;
}
