/** Lease: leaseDurationSeconds > 0 and leaseTransitions ≥ 0 when set (ValidateLeaseSpec, create and update). */
import type { ApiObject } from '../../../api/object.js';
import type { Strategy } from '../../../api/strategy.js';
import type { FieldError } from '../../../api/field-errors.js';
import { fieldPath, invalid } from '../../../api/field-errors.js';
import type { PrinterColumn } from '../../../api/resource.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';

type LeaseSpec = { holderIdentity?: string; leaseDurationSeconds?: number; leaseTransitions?: number };

const spec = (obj: ApiObject): LeaseSpec => (obj.spec ?? {}) as LeaseSpec;

function validateLease(obj: ApiObject): FieldError[] {
  const { leaseDurationSeconds: duration, leaseTransitions: transitions } = spec(obj);
  const errors: FieldError[] = [];
  if (duration !== undefined && duration <= 0)
    errors.push(invalid(fieldPath('spec', 'leaseDurationSeconds'), duration, 'must be greater than 0'));
  if (transitions !== undefined && transitions < 0) {
    errors.push(invalid(fieldPath('spec', 'leaseTransitions'), transitions, 'must be greater than or equal to 0'));
  }
  return errors;
}

export const leaseStrategy: Strategy = {
  validate: validateLease,
  validateUpdate: (obj) => validateLease(obj),
};

export const leaseColumns: PrinterColumn[] = [
  {
    name: 'Holder',
    type: 'string',
    description: 'holderIdentity contains the identity of the holder of a current lease.',
    cell: (o) => spec(o).holderIdentity ?? '',
  },
  AGE_COLUMN,
];
