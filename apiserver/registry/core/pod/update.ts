/**
 * ValidatePodUpdate's own rules: a pod spec is immutable except container images, a shorter
 * activeDeadlineSeconds, added tolerations, removed scheduling gates, node selector additions while
 * gated, and terminationGracePeriodSeconds from negative to 1.
 */
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { fieldPath, forbidden, invalid, required } from '../../../api/field-errors.js';
import type { ApiDomain } from '../../../api/domain.js';
import { deepCopy } from '../../../api/object.js';
import { semanticEqual } from '../../shared/pod-spec/semantic-equal.js';
import { validateTolerations } from '../../shared/pod-spec/scheduling.js';
import { inclusiveRangeError } from '../../shared/pod-spec/value-checks.js';
import type { Container, PodSpec } from '../../../api/generated/types.js';

const MAX_INT32 = 2147483647;

/** Kubernetes' updatablePodSpecFields, as the Forbidden message lists them. */
const UPDATABLE_FIELDS = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];

/** ValidateContainerUpdates: the same number of containers, each with an image without surrounding spaces. */
function validateContainerUpdates(
  next: Container[] | undefined,
  prev: Container[] | undefined,
  path: FieldPath,
): { errors: FieldError[]; stop: boolean } {
  if ((next ?? []).length !== (prev ?? []).length)
    return { errors: [forbidden(path, 'pod updates may not add or remove containers')], stop: true };
  const errors: FieldError[] = [];
  (next ?? []).forEach((c, i) => {
    const image = c.image ?? '';
    if (!image) errors.push(required(path.index(i).child('image')));
    if (image.trim() !== image) errors.push(invalid(path.index(i).child('image'), image, 'must not have leading or trailing whitespace'));
  });
  return { errors, stop: false };
}

