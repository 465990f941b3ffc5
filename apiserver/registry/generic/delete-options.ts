import type { ApiObject } from '../../api/object.js';
import * as status from '../../api/status.js';
import type { PropagationPolicy } from '../../api/deletion.js';

/** meta/v1 DeleteOptions, as sent in a DELETE body or query. */
export interface DeleteOptions {
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  orphanDependents?: boolean;
  propagationPolicy?: PropagationPolicy;
  dryRun?: string[];
}

/** DeleteOptions.preconditions against the stored object: 409 Conflict on a mismatch. */
export function checkDeletePreconditions(gk: status.GroupKind, obj: ApiObject, options: DeleteOptions): void {
  const p = options.preconditions;
  if (!p) return;
  const name = obj.metadata.name ?? '';
  // Kubernetes checks them early (rest.BeforeDelete), naming the kind where a resource would be.
  const gr = { group: gk.group, resource: gk.kind };
  if (p.uid && p.uid !== obj.metadata.uid) {
    throw status.conflict(
      gr,
      name,
      `the UID in the precondition (${p.uid}) does not match the UID in record (${obj.metadata.uid}). The object might have been deleted and then recreated`,
    );
  }
  if (p.resourceVersion && p.resourceVersion !== obj.metadata.resourceVersion) {
    throw status.conflict(
      gr,
      name,
      `the ResourceVersion in the precondition (${p.resourceVersion}) does not match the ResourceVersion in record (${obj.metadata.resourceVersion}). The object might have been modified`,
    );
  }
}
