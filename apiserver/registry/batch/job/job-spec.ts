/**
 * batch/v1 JobSpec rules shared by Jobs and CronJob job templates (Kubernetes' validateJobSpec and
 * validatePodFailurePolicy), as 1.28 validates them.
 */
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { duplicate, invalid, notSupported, required, tooMany } from '../../../api/field-errors.js';
import { isQualifiedName } from '../../../api/validation/names.js';
import { type PodSpecOptions, validatePodTemplateSpec } from '../../shared/pod-spec/pod-spec.js';
import type { JobSpec, PodFailurePolicyRule } from '../../../api/generated/types.js';
import { validateNonnegative } from '../../shared/pod-spec/value-checks.js';

const MAX_PARALLELISM_INDEXED = 100000;
const MAX_RULES = 20;
const MAX_EXIT_CODES = 255;
const MAX_CONDITION_PATTERNS = 20;
const ACTIONS = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
const EXIT_CODE_OPERATORS = ['In', 'NotIn'];
const CONDITION_STATUSES = ['False', 'True', 'Unknown'];

/** Go's %q of a string list: ["a" "b"]. */
const quotedList = (values: readonly string[]): string => `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;

/** An Invalid error that prints no value (field.OmitValueType). */
function invalidWithoutValue(path: FieldPath, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field: String(path), detail };
}

function validateExitCodes(req: NonNullable<PodFailurePolicyRule['onExitCodes']>, containers: Set<string>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const operator = req.operator ?? '';
  if (!operator) errs.push(required(path.child('operator'), `valid values: ${quotedList(EXIT_CODE_OPERATORS)}`));
  else if (!EXIT_CODE_OPERATORS.includes(operator)) errs.push(notSupported(path.child('operator'), operator, EXIT_CODE_OPERATORS));
  if (req.containerName !== undefined && !containers.has(req.containerName)) {
    errs.push(
      invalid(path.child('containerName'), req.containerName, 'must be one of the container or initContainer names in the pod template'),
    );
  }
  const values = req.values ?? [];
  const valuesPath = path.child('values');
  if (values.length === 0) errs.push(invalid(valuesPath, values, 'at least one value is required'));
  else if (values.length > MAX_EXIT_CODES) errs.push(tooMany(valuesPath, values.length, MAX_EXIT_CODES));
  const seen = new Set<number>();
  values.forEach((v, j) => {
    if (operator === 'In' && v === 0) errs.push(invalid(valuesPath.index(j), v, 'must not be 0 for the In operator'));
    if (seen.has(v)) errs.push(duplicate(valuesPath.index(j), v));
    seen.add(v);
  });
  if (values.some((v, j) => j > 0 && values[j - 1] > v)) errs.push(invalid(valuesPath, values, 'must be ordered'));
  return errs;
}

function validateConditionPatterns(patterns: NonNullable<PodFailurePolicyRule['onPodConditions']>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (patterns.length > MAX_CONDITION_PATTERNS) errs.push(tooMany(path, patterns.length, MAX_CONDITION_PATTERNS));
  patterns.forEach((p, j) => {
    const at = path.index(j);
    errs.push(...isQualifiedName(p.type ?? '').map((m) => invalid(at.child('type'), p.type ?? '', m)));
    const status = p.status ?? '';
    if (!status) errs.push(required(at.child('status'), `valid values: ${quotedList(CONDITION_STATUSES)}`));
    else if (!CONDITION_STATUSES.includes(status)) errs.push(notSupported(at.child('status'), status, CONDITION_STATUSES));
  });
  return errs;
}

/** validatePodFailurePolicy. */
function validatePodFailurePolicy(spec: Partial<JobSpec>, path: FieldPath): FieldError[] {
  const rules = spec.podFailurePolicy?.rules ?? [];
  const rulesPath = path.child('rules');
  const errs: FieldError[] = [];
  if (rules.length > MAX_RULES) errs.push(tooMany(rulesPath, rules.length, MAX_RULES));
  const containers = new Set(
    [...(spec.template?.spec?.containers ?? []), ...(spec.template?.spec?.initContainers ?? [])].map((c) => c.name ?? ''),
  );
  rules.forEach((rule, i) => {
    const at = rulesPath.index(i);
    const action = rule.action ?? '';
    if (!action) errs.push(required(at.child('action'), `valid values: ${quotedList(ACTIONS)}`));
    else if (action === 'FailIndex') {
      if (spec.backoffLimitPerIndex === undefined)
        errs.push(invalid(at.child('action'), action, 'requires the backoffLimitPerIndex to be set'));
    } else if (!ACTIONS.includes(action)) errs.push(notSupported(at.child('action'), action, ACTIONS));
    const hasConditions = (rule.onPodConditions ?? []).length > 0;
    if (rule.onExitCodes) errs.push(...validateExitCodes(rule.onExitCodes, containers, at.child('onExitCodes')));
    if (hasConditions) errs.push(...validateConditionPatterns(rule.onPodConditions ?? [], at.child('onPodConditions')));
    if (rule.onExitCodes && hasConditions)
      errs.push(invalidWithoutValue(at, 'specifying both OnExitCodes and OnPodConditions is not supported'));
    if (!rule.onExitCodes && !hasConditions)
      errs.push(invalidWithoutValue(at, 'specifying one of OnExitCodes and OnPodConditions is required'));
  });
  return errs;
}

/** The template's restart policy: OnFailure or Never (only Never with a pod failure policy). */
function validateRestartPolicy(spec: Partial<JobSpec>, path: FieldPath): FieldError[] {
  const policy = spec.template?.spec?.restartPolicy ?? '';
  if (policy === 'Always' || policy === '') return [required(path, 'valid values: "OnFailure", "Never"')];
  if (policy !== 'OnFailure' && policy !== 'Never') return [notSupported(path, policy, ['OnFailure', 'Never'])];
  if (spec.podFailurePolicy && policy !== 'Never')
    return [invalid(path, policy, 'only "Never" is supported when podFailurePolicy is specified')];
  return [];
}

/** validateJobSpec: counts, completion mode, pod failure policy, a valid template of pods that end. */
export function validateJobSpecFields(spec: Partial<JobSpec>, path: FieldPath, opts: PodSpecOptions): FieldError[] {
  const errs: FieldError[] = [];
  for (const field of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished'] as const) {
    errs.push(...validateNonnegative(spec[field], path.child(field)));
  }
  const mode = spec.completionMode;
  if (mode !== undefined) {
    if (mode !== 'NonIndexed' && mode !== 'Indexed') errs.push(notSupported(path.child('completionMode'), mode, ['NonIndexed', 'Indexed']));
    if (mode === 'Indexed') {
      if (spec.completions === undefined) errs.push(required(path.child('completions'), 'when completion mode is Indexed'));
      if ((spec.parallelism ?? 0) > MAX_PARALLELISM_INDEXED) {
        errs.push(
          invalid(
            path.child('parallelism'),
            spec.parallelism,
            `must be less than or equal to ${MAX_PARALLELISM_INDEXED} when completion mode is Indexed`,
          ),
        );
      }
    }
  }
  if (spec.podFailurePolicy) errs.push(...validatePodFailurePolicy(spec, path.child('podFailurePolicy')));
  errs.push(...validatePodTemplateSpec(spec.template, path.child('template'), opts));
  errs.push(...validateRestartPolicy(spec, path.child('template', 'spec', 'restartPolicy')));
  return errs;
}
