/**
 * metav1.LabelSelector validation (apimachinery's meta/v1/validation ValidateLabelSelector and
 * ValidateLabelName), with Kubernetes' messages. Parsing and matching live in
 * runtime/selectors/label-selector.ts.
 */
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { forbidden, invalid, required } from '../../../api/field-errors.js';
import { isQualifiedName, isValidLabelValue } from '../../../api/validation/names.js';
import { validateLabels } from '../../../api/validation/object-meta.js';
import type { LabelSelectorObject, LabelSelectorRequirementObject } from '../../../runtime/selectors/label-selector.js';

/** ValidateLabelName: a label key (qualified name). */
export function validateLabelName(name: string, path: FieldPath): FieldError[] {
  return isQualifiedName(name).map((msg) => invalid(path, name, msg));
}

/**
 * The operator of a selector requirement and the number of values it takes, with Kubernetes'
 * messages; node selectors (`numeric`) also allow Gt and Lt with exactly one value.
 */
export function validateRequirementOperator(
  operator: string | undefined,
  values: readonly string[],
  path: FieldPath,
  numeric = false,
): FieldError[] {
  switch (operator) {
    case 'In':
    case 'NotIn':
      return values.length === 0 ? [required(path.child('values'), "must be specified when `operator` is 'In' or 'NotIn'")] : [];
    case 'Exists':
    case 'DoesNotExist':
      return values.length > 0
        ? [forbidden(path.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'")]
        : [];
    case 'Gt':
    case 'Lt':
      if (numeric)
        return values.length !== 1
          ? [required(path.child('values'), "must be specified single value when `operator` is 'Lt' or 'Gt'")]
          : [];
  }
  return [invalid(path.child('operator'), operator ?? '', 'not a valid selector operator')];
}

function validateRequirement(req: LabelSelectorRequirementObject, path: FieldPath): FieldError[] {
  const values = req.values ?? [];
  const errs = validateRequirementOperator(req.operator, values, path);
  errs.push(...validateLabelName(req.key ?? '', path.child('key')));
  values.forEach((v, i) => isValidLabelValue(v).forEach((msg) => errs.push(invalid(path.child('values').index(i), v, msg))));
  return errs;
}

/** ValidateLabelSelector: matchLabels are labels, each matchExpression a valid requirement. Nil is valid. */
export function validateLabelSelector(selector: LabelSelectorObject | undefined, path: FieldPath): FieldError[] {
  if (!selector) return [];
  const errs = validateLabels(selector.matchLabels, path.child('matchLabels'));
  (selector.matchExpressions ?? []).forEach((req, i) => errs.push(...validateRequirement(req, path.child('matchExpressions').index(i))));
  return errs;
}
