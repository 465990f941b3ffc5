/** apps/v1 ControllerRevision: ValidateControllerRevision(Update) — data is mandatory and immutable, revision not negative. */
import type { FieldError } from '../../../api/field-errors.js';
import { fieldPath, invalid, required } from '../../../api/field-errors.js';
import { typedStrategy } from '../../../api/strategy.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../../api/validation/object-meta.js';
import type { ControllerRevision } from '../../../api/generated/types.js';
import { validateNonnegative } from '../../shared/pod-spec/value-checks.js';
import { semanticEqual } from '../../shared/pod-spec/semantic-equal.js';

function validateControllerRevision(cr: ControllerRevision): FieldError[] {
  const errs: FieldError[] = [];
  if (cr.data === undefined || cr.data === null) errs.push(required(fieldPath('data'), 'data is mandatory'));
  errs.push(...validateNonnegative(cr.revision ?? 0, fieldPath('revision')));
  return errs;
}

export const controllerRevisionStrategy = typedStrategy<ControllerRevision>({
  validate: validateControllerRevision,
  validateUpdate: (cr, old) => [
    ...validateControllerRevision(cr),
    ...(semanticEqual(cr.data, old.data) ? [] : [invalid(fieldPath('data'), cr.data ?? null, FIELD_IMMUTABLE_ERROR_MSG)]),
  ],
});
