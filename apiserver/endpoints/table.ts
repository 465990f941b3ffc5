/**
 * Transformed views of objects (Accept `…;as=Table;g=meta.<domain>;v=v1` and
 * `as=PartialObjectMetadata[List]`): the Table kubectl prints, built from the kind's declared
 * columns, and metadata-only objects.
 */
import type { ApiList, ApiObject } from '../api/object.js';
import type { PrinterColumn, ResourceDef } from '../api/resource.js';
import * as status from '../api/status.js';
import { DEFAULT_COLUMNS, NAME_COLUMN } from '../api/printers/columns.js';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

export interface TableOptions {
  /** "meta.orch.io/v1" */
  apiVersion: string;
  includeObject: IncludeObject;
  now: Date;
  /** Watch events after the first carry rows only. */
  noHeaders?: boolean;
}

export function parseIncludeObject(v: string | null): IncludeObject {
  if (v === null || v === '') return 'Metadata';
  if (v === 'None' || v === 'Metadata' || v === 'Object') return v;
  throw status.badRequest(`includeObject: Unsupported value: "${v}": supported values: "Metadata", "None", "Object"`);
}

export function partialObjectMetadata(obj: ApiObject, apiVersion: string) {
  return { kind: 'PartialObjectMetadata', apiVersion, metadata: obj.metadata };
}

export function partialObjectMetadataList(list: ApiList, apiVersion: string) {
  return {
    kind: 'PartialObjectMetadataList',
    apiVersion,
    metadata: list.metadata,
    items: list.items.map((o) => partialObjectMetadata(o, apiVersion)),
  };
}

export function toTable(def: ResourceDef, objects: ApiObject[], opts: TableOptions, listMeta: ApiList['metadata'] = {}) {
  const declared = def.columns ?? DEFAULT_COLUMNS;
  // NAME leads unless the kind places its own name column (Events print it last, wide only).
  const columns: PrinterColumn[] = declared.some((c) => c.format === 'name') ? declared : [NAME_COLUMN, ...declared];
  const table: Record<string, unknown> = { kind: 'Table', apiVersion: opts.apiVersion, metadata: listMeta };
  if (!opts.noHeaders) {
    table.columnDefinitions = columns.map((c) => ({
      name: c.name,
      type: c.type ?? 'string',
      format: c.format ?? '',
      description: c.description ?? '',
      priority: c.priority ?? 0,
    }));
  }
  table.rows = objects.map((obj) => {
    const row: Record<string, unknown> = { cells: columns.map((c) => c.cell(obj, opts.now)) };
    if (opts.includeObject === 'Object') row.object = obj;
    else if (opts.includeObject === 'Metadata') row.object = partialObjectMetadata(obj, opts.apiVersion);
    return row;
  });
  return table;
}
