/**
 * One webhook of a configuration, as Kubernetes validates it on create (validateValidatingWebhook /
 * validateMutatingWebhook): a fully qualified name, rules, enumerations, side effects None or
 * NoneOnDryRun, timeout 1..30, selectors, clientConfig, matchConditions, admissionReviewVersions.
 * matchConditions' CEL expressions must compile (runtime/cel.ts).
 */
import type { FieldError, FieldPath } from '../../api/field-errors.js';
import { duplicate, invalid, notSupported, required, tooMany } from '../../api/field-errors.js';
import { isDNS1035Label, isDNS1123Subdomain, isQualifiedName } from '../../api/validation/names.js';
import { validateLabelSelector } from '../shared/pod-spec/label-selector.js';
import { validateClientConfig } from './client-config.js';
import { compileError } from '../../runtime/cel.js';
import { validateRuleWithOperations } from './rules.js';
import type { MatchCondition, Webhook } from './types.js';

const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const NO_SIDE_EFFECT_CLASSES = ['None', 'NoneOnDryRun'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];
const ADMISSION_REVIEW_VERSIONS = ['v1', 'v1beta1'];
const MAX_MATCH_CONDITIONS = 64;

/** utilvalidation.IsFullyQualifiedName: a DNS subdomain of at least three labels. */
function validateFullyQualifiedName(name: string, path: FieldPath): FieldError[] {
  if (!name) return [required(path)];
  const errs = isDNS1123Subdomain(name);
  if (errs.length > 0) return [invalid(path, name, errs.join(','))];
  if (name.split('.').length < 3) return [invalid(path, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

function validateAdmissionReviewVersions(versions: string[], path: FieldPath): FieldError[] {
  const accepted = ADMISSION_REVIEW_VERSIONS.join(', ');
  if (versions.length === 0) return [required(path, `must specify one of ${accepted}`)];
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errors.push(invalid(path.index(i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of isDNS1035Label(v)) errors.push(invalid(path.index(i), v, msg));
  });
  if (!versions.some((v) => ADMISSION_REVIEW_VERSIONS.includes(v)))
    errors.push(invalid(path, versions, `must include at least one of ${accepted}`));
  return errors;
}

function validateMatchConditions(conditions: MatchCondition[], path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  if (conditions.length > MAX_MATCH_CONDITIONS) errors.push(tooMany(path, conditions.length, MAX_MATCH_CONDITIONS));
  const names = new Set<string>();
  conditions.forEach((c, i) => {
    const at = path.index(i);
    if (!(c.expression ?? '').trim()) errors.push(required(at.child('expression')));
    else {
      const why = compileError(c.expression!);
      if (why) errors.push(invalid(at.child('expression'), c.expression, `compilation failed: ${why}`));
    }
    const name = c.name ?? '';
    if (!name) errors.push(required(at.child('name')));
    else for (const msg of isQualifiedName(name)) errors.push(invalid(at.child('name'), name, msg));
    if (name) {
      if (names.has(name)) errors.push(duplicate(at.child('name'), name));
      names.add(name);
    }
  });
  return errors;
}

/** Every rule of one webhook, admission review versions included; `mutating` adds reinvocationPolicy. */
export function validateWebhook(hook: Webhook, mutating: boolean, path: FieldPath): FieldError[] {
  const errors = validateFullyQualifiedName(hook.name ?? '', path.child('name'));
  (hook.rules ?? []).forEach((rule, i) => errors.push(...validateRuleWithOperations(rule, path.child('rules').index(i))));
  if (hook.failurePolicy !== undefined && !FAILURE_POLICIES.includes(hook.failurePolicy)) {
    errors.push(notSupported(path.child('failurePolicy'), hook.failurePolicy, FAILURE_POLICIES));
  }
  if (hook.matchPolicy !== undefined && !MATCH_POLICIES.includes(hook.matchPolicy)) {
    errors.push(notSupported(path.child('matchPolicy'), hook.matchPolicy, MATCH_POLICIES));
  }
  if (hook.sideEffects === undefined)
    errors.push(required(path.child('sideEffects'), `must specify one of ${NO_SIDE_EFFECT_CLASSES.join(', ')}`));
  else if (!NO_SIDE_EFFECT_CLASSES.includes(hook.sideEffects))
    errors.push(notSupported(path.child('sideEffects'), hook.sideEffects, NO_SIDE_EFFECT_CLASSES));
  const timeout = hook.timeoutSeconds;
  if (timeout !== undefined && (timeout < 1 || timeout > 30)) {
    errors.push(invalid(path.child('timeoutSeconds'), timeout, 'the timeout value must be between 1 and 30 seconds'));
  }
  errors.push(...validateLabelSelector(hook.namespaceSelector, path.child('namespaceSelector')));
  errors.push(...validateLabelSelector(hook.objectSelector, path.child('objectSelector')));
  if (mutating && hook.reinvocationPolicy !== undefined && !REINVOCATION_POLICIES.includes(hook.reinvocationPolicy)) {
    errors.push(notSupported(path.child('reinvocationPolicy'), hook.reinvocationPolicy, REINVOCATION_POLICIES));
  }
  errors.push(...validateClientConfig(hook.clientConfig, path.child('clientConfig')));
  errors.push(...validateMatchConditions(hook.matchConditions ?? [], path.child('matchConditions')));
  errors.push(...validateAdmissionReviewVersions(hook.admissionReviewVersions ?? [], path.child('admissionReviewVersions')));
  return errors;
}
