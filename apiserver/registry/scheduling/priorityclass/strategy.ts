/**
 * PriorityClass: preemptionPolicy defaults to PreemptLowerPriority; user classes are at most
 * 1,000,000,000; `system-` names are reserved for the built-in system classes with their exact values;
 * value and preemptionPolicy never change.
 */
import { typedColumns, typedStrategy } from '../../../api/strategy.js';
import type { FieldError } from '../../../api/field-errors.js';
import { fieldPath, forbidden, invalid, notSupported, required } from '../../../api/field-errors.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../../api/validation/object-meta.js';
import type { PrinterColumn } from '../../../api/resource.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import type { PriorityClass } from '../../../api/generated/types.js';

const SYSTEM_PREFIX = 'system-';
/** HighestUserDefinablePriority. */
const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
const SYSTEM_CRITICAL_PRIORITY = 2 * HIGHEST_USER_DEFINABLE_PRIORITY;
/** The system priority classes Kubernetes defines. */
export const SYSTEM_PRIORITY_CLASSES = [
  { name: 'system-node-critical', value: SYSTEM_CRITICAL_PRIORITY + 1000, globalDefault: false },
  { name: 'system-cluster-critical', value: SYSTEM_CRITICAL_PRIORITY, globalDefault: false },
];
const PREEMPTION_POLICIES = ['PreemptLowerPriority', 'Never'];

/** IsKnownSystemPriorityClass: undefined when it is one, else why not. */
function systemClassProblem(name: string, value: number, globalDefault: boolean): string | undefined {
  const known = SYSTEM_PRIORITY_CLASSES.find((c) => c.name === name);
  if (!known) return `${name} is not a known system priority class`;
  if (known.value !== value) return `value of ${name} PriorityClass must be ${known.value}`;
  if (known.globalDefault !== globalDefault) return `globalDefault of ${name} PriorityClass must be ${known.globalDefault}`;
  return undefined;
}

function validatePriorityClass(obj: PriorityClass): FieldError[] {
  const errors: FieldError[] = [];
  const name = obj.metadata.name ?? '';
  const value = obj.value ?? 0;
  if (name.startsWith(SYSTEM_PREFIX)) {
    const problem = systemClassProblem(name, value, obj.globalDefault ?? false);
    if (problem) {
      errors.push(
        forbidden(
          fieldPath('metadata', 'name'),
          `priority class names with '${SYSTEM_PREFIX}' prefix are reserved for system use only. error: ${problem}`,
        ),
      );
    }
  } else if (value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errors.push(forbidden('value', `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`));
  }
  const policy = obj.preemptionPolicy;
  if (policy !== undefined) {
    if (policy === '') errors.push(required('preemptionPolicy', ''));
    else if (!PREEMPTION_POLICIES.includes(policy)) errors.push(notSupported('preemptionPolicy', policy, PREEMPTION_POLICIES));
  }
  return errors;
}

export const priorityClassStrategy = typedStrategy<PriorityClass>({
  applyDefaults(obj) {
    obj.preemptionPolicy ??= 'PreemptLowerPriority';
  },
  validate: validatePriorityClass,
  validateUpdate(obj, old) {
    const errors = validatePriorityClass(obj);
    if ((obj.value ?? 0) !== (old.value ?? 0)) errors.push(forbidden('value', 'may not be changed in an update.'));
    if (obj.preemptionPolicy !== old.preemptionPolicy)
      errors.push(invalid('preemptionPolicy', obj.preemptionPolicy ?? null, FIELD_IMMUTABLE_ERROR_MSG));
    return errors;
  },
});

export const priorityClassColumns: PrinterColumn[] = [
  ...typedColumns<PriorityClass>([
    {
      name: 'Value',
      type: 'integer',
      description: 'value represents the integer value of this priority class.',
      cell: (o) => o.value ?? 0,
    },
    {
      name: 'Global-Default',
      type: 'boolean',
      description:
        'globalDefault specifies whether this PriorityClass should be considered as the default priority for pods that do not have any priority class.',
      cell: (o) => o.globalDefault ?? false,
    },
  ]),
  AGE_COLUMN,
];
