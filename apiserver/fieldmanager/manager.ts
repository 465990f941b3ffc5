/**
 * The two-method contract every step of field management implements (Kubernetes'
 * managedfields/internal Manager): record the fields a write changed, or merge an applied
 * configuration. Steps wrap one another, each adding one concern; the innermost does the merge.
 */
import type { ApiObject } from '../api/object.js';
import type { Managed } from './managed-fields.js';

export interface UpdateResult {
  object: ApiObject;
  managed: Managed;
}

export interface ApplyResult {
  /** The object to store; null (below the managed-fields updater) when the apply changes nothing. */
  object: ApiObject | null;
  managed: Managed;
}

export interface Manager {
  /** The ownership after `live` became `next` through a create, update or non-apply patch by `manager`. */
  update(live: ApiObject, next: ApiObject, managed: Managed, manager: string): UpdateResult;
  /** `config` applied by `manager` to `live`: the merged object and the new ownership. */
  apply(live: ApiObject, config: ApiObject, managed: Managed, manager: string, force: boolean): ApplyResult;
}
