/**
 * The status subresource contract, the same for every kind that has one: writes to the main resource
 * keep the stored status (create starts without one), writes to /status keep the stored spec and take
 * the request's status. What of the request's metadata a /status write keeps (labels, annotations,
 * finalizers, owner references) is the kind's, as its Kubernetes status strategy's PrepareForUpdate:
 * most reset only the spec and so keep the request's metadata (controllers write annotations through
 * /status); some reset metadata too (`StatusMetadata`). System fields (uid, creation and deletion
 * timestamps, generation) are the store's either way.
 */
import { deepCopy } from '../../api/object.js';
import type { ObjectMeta } from '../../api/object-meta.js';
import type { SubresourceStrategy } from '../../api/strategy.js';

/** Which of the request's metadata a /status write keeps; the fields not kept stay as stored. */
export interface StatusMetadata {
  labels: boolean;
  annotations: boolean;
  finalizers: boolean;
  ownerReferences: boolean;
}

/** The strategies that reset only the spec (`newX.Spec = oldX.Spec`): every metadata change is kept. */
export const REQUEST_METADATA: StatusMetadata = { labels: true, annotations: true, finalizers: true, ownerReferences: true };

/**
 * The strategies that reset the metadata too (metav1.ResetObjectMetaForStatus, `ObjectMeta = old`,
 * a custom resource's status strategy): none is kept.
 */
export const STORED_METADATA: StatusMetadata = { labels: false, annotations: false, finalizers: false, ownerReferences: false };

const METADATA_FIELDS = ['labels', 'annotations', 'finalizers', 'ownerReferences'] as const;

/** A generic /status: the request's status and metadata, the stored spec (Namespace, CronJob, CRD). */
export const statusSubresource: SubresourceStrategy = {
  prepareForUpdate: (obj, old) => withStatusOf(obj, old),
};

/** A generic /status that keeps the stored metadata (FlowSchema, PriorityLevelConfiguration, custom resources). */
export const storedMetadataStatusSubresource: SubresourceStrategy = {
  prepareForUpdate: (obj, old) => withStatusOf(obj, old, STORED_METADATA),
};

/**
 * A write to /status: the stored object with the request's status (none when the request has none)
 * and, as `keep` says, the request's labels, annotations, finalizers and owner references.
 */
export function withStatusOf<T extends { metadata: ObjectMeta; status?: unknown }>(
  obj: T,
  old: T,
  keep: StatusMetadata = REQUEST_METADATA,
): T {
  const next = deepCopy(old);
  if (obj.status === undefined) delete next.status;
  else next.status = deepCopy(obj.status);
  for (const field of METADATA_FIELDS) if (keep[field]) copyMetadataField(obj.metadata, next.metadata, field);
  return next;
}

/** One metadata field of `from` into `to` (deleted from `to` when `from` has none). */
function copyMetadataField<K extends (typeof METADATA_FIELDS)[number]>(from: ObjectMeta, to: ObjectMeta, field: K): void {
  if (from[field] === undefined) delete to[field];
  else to[field] = deepCopy(from[field]);
}

/** Main-resource writes: a new object has no status yet; an update keeps the stored one. */
export function resetStatusForMainResource<T extends { metadata: object; status?: unknown }>(obj: T, old: T | null): void {
  if (old === null || old.status === undefined) delete obj.status;
  else obj.status = deepCopy(old.status);
}
