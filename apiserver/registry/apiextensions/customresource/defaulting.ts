/**
 * Structural defaulting, as Kubernetes applies a CRD schema's `default`s: a missing property whose
 * schema has a default gets a copy of it (then its own nested defaults), in objects, array items and
 * additionalProperties values; `null` in a non-nullable property with a default is replaced too.
 */
import type { Schema } from '../../../api/schema.js';
import { deepCopy, isPlainObject } from '../../../api/object.js';

export function applySchemaDefaults(value: unknown, s: Schema): void {
  if (Array.isArray(value)) {
    if (s.items) for (const item of value) applySchemaDefaults(item, s.items);
    return;
  }
  if (!isPlainObject(value)) return; // arrays were handled above
  const obj = value;
  for (const [key, child] of Object.entries(s.properties ?? {})) {
    if (child.default !== undefined && (!(key in obj) || (obj[key] === null && !child.nullable))) obj[key] = deepCopy(child.default);
    if (key in obj) applySchemaDefaults(obj[key], child);
  }
  if (typeof s.additionalProperties === 'object') {
    for (const v of Object.values(obj)) applySchemaDefaults(v, s.additionalProperties);
  }
}

/** Whether a schema has a default anywhere (objects of schemas without any skip the walk). */
export function hasDefaults(s: Schema): boolean {
  if (s.default !== undefined) return true;
  const children = [...Object.values(s.properties ?? {}), ...(s.items ? [s.items] : [])];
  if (typeof s.additionalProperties === 'object') children.push(s.additionalProperties);
  return children.some(hasDefaults);
}
