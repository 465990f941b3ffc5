import { jsonEqual } from '../../../api/object.js';
import { typedStrategy } from '../../../api/strategy.js';
import type { FieldError } from '../../../api/field-errors.js';
import { fieldPath, invalid } from '../../../api/field-errors.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../../api/validation/object-meta.js';
import { validateLabelSelector } from '../../shared/pod-spec/label-selector.js';
import { decodeQuantity, readQuantity } from '../../shared/pod-spec/quantities.js';
import { validateClassName } from '../../shared/persistent-volume/spec-validation.js';
import { validateNonnegativeQuantity } from '../../shared/pod-spec/resource-quantities.js';
import type { CSIStorageCapacity } from '../../../api/generated/types.js';

function validateCapacity(c: CSIStorageCapacity): FieldError[] {
  const errors = [
    ...validateLabelSelector(c.nodeTopology, fieldPath('nodeTopology')),
    ...validateClassName(c.storageClassName ?? '', fieldPath('storageClassName')),
  ];
  const capacity = readQuantity(c.capacity);
  if (capacity) errors.push(...validateNonnegativeQuantity(capacity, 'capacity'));
  return errors;
}

export const csiStorageCapacityStrategy = typedStrategy<CSIStorageCapacity>({
  applyDefaults(c) {
    if (c.capacity !== undefined) c.capacity = decodeQuantity(c, c.capacity, false);
    if (c.maximumVolumeSize !== undefined) c.maximumVolumeSize = decodeQuantity(c, c.maximumVolumeSize, false);
  },
  validate: validateCapacity,
  validateUpdate(obj, old) {
    const errors = validateCapacity(obj);
    if (!jsonEqual(obj.nodeTopology, old.nodeTopology))
      errors.push(invalid('nodeTopology', obj.nodeTopology ?? null, FIELD_IMMUTABLE_ERROR_MSG));
    if (obj.storageClassName !== old.storageClassName) {
      errors.push(invalid('storageClassName', obj.storageClassName ?? '', FIELD_IMMUTABLE_ERROR_MSG));
    }
    return errors;
  },
});
