/**
 * Field management as the REST handlers use it: a FieldManager for the request's resource and
 * subresource, and the store steps (TrackFields) that record a write's fields.
 */
import type { ApiObject } from '../api/object.js';
import type { Definitions } from '../api/schema.js';
import type { GenericStore } from '../registry/generic/store.js';
import type { TrackFields } from '../registry/generic/object-store.js';
import type { RequestContext } from '../registry/generic/request-context.js';
import { FieldManager } from './field-manager.js';

/** The field manager of one request on one store's resource ('' = the main resource). */
export function newRequestFieldManager(store: GenericStore, definitions: Definitions, ctx: RequestContext, subresource = ''): FieldManager {
  const sctx = store.strategyContext(ctx);
  return new FieldManager({
    def: store.def,
    definitions,
    subresource,
    now: ctx.now,
    applyDefaults: (obj) => store.def.strategy?.applyDefaults?.(obj, sctx),
  });
}

/** Records what a create, update or non-apply patch by `manager` changes. */
export function trackUpdate(fm: FieldManager, manager: string): TrackFields {
  return (obj, live) => fm.updateNoErrors(live, obj, manager);
}

/**
 * Keeps the managedFields an apply computed (`applied()` is the apply's latest result) on the object
 * stored, which a subresource builds from the stored object.
 */
export function keepAppliedFields(applied: () => ApiObject): TrackFields {
  return (obj) => {
    const entries = applied().metadata.managedFields;
    if (entries) obj.metadata.managedFields = entries;
    else delete obj.metadata.managedFields;
    return obj;
  };
}
