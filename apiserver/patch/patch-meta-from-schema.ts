/**
 * Strategic merge patch metadata read from a kind's schema: for a field path, its
 * x-orch-patch-strategy / x-orch-patch-merge-key and list/map type markers.
 */
import type { Definitions, Schema } from '../api/schema.js';
import { resolveSchema, ownProperty } from '../api/schema.js';
import type { PatchMeta, PatchSchema } from './strategic-merge-patch.js';

function childSchema(s: Schema, name: string, defs: Definitions): Schema | undefined {
  const r = resolveSchema(s, defs);
  const next = r.type === 'array' && r.items ? resolveSchema(r.items, defs) : r;
  return ownProperty(next.properties, name) ?? (typeof next.additionalProperties === 'object' ? next.additionalProperties : undefined);
}

export function newPatchSchemaFromDefinitions(defs: Definitions, root: Schema): PatchSchema {
  const cache = new Map<string, PatchMeta | undefined>();
  return {
    lookup(path: string[]): PatchMeta | undefined {
      const key = path.join('.');
      if (cache.has(key)) return cache.get(key);
      let s: Schema | undefined = root;
      for (const name of path) {
        s = s && childSchema(s, name, defs);
        if (!s) break;
      }
      let meta: PatchMeta | undefined;
      if (s) {
        meta = {};
        if (s['x-orch-patch-strategy']) meta.patchStrategy = s['x-orch-patch-strategy'];
        if (s['x-orch-patch-merge-key']) meta.patchMergeKey = s['x-orch-patch-merge-key'];
        if (s['x-orch-list-type']) meta.listType = s['x-orch-list-type'];
        if (s['x-orch-list-map-keys']) meta.mapKeys = s['x-orch-list-map-keys'];
      }
      cache.set(key, meta);
      return meta;
    },
  };
}
