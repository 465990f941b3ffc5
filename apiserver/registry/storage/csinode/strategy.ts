/**
 * CSINode: drivers with valid, unique names, a node ID of at most 128 characters, a non-negative
 * allocatable count and distinct qualified topology keys; a registered driver's entry never changes.
 */
import { jsonEqual } from '../../../api/object.js';
import type { ObjectMeta } from '../../../api/object-meta.js';
import { type Strategy, typedStrategy } from '../../../api/strategy.js';
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { duplicate, fieldPath, invalid, required } from '../../../api/field-errors.js';
import { isQualifiedName } from '../../../api/validation/names.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../../api/validation/object-meta.js';
import { validateNonnegative } from '../../shared/pod-spec/value-checks.js';
import { validateCSIDriverName } from '../../shared/pod-spec/volume-sources.js';

type Driver = { name?: string; nodeID?: string; topologyKeys?: string[]; allocatable?: { count?: number } };

interface CSINode {
  metadata: ObjectMeta;
  spec?: { drivers?: Driver[] };
}

const MAX_NODE_ID = 128;

const drivers = (obj: CSINode): Driver[] => obj.spec?.drivers ?? [];

function validateDriver(driver: Driver, path: FieldPath, names: Set<string>): FieldError[] {
  const name = driver.name ?? '';
  const nodeID = driver.nodeID ?? '';
  const errors = validateCSIDriverName(name, path.child('name'));
  if (!nodeID) errors.push(required(path.child('nodeID'), nodeID));
  if (nodeID.length > MAX_NODE_ID) errors.push(invalid(path.child('nodeID'), nodeID, `must be ${MAX_NODE_ID} characters or less`));
  errors.push(...validateNonnegative(driver.allocatable?.count, path.child('allocatable', 'count')));
  if (names.has(name)) errors.push(duplicate(path.child('name'), name));
  names.add(name);
  const keys = new Set<string>();
  for (const key of driver.topologyKeys ?? []) {
    if (!key) errors.push(required(path, key));
    if (keys.has(key)) errors.push(duplicate(path, key));
    keys.add(key);
    for (const m of isQualifiedName(key)) errors.push(invalid(path, driver.topologyKeys, m));
  }
  return errors;
}

function validateCSINode(obj: CSINode): FieldError[] {
  const names = new Set<string>();
  return drivers(obj).flatMap((d, i) => validateDriver(d, fieldPath('spec', 'drivers').index(i), names));
}

export const csiNodeStrategy: Strategy = typedStrategy<CSINode>({
  validate: validateCSINode,
  validateUpdate(obj, old) {
    const errors = validateCSINode(obj);
    for (const prev of drivers(old)) {
      for (const next of drivers(obj)) {
        if (prev.name === next.name && !jsonEqual(prev, next)) errors.push(invalid('CSINodeDriver', next, FIELD_IMMUTABLE_ERROR_MSG));
      }
    }
    return errors;
  },
});
