/**
 * CSIStorageCapacity: a valid node topology selector, a storage class name (a DNS subdomain, so
 * required) and a non-negative capacity; nodeTopology and storageClassName never change.
 */
import type { ApiObject } from '../../../api/object.js';
import { jsonEqual } from '../../../api/object.js';
import type { Strategy } from '../../../api/strategy.js';
import type { FieldError } from '../../../api/field-errors.js';
import { fieldPath, invalid } from '../../../api/field-errors.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../../api/validation/object-meta.js';
import type { LabelSelectorObject } from '../../../runtime/selectors/label-selector.js';
import { validateLabelSelector } from '../../core/pod-spec/label-selector.js';
import { decodeQuantity, readQuantity } from '../../core/pod-spec/quantities.js';
import { validateClassName } from '../../core/persistentvolume/spec-validation.js';
import { validateNonnegativeQuantity } from '../../core/resourcequota/resource-quantities.js';

interface CapacityFields {
  nodeTopology?: LabelSelectorObject;
  storageClassName?: string;
  capacity?: unknown;
  maximumVolumeSize?: unknown;
}

const cap = (obj: ApiObject): CapacityFields => obj as CapacityFields;

function validateCapacity(obj: ApiObject): FieldError[] {
  const c = cap(obj);
  const errors = [
    ...validateLabelSelector(c.nodeTopology, fieldPath('nodeTopology')),
    ...validateClassName(c.storageClassName ?? '', fieldPath('storageClassName')),
  ];
  const capacity = readQuantity(c.capacity);
  if (capacity) errors.push(...validateNonnegativeQuantity(capacity, 'capacity'));
  return errors;
}

export const csiStorageCapacityStrategy: Strategy = {
  applyDefaults(obj) {
    const c = cap(obj);
    if (c.capacity !== undefined) c.capacity = decodeQuantity(obj, c.capacity, false);
    if (c.maximumVolumeSize !== undefined) c.maximumVolumeSize = decodeQuantity(obj, c.maximumVolumeSize, false);
  },
  validate: validateCapacity,
  validateUpdate(obj, old) {
    const errors = validateCapacity(obj);
    if (!jsonEqual(cap(obj).nodeTopology, cap(old).nodeTopology))
      errors.push(invalid('nodeTopology', cap(obj).nodeTopology ?? null, FIELD_IMMUTABLE_ERROR_MSG));
    if (cap(obj).storageClassName !== cap(old).storageClassName) {
      errors.push(invalid('storageClassName', cap(obj).storageClassName ?? '', FIELD_IMMUTABLE_ERROR_MSG));
    }
    return errors;
  },
};
