/** The status rules FlowSchema and PriorityLevelConfiguration share: condition types set and unique. */
import type { FieldError, FieldPath } from '../../api/field-errors.js';
import { duplicate, fieldPath, required } from '../../api/field-errors.js';
import type { SubresourceStrategy } from '../../api/strategy.js';
import { storedMetadataStatusSubresource } from '../generic/status-subresource.js';

export function validateConditions(conditions: { type?: string }[] | undefined, path: FieldPath = fieldPath('status')): FieldError[] {
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
export const conditionsStatusSubresource: SubresourceStrategy = {
  prepareForUpdate: storedMetadataStatusSubresource.prepareForUpdate,
  validateUpdate: (obj) => validateConditions((obj.status as { conditions?: { type?: string }[] } | undefined)?.conditions),
};
