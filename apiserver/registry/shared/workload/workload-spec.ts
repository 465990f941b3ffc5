/**
 * The rules apps/v1 workloads share: a required, non-empty, valid selector that matches the pod
 * template's labels, a valid template that restarts Always without activeDeadlineSeconds, and a
 * selector that never changes.
 */
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { fieldPath, forbidden, goTyped, invalid, notSupported, required } from '../../../api/field-errors.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../../api/validation/object-meta.js';
import { type LabelSelector, type LabelSelectorObject, labelSelectorFromObject } from '../../../runtime/selectors/label-selector.js';
import { validateLabelSelector } from '../pod-spec/label-selector.js';
import { type PodSpecOptions, validatePodTemplateSpec } from '../pod-spec/pod-spec.js';
import { semanticEqual } from '../pod-spec/semantic-equal.js';
import type { DeploymentSpec, PodTemplateSpec } from '../../../api/generated/types.js';

/** The fields these rules read, shared by the generated apps/v1 specs (and batch/v1's JobSpec). */
export type WorkloadSpec = Partial<Pick<DeploymentSpec, 'selector' | 'template'>>;

/** metav1.LabelSelectorAsSelector, or undefined when the selector cannot be converted. */
export function selectorOf(selector: LabelSelectorObject | undefined): LabelSelector | undefined {
  try {
    return labelSelectorFromObject(selector);
  } catch {
    return undefined;
  }
}

/** spec.selector: required, valid, and not empty (`empty selector is invalid for <kind>`). */
export function validateWorkloadSelector(selector: LabelSelectorObject | undefined, path: FieldPath, kind: string): FieldError[] {
  if (!selector) return [required(path)];
  const errs = validateLabelSelector(selector, path);
  if (Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0) {
    errs.push(invalid(path, selector, `empty selector is invalid for ${kind}`));
  }
  return errs;
}

/** The selector must select the template's labels (a nil or empty selector is not checked). */
export function validateSelectorMatchesTemplate(
  selector: LabelSelector,
  template: PodTemplateSpec | undefined,
  path: FieldPath,
): FieldError[] {
  const labels = template?.metadata?.labels ?? {};
  if (selector.isEverything() || selector.matches(labels)) return [];
  return [invalid(path.child('metadata', 'labels'), goTyped('map[string]string', labels), '`selector` does not match template `labels`')];
}

/** A template of pods that run forever: restartPolicy Always, no activeDeadlineSeconds. */
export function validateLongRunningTemplate(template: PodTemplateSpec | undefined, path: FieldPath, kind: string): FieldError[] {
  const errs: FieldError[] = [];
  const restartPolicy = template?.spec?.restartPolicy ?? '';
  if (restartPolicy !== 'Always') errs.push(notSupported(path.child('spec', 'restartPolicy'), restartPolicy, ['Always']));
  if (template?.spec?.activeDeadlineSeconds !== undefined) {
    errs.push(forbidden(path.child('spec', 'activeDeadlineSeconds'), `activeDeadlineSeconds in ${kind} is not Supported`));
  }
  return errs;
}

/**
 * ValidatePodTemplateSpecForReplicaSet under `specPath`: selector match, a valid template, long-running
 * pods (an unconvertible selector is reported instead).
 */
export function validateTemplateForSelector(spec: WorkloadSpec, specPath: FieldPath, opts: PodSpecOptions, kind: string): FieldError[] {
  const selector = selectorOf(spec.selector);
  if (!selector) return [invalid(specPath.child('selector'), spec.selector ?? null, 'invalid label selector')];
  const path = specPath.child('template');
  return [
    ...validateSelectorMatchesTemplate(selector, spec.template, path),
    ...validatePodTemplateSpec(spec.template, path, opts),
    ...validateLongRunningTemplate(spec.template, path, kind),
  ];
}

/** apps/v1 forbids changing spec.selector (ValidateImmutableField). */
export function validateSelectorUnchanged(next: WorkloadSpec, prev: WorkloadSpec): FieldError[] {
  return semanticEqual(next.selector, prev.selector)
    ? []
    : [invalid(fieldPath('spec', 'selector'), next.selector ?? null, FIELD_IMMUTABLE_ERROR_MSG)];
}
