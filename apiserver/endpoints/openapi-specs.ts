/**
 * The OpenAPI v2 and v3 documents of a resource table that changes at run time (custom resources):
 * built on first use, built again on the first use after invalidate().
 */
import type { ResourceTable } from '../api/resource-table.js';
import type { Definitions } from '../api/schema.js';
import type { PathOptions } from './openapi-common.js';
import { newOpenApiV2, type OpenApiV2 } from './openapi-v2.js';
import { newOpenApiV3, type OpenApiV3 } from './openapi-v3.js';

export interface OpenApiSpecs {
  v2: OpenApiV2;
  v3: OpenApiV3;
  /** The table or the definitions changed: the next read builds the documents again. */
  invalidate(): void;
}

export function newOpenApiSpecs(table: ResourceTable, defs: Definitions, options: PathOptions = {}): OpenApiSpecs {
  let v2: OpenApiV2 | undefined;
  let v3: OpenApiV3 | undefined;
  const currentV2 = () => (v2 ??= newOpenApiV2(table, defs, options));
  const currentV3 = () => (v3 ??= newOpenApiV3(table, defs, options));
  return {
    v2: { json: () => currentV2().json(), protobuf: () => currentV2().protobuf(), etag: (encoding) => currentV2().etag(encoding) },
    v3: { index: () => currentV3().index(), document: (path) => currentV3().document(path) },
    invalidate() {
      v2 = undefined;
      v3 = undefined;
    },
  };
}
