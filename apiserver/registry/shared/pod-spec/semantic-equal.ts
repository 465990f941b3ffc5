/**
 * apiequality.Semantic.DeepEqual over decoded JSON: like Go's comparison of the typed objects, where
 * an absent field, null, "", an empty list and an empty map all decode to the same zero value.
 * (Numbers and booleans are compared as given: absent and 0/false differ, like Go pointers.)
 */
import { isPlainObject } from '../../../api/object.js';

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return isPlainObject(v) && Object.values(v).every(isEmpty);
}

/** Whether two decoded JSON values are semantically equal. */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (isEmpty(a) && isEmpty(b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => semanticEqual(x, b[i]));
  }
  // Neither is an array here, so plain objects are every object left.
  if (isPlainObject(a) && isPlainObject(b)) {
    const ao = a;
    const bo = b;
    return [...new Set([...Object.keys(ao), ...Object.keys(bo)])].every((k) => semanticEqual(ao[k], bo[k]));
  }
  return a === b;
}
