/**
 * The status subresource contract, the same for every kind that has one: writes to the main resource
 * keep the stored status (create starts without one), writes to /status change only status.
 */
import type { ApiObject } from '../api/object.js';
import { deepCopy } from '../api/object.js';
import type { SubresourceStrategy } from '../api/strategy.js';

export const statusSubresource: SubresourceStrategy = {
  prepareForUpdate: (obj, old) => withStatusOf(obj, old),
};

/** A write to /status: the stored object with the request's status (none when the request has none). */
export function withStatusOf<T extends { metadata: object; status?: unknown }>(obj: T, old: T): T {
  const next = deepCopy(old);
  if (obj.status === undefined) delete next.status;
  else next.status = deepCopy(obj.status);
  return next;
}

/** Main-resource writes: a new object has no status yet; an update keeps the stored one. */
export function resetStatusForMainResource(obj: ApiObject, old: ApiObject | null): void {
  if (old === null || old.status === undefined) delete obj.status;
  else obj.status = deepCopy(old.status);
}
