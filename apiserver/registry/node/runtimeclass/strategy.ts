/**
 * RuntimeClass: the handler is a DNS label and never changes; overhead.podFixed is checked like
 * container limits (and its quantities decoded); scheduling has a valid node selector and valid,
 * distinct tolerations (reported under `scheduling.tolerations.tolerations`, as Kubernetes does).
 */
import { type StrategyContext, typedColumns, typedStrategy } from '../../../api/strategy.js';
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { duplicate, fieldPath, invalid } from '../../../api/field-errors.js';
import { nameIsDNSLabel } from '../../../api/validation/names.js';
import { FIELD_IMMUTABLE_ERROR_MSG, validateLabels } from '../../../api/validation/object-meta.js';
import type { PrinterColumn } from '../../../api/resource.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import { ResourceNames, validateResourceRequirements } from '../../shared/pod-spec/resources.js';
import { validateTolerations } from '../../shared/pod-spec/scheduling.js';
import { decodeResourceList } from '../../shared/pod-spec/quantities.js';
import type { RuntimeClass, Toleration } from '../../../api/generated/types.js';

/** Tolerations are unique by key, operator, value and effect. */
function duplicateTolerations(tolerations: Toleration[], path: FieldPath): FieldError[] {
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  tolerations.forEach((t, i) => {
    const id = JSON.stringify([t.key ?? '', t.operator ?? '', t.value ?? '', t.effect ?? '']);
    if (seen.has(id)) errors.push(duplicate(path.index(i), t));
    seen.add(id);
  });
  return errors;
}

function validateRuntimeClass(obj: RuntimeClass, ctx: StrategyContext): FieldError[] {
  const handler = obj.handler ?? '';
  const errors = nameIsDNSLabel(handler, false).map((m) => invalid('handler', handler, m));
  const overhead = obj.overhead;
  if (overhead)
    errors.push(
      ...validateResourceRequirements({ limits: overhead.podFixed }, new ResourceNames(ctx.domain.labelPrefix), fieldPath('overhead')),
    );
  const scheduling = obj.scheduling;
  if (scheduling) {
    const path = fieldPath('scheduling');
    errors.push(...validateLabels(scheduling.nodeSelector, path.child('nodeSelector')));
    const tolerations = scheduling.tolerations ?? [];
    errors.push(...validateTolerations(tolerations, path.child('tolerations', 'tolerations')));
    errors.push(...duplicateTolerations(tolerations, path.child('tolerations')));
  }
  return errors;
}

export const runtimeClassStrategy = typedStrategy<RuntimeClass>({
  applyDefaults(obj) {
    decodeResourceList(obj, obj.overhead?.podFixed);
  },
  validate: validateRuntimeClass,
  validateUpdate: (obj, old, ctx) => [
    ...validateRuntimeClass(obj, ctx),
    ...(obj.handler === old.handler ? [] : [invalid('handler', obj.handler ?? '', FIELD_IMMUTABLE_ERROR_MSG)]),
  ],
});

export const runtimeClassColumns: PrinterColumn[] = [
  ...typedColumns<RuntimeClass>([
    {
      name: 'Handler',
      description:
        'handler specifies the underlying runtime and configuration that the CRI implementation will use to handle pods of this class.',
      cell: (o) => o.handler ?? '',
    },
  ]),
  AGE_COLUMN,
];
