/**
 * The store validates with Strategy.validate on create and on update (followed by validateUpdate).
 * Kinds whose create rules differ from their update rules tell the two apart here: an object being
 * created has no resourceVersion yet, a stored one always has one.
 */
import type { ApiObject } from '../../../api/object.js';

export function isBeingCreated(obj: ApiObject): boolean {
  return !obj.metadata.resourceVersion;
}
