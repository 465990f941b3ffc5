/** The status rules FlowSchema and PriorityLevelConfiguration share: condition types set and unique. */
import type { FieldError, FieldPath } from '../../api/field-errors.js';
import { duplicate, fieldPath, required } from '../../api/field-errors.js';
import type { ObjectMeta } from '../../api/object-meta.js';
import { type SubresourceStrategy, typedSubresource } from '../../api/strategy.js';
import { STORED_METADATA, withStatusOf } from '../generic/status-subresource.js';

type Condition = { type?: string };

/** A FlowSchema or PriorityLevelConfiguration as its /status reads it. */
interface WithConditions {
  metadata: ObjectMeta;
  status?: { conditions?: Condition[] };
}

export function validateConditions(conditions: Condition[] | undefined, path: FieldPath = fieldPath('status')): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  for (const [i, c] of (conditions ?? []).entries()) {
    const at = path.child('conditions').index(i);
    if (seen.has(c.type ?? '')) errs.push(duplicate(at.child('type'), c.type ?? ''));
    seen.add(c.type ?? '');
    if (!c.type) errs.push(required(at.child('type'), 'must not be empty'));
  }
  return errs;
}

/** /status: only status changes (the metadata is reset too, as Kubernetes' flow-control status strategies), its conditions checked. */
export const conditionsStatusSubresource: SubresourceStrategy = typedSubresource<WithConditions>({
  prepareForUpdate: (obj, old) => withStatusOf(obj, old, STORED_METADATA),
  validateUpdate: (obj) => validateConditions(obj.status?.conditions),
});
