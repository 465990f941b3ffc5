/** Node taints (validateNodeTaints with validateTaintEffect). */
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { duplicate, invalid, notSupported, required } from '../../../api/field-errors.js';
import { isValidLabelValue } from '../../../api/validation/names.js';
import { validateLabelName } from '../../shared/pod-spec/label-selector.js';

/** The effects Kubernetes accepts, in its order. */
const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** validateTaintEffect for taints: required, one of the effects. */
function validateTaintEffect(effect: string, path: FieldPath): FieldError[] {
  if (effect === '') return [required(path, '')];
  return TAINT_EFFECTS.includes(effect) ? [] : [notSupported(path, effect, TAINT_EFFECTS)];
}

/** core/v1 Taint. */
export interface Taint {
  key?: string;
  value?: string;
  effect?: string;
  timeAdded?: string;
}

/** validateNodeTaints: key, value and effect of each, unique by key and effect. */
export function validateNodeTaints(taints: Taint[], path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  taints.forEach((taint, i) => {
    const p = path.index(i);
    errors.push(...validateLabelName(taint.key ?? '', p.child('key')));
    const valueErrors = isValidLabelValue(taint.value ?? '');
    if (valueErrors.length > 0) errors.push(invalid(p.child('value'), taint.value ?? '', valueErrors.join(';')));
    errors.push(...validateTaintEffect(taint.effect ?? '', p.child('effect')));
    const id = JSON.stringify([taint.effect ?? '', taint.key ?? '']);
    if (seen.has(id)) errors.push({ ...duplicate(p, taint), detail: 'taints must be unique by key and effect pair' });
    else seen.add(id);
  });
  return errors;
}
