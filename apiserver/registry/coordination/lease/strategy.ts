/** Lease: leaseDurationSeconds > 0 and leaseTransitions ≥ 0 when set (ValidateLeaseSpec, create and update). */
import { typedColumns, typedStrategy } from '../../../api/strategy.js';
import type { Lease, LeaseSpec } from '../../../api/generated/types.js';
import type { FieldError } from '../../../api/field-errors.js';
import { fieldPath, invalid } from '../../../api/field-errors.js';
import type { PrinterColumn } from '../../../api/resource.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';

function validateLease(obj: Lease): FieldError[] {
  const { leaseDurationSeconds: duration, leaseTransitions: transitions }: LeaseSpec = obj.spec ?? {};
  const errors: FieldError[] = [];
  if (duration !== undefined && duration <= 0)
    errors.push(invalid(fieldPath('spec', 'leaseDurationSeconds'), duration, 'must be greater than 0'));
  if (transitions !== undefined && transitions < 0) {
    errors.push(invalid(fieldPath('spec', 'leaseTransitions'), transitions, 'must be greater than or equal to 0'));
  }
  return errors;
}

export const leaseStrategy = typedStrategy<Lease>({
  validate: validateLease,
  validateUpdate: (obj) => validateLease(obj),
});

export const leaseColumns: PrinterColumn[] = [
  ...typedColumns<Lease>([
    {
      name: 'Holder',
      description: 'holderIdentity contains the identity of the holder of a current lease.',
      cell: (o) => o.spec?.holderIdentity ?? '',
    },
  ]),
  AGE_COLUMN,
];