/** validateOnlyAddedTolerations: every old toleration is still there (tolerationSeconds may change). */
function validateOnlyAddedTolerations(next: PodSpec, prev: PodSpec, path: FieldPath): FieldError[] {
  for (const old of prev.tolerations ?? []) {
    const kept = (next.tolerations ?? []).some((t) => semanticEqual({ ...old, tolerationSeconds: t.tolerationSeconds }, t));
    if (!kept) return [forbidden(path, 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return validateTolerations(next.tolerations, path);
}

/** validateOnlyDeletedSchedulingGates: no gate may be added. */
function validateOnlyDeletedGates(next: PodSpec, prev: PodSpec, path: FieldPath): FieldError[] {
  const old = new Set((prev.schedulingGates ?? []).map((g) => g.name));
  const errs: FieldError[] = [];
  (next.schedulingGates ?? []).forEach((g, i) => {
    if (!old.has(g.name))
      errs.push(forbidden(path.index(i).child('name'), `only deletion is allowed, but found new scheduling gate '${g.name ?? ''}'`));
  });
  return errs;
}

/** validateNodeSelectorMutation: while gated, node selector entries may only be added. */
function validateNodeSelectorMutation(
  next: Record<string, string> | undefined,
  prev: Record<string, string> | undefined,
  path: FieldPath,
): FieldError[] {
  for (const [k, v] of Object.entries(prev ?? {})) {
    if (next?.[k] !== v) return [invalid(path, next ?? {}, 'only additions to spec.nodeSelector are allowed (no mutations or deletions)')];
  }
  return [];
}

function validateActiveDeadline(next: PodSpec, prev: PodSpec, path: FieldPath): FieldError[] {
  const value = next.activeDeadlineSeconds;
  if (value === undefined) {
    return prev.activeDeadlineSeconds !== undefined ? [invalid(path, null, 'must not update from a positive integer to nil value')] : [];
  }
  if (value < 0 || value > MAX_INT32) return [invalid(path, value, inclusiveRangeError(0, MAX_INT32))];
  if (prev.activeDeadlineSeconds !== undefined && prev.activeDeadlineSeconds < value)
    return [invalid(path, value, 'must be less than or equal to previous value')];
  return [];
}

/** A short description of what differs between two specs, one `-`/`+` line pair per changed field. */
export function specDiff(prev: object, next: object): string {
  const lines: string[] = [];
  const [before, after] = [new Map(Object.entries(prev)), new Map(Object.entries(next))];
  const keys = [...new Set([...before.keys(), ...after.keys()])].sort();
  for (const key of keys) {
    const a = before.get(key);
    const b = after.get(key);
    if (semanticEqual(a, b)) continue;
    if (a !== undefined) lines.push(`- ${key}: ${JSON.stringify(a)}`);
    if (b !== undefined) lines.push(`+ ${key}: ${JSON.stringify(b)}`);
  }
  return lines.join('\n');
}

/** The spec with every field an update may change set back to the stored value. */
function mungedSpec(next: PodSpec, prev: PodSpec, errs: FieldError[], path: FieldPath): PodSpec {
  const munged = deepCopy(next);
  munged.containers = (munged.containers ?? []).map((c, i) => ({ ...c, image: prev.containers?.[i]?.image }));
  munged.initContainers = (munged.initContainers ?? []).map((c, i) => ({ ...c, image: prev.initContainers?.[i]?.image }));
  munged.activeDeadlineSeconds = prev.activeDeadlineSeconds;
  munged.schedulingGates = prev.schedulingGates;
  munged.tolerations = prev.tolerations;
  const oldGrace = prev.terminationGracePeriodSeconds;
  if (oldGrace !== undefined && oldGrace < 0 && munged.terminationGracePeriodSeconds === 1) munged.terminationGracePeriodSeconds = oldGrace;
  if ((prev.schedulingGates ?? []).length > 0 && !semanticEqual(munged.nodeSelector, prev.nodeSelector)) {
    errs.push(...validateNodeSelectorMutation(munged.nodeSelector, prev.nodeSelector, path.child('nodeSelector')));
    munged.nodeSelector = prev.nodeSelector;
  }
  return munged;
}

/** The mirror pod annotation (`<prefix>/config.mirror`) may be neither added, changed nor removed. */
function validateMirrorAnnotation(
  next: Record<string, string> | undefined,
  prev: Record<string, string> | undefined,
  domain: ApiDomain,
): FieldError[] {
  const key = `${domain.labelPrefix}/config.mirror`;
  const path = fieldPath('metadata', 'annotations').key(key);
  const had = prev !== undefined && Object.hasOwn(prev, key);
  const has = next !== undefined && Object.hasOwn(next, key);
  if (had && (!has || next![key] !== prev![key])) return [forbidden(path, 'may not remove or update mirror pod annotation')];
  if (!had && has) return [forbidden(path, 'may not add mirror pod annotation')];
  return [];
}

/** ValidatePodUpdate's update rules (the new pod's own validity is checked by Validate). */
export function validatePodSpecUpdate(
  next: PodSpec,
  prev: PodSpec,
  annotations: { next?: Record<string, string>; prev?: Record<string, string> },
  domain: ApiDomain,
): FieldError[] {
  const specPath = fieldPath('spec');
  const errs = validateMirrorAnnotation(annotations.next, annotations.prev, domain);
  for (const kind of ['containers', 'initContainers'] as const) {
    const { errors, stop } = validateContainerUpdates(next[kind], prev[kind], specPath.child(kind));
    errs.push(...errors);
    if (stop) return errs;
  }
  const deadlineErrs = validateActiveDeadline(next, prev, specPath.child('activeDeadlineSeconds'));
  errs.push(...deadlineErrs);
  if (deadlineErrs.length > 0 && next.activeDeadlineSeconds !== undefined) return errs;
  errs.push(...validateOnlyAddedTolerations(next, prev, specPath.child('tolerations')));
  errs.push(...validateOnlyDeletedGates(next, prev, specPath.child('schedulingGates')));
  if (semanticEqual(next, prev)) return errs;
  const munged = mungedSpec(next, prev, errs, specPath);
  if (!semanticEqual(munged, prev)) {
    errs.push(forbidden(specPath, `pod updates may not change fields other than ${UPDATABLE_FIELDS.join(',')}\n${specDiff(prev, munged)}`));
  }
  return errs;
}
