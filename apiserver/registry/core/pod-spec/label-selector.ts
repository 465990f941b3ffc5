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

function validateRequirement(req: LabelSelectorRequirementObject, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errs.push(required(path.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errs.push(forbidden(path.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    default:
      errs.push(invalid(path.child('operator'), req.operator ?? '', 'not a valid selector operator'));
  }
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
