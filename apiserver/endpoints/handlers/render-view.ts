/** Reads answer in the negotiated view: the object(s), a Table, or PartialObjectMetadata. */
import type { ApiList, ApiObject } from '../../api/object.js';
import { parseIncludeObject, partialObjectMetadata, partialObjectMetadataList, toTable } from '../table.js';
import type { RequestScope } from './scope.js';

/** `now` is when the answer is rendered: the request's time, or for a watch event the time it is sent. */
export function renderObject(s: RequestScope, obj: ApiObject, noHeaders = false, now: Date = s.ctx.now): unknown {
  const { view, viewApiVersion } = s.output;
  if (view === 'metadata') return partialObjectMetadata(obj, viewApiVersion);
  if (view === 'table') {
    const includeObject = parseIncludeObject(s.query.get('includeObject'));
    return toTable(s.def, [obj], { apiVersion: viewApiVersion, includeObject, now, noHeaders });
  }
  return obj;
}

export function renderList(s: RequestScope, list: ApiList): unknown {
  const { view, viewApiVersion } = s.output;
  if (view === 'metadata') return partialObjectMetadataList(list, viewApiVersion);
  if (view === 'table') {
    const includeObject = parseIncludeObject(s.query.get('includeObject'));
    return toTable(s.def, list.items, { apiVersion: viewApiVersion, includeObject, now: s.ctx.now }, list.metadata);
  }
  return list;
}
