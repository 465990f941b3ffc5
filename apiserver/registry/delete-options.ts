import type { ApiObject } from '../api/object.js';
import * as status from '../api/status.js';
import type { PropagationPolicy } from '../api/deletion.js';

/** meta/v1 DeleteOptions, as sent in a DELETE body or query. */
export interface DeleteOptions {
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  orphanDependents?: boolean;
  propagationPolicy?: PropagationPolicy;
  dryRun?: string[];
}

/** DeleteOptions.preconditions against the stored object: 409 Conflict on a mismatch. */
export function checkDeletePreconditions(gr: status.GroupResource, obj: ApiObject, options: DeleteOptions): void {
  const p = options.preconditions;
  if (!p) return;
  const name = obj.metadata.name ?? '';
  if (p.uid && p.uid !== obj.metadata.uid) {
    throw status.conflict(gr, name, `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${obj.metadata.uid}`);
  }
  if (p.resourceVersion && p.resourceVersion !== obj.metadata.resourceVersion) {
    throw status.conflict(
      gr,
      name,
      `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion}`,
    );
  }
}
