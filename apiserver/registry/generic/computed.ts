/** Reads of a computed kind (actions.ts ComputedObjects): made on each request, selected like stored objects. */
import type { ApiList, ApiObject } from '../../api/object.js';
import * as status from '../../api/status.js';
import type { ComputedObjects } from './actions.js';
import type { ReadSource } from './read-source.js';
import type { RequestContext } from './request-context.js';
import type { ListOptions } from './list-options.js';
import { newSelection } from './selection.js';

function served(store: ReadSource, obj: ApiObject): ApiObject {
  return { kind: store.def.kind, apiVersion: store.def.apiVersion, ...obj };
}

export async function getComputed(store: ReadSource, computed: ComputedObjects, ctx: RequestContext, name: string): Promise<ApiObject> {
  const found = (await computed.list(ctx)).find((o) => o.metadata.name === name);
  if (!found) throw status.notFound(store.groupResource, name);
  return served(store, found);
}

export async function listComputed(store: ReadSource, computed: ComputedObjects, ctx: RequestContext, opts: ListOptions): Promise<ApiList> {
  const selection = newSelection(store.def, opts.labelSelector, opts.fieldSelector);
  const items = (await computed.list(ctx)).filter((o) => selection.matches(o)).map((o) => served(store, o));
  return { kind: store.def.listKind, apiVersion: store.def.apiVersion, metadata: {}, items };
}
