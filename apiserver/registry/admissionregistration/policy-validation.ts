/**
 * ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding as Kubernetes validates them
 * (pkg/apis/admissionregistration/validation): failurePolicy, paramKind, matchConstraints with at least
 * one resource rule, matchConditions, variables, validations (expression, message, messageExpression,
 * reason), auditAnnotations; every CEL expression must compile against the policy's variables
 * (object, oldObject, request, params when there is a paramKind, namespaceObject, authorizer,
 * variables) in the policies' CEL environment, else `compilation failed: ERROR: …` as cel-go words it.
 * A binding: policyName, paramRef (name xor selector, parameterNotFoundAction), matchResources,
 * validationActions.
 */
import type { FieldError, FieldPath } from '../../api/field-errors.js';
import { duplicate, fieldPath, forbidden, invalid, notSupported, required, tooMany } from '../../api/field-errors.js';
import {
  isDNS1035Label,
  isDNS1123Subdomain,
  isQualifiedName,
  nameIsDNSSubdomain,
  validatePathSegmentName,
} from '../../api/validation/names.js';
import { kubernetesCelEnv } from '../../runtime/cel-kubernetes.js';
import { typeCheck } from '../shared/cel-schema/cel-type-check.js';
import { DYN, type CelT, isCelIdentifier } from '../shared/cel-schema/cel-types.js';
import { validateLabelSelector } from '../shared/pod-spec/label-selector.js';
import type {
  AuditAnnotation,
  BindingSpec,
  MatchResources,
  NamedRuleWithOperations,
  ParamKind,
  ParamRef,
  PolicySpec,
  Validation,
  Variable,
} from './policy-types.js';
import { validateRuleWithOperations } from './rules.js';
import type { MatchCondition } from './types.js';

const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const REASONS = ['Forbidden', 'Invalid', 'RequestEntityTooLarge', 'Unauthorized'];
const ACTIONS = ['Audit', 'Deny', 'Warn'];
const NOT_FOUND_ACTIONS = ['Deny', 'Allow'];
const MAX_AUDIT_ANNOTATIONS = 20;
const MAX_VALUE_EXPRESSION_LENGTH = 5 * 1024;
const MAX_MATCH_CONDITIONS = 64;

/** The variables an expression may read; `params` only with a paramKind, `authorizer` not in messages. */
export function policyCelVariables(hasParams: boolean, hasAuthorizer: boolean): Record<string, CelT> {
  const vars: Record<string, CelT> = { object: DYN, oldObject: DYN, request: DYN, namespaceObject: DYN, variables: DYN };
  if (hasParams) vars.params = DYN;
  if (hasAuthorizer) {
    vars.authorizer = DYN;
    vars.authorizerRequestResource = DYN;
  }
  return vars;
}

/** Why an expression does not compile, or its result type's kind. */
function compile(expression: string, hasParams: boolean, hasAuthorizer: boolean): { error: string } | { kind: string } {
  const checked = typeCheck(expression, policyCelVariables(hasParams, hasAuthorizer), kubernetesCelEnv());
  if ('error' in checked) return { error: `compilation failed: ${checked.error}` };
  return { kind: checked.type.kind };
}

/** One expression's errors: it compiles and, when `want` is given, evaluates to that type (or dyn). */
function checkExpression(expression: string, at: FieldPath, hasParams: boolean, hasAuthorizer: boolean, want?: string): FieldError[] {
  const r = compile(expression, hasParams, hasAuthorizer);
  if ('error' in r) return [invalid(at, expression, r.error)];
  if (want && r.kind !== want && r.kind !== 'dyn') return [invalid(at, expression, `must evaluate to ${want}`)];
  return [];
}

function validateParamKind(k: ParamKind, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const apiVersion = k.apiVersion ?? '';
  if (!apiVersion) errors.push(required(path.child('apiVersion')));
  else {
    const parts = apiVersion.split('/');
    if (parts.length > 2) errors.push(invalid(path.child('apiVersion'), apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
    else {
      const [group, version] = parts.length === 2 ? parts : ['', parts[0]];
      if (group) {
        const errs = isDNS1123Subdomain(group);
        if (errs.length) errors.push(invalid(path.child('apiVersion'), group, errs.join(',')));
      }
      if (!version) errors.push(invalid(path.child('apiVersion'), apiVersion, 'version must be specified'));
      else {
        const errs = isDNS1035Label(version);
        if (errs.length) errors.push(invalid(path.child('apiVersion'), version, errs.join(',')));
      }
    }
  }
  const kind = k.kind ?? '';
  if (!kind) errors.push(required(path.child('kind')));
  else {
    const errs = isDNS1035Label(kind.toLowerCase());
    if (errs.length) errors.push(invalid(path.child('kind'), kind, `may have mixed case, but should otherwise match: ${errs.join(',')}`));
  }
  return errors;
}

function validateNamedRule(r: NamedRuleWithOperations, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  (r.resourceNames ?? []).forEach((n, i) => {
    for (const msg of validatePathSegmentName(n, false)) errors.push(invalid(path.child('resourceNames').index(i), n, msg));
    if (seen.has(n)) errors.push(duplicate(path.child('resourceNames').index(i), n));
    seen.add(n);
  });
  errors.push(...validateRuleWithOperations(r, path));
  return errors;
}

function validateMatchResources(m: MatchResources | undefined, path: FieldPath): FieldError[] {
  if (!m) return [];
  const errors: FieldError[] = [];
  if (m.matchPolicy === undefined) errors.push(required(path.child('matchPolicy')));
  else if (!MATCH_POLICIES.includes(m.matchPolicy)) errors.push(notSupported(path.child('matchPolicy'), m.matchPolicy, MATCH_POLICIES));
  if (!m.namespaceSelector) errors.push(required(path.child('namespaceSelector')));
  else errors.push(...validateLabelSelector(m.namespaceSelector, path.child('namespaceSelector')));
  if (!m.objectSelector) errors.push(required(path.child('labelSelector')));
  else errors.push(...validateLabelSelector(m.objectSelector, path.child('labelSelector')));
  (m.resourceRules ?? []).forEach((r, i) => errors.push(...validateNamedRule(r, path.child('resourceRules').index(i))));
  (m.excludeResourceRules ?? []).forEach((r, i) => errors.push(...validateNamedRule(r, path.child('excludeResourceRules').index(i))));
  return errors;
}

function validateMatchConditions(conditions: MatchCondition[], hasParams: boolean, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  if (conditions.length > MAX_MATCH_CONDITIONS) errors.push(tooMany(path, conditions.length, MAX_MATCH_CONDITIONS));
  const names = new Set<string>();
  conditions.forEach((c, i) => {
    const at = path.index(i);
    const expression = (c.expression ?? '').trim();
    if (!expression) errors.push(required(at.child('expression')));
    else errors.push(...checkExpression(expression, at.child('expression'), hasParams, true, 'bool'));
    const name = c.name ?? '';
    if (!name) errors.push(required(at.child('name')));
    else for (const msg of isQualifiedName(name)) errors.push(invalid(at.child('name'), name, msg));
    if (name && names.has(name)) errors.push(duplicate(at.child('name'), name));
    names.add(name);
  });
  return errors;
}

function validateVariable(v: Variable, hasParams: boolean, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const name = v.name ?? '';
  if (!name.trim()) errors.push(required(path.child('name'), 'name is not specified'));
  else if (!isCelIdentifier(name)) errors.push(invalid(path.child('name'), name, 'name is not a valid CEL identifier'));
  const expression = v.expression ?? '';
  if (!expression.trim()) errors.push(required(path.child('expression'), 'expression is not specified'));
  else errors.push(...checkExpression(expression, path.child('expression'), hasParams, true));
  return errors;
}

function validateValidation(v: Validation, hasParams: boolean, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const expression = (v.expression ?? '').trim();
  if (!expression) errors.push(required(path.child('expression'), 'expression is not specified'));
  else errors.push(...checkExpression(v.expression!, path.child('expression'), hasParams, true, 'bool'));
  const messageExpression = v.messageExpression ?? '';
  if (messageExpression && !messageExpression.trim())
    errors.push(invalid(path.child('messageExpression'), messageExpression, 'must be non-empty if specified'));
  else if (messageExpression.trim())
    errors.push(...checkExpression(messageExpression, path.child('messageExpression'), hasParams, false, 'string'));
  const message = v.message ?? '';
  if (message && !message.trim()) errors.push(invalid(path.child('message'), message, 'message must be non-empty if specified'));
  else if (/[\n\r]/.test(message.trim())) errors.push(invalid(path.child('message'), message, 'message must not contain line breaks'));
  if (v.reason !== undefined && !REASONS.includes(v.reason)) errors.push(notSupported(path.child('reason'), v.reason, REASONS));
  return errors;
}

function validateAuditAnnotation(policyName: string, a: AuditAnnotation, hasParams: boolean, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  if (policyName)
    for (const msg of isQualifiedName(`${policyName}/${a.key ?? ''}`))
      errors.push(invalid(path.child('key'), `${policyName}/${a.key ?? ''}`, msg));
  else errors.push(invalid(path.child('key'), a.key ?? '', 'requires metadata.name be non-empty'));
  const value = (a.valueExpression ?? '').trim();
  if (!value) errors.push(required(path.child('valueExpression'), 'valueExpression is not specified'));
  else if (value.length > MAX_VALUE_EXPRESSION_LENGTH)
    errors.push(required(path.child('valueExpression'), `must not exceed ${MAX_VALUE_EXPRESSION_LENGTH} bytes in length`));
  else {
    const r = compile(value, hasParams, true);
    if ('error' in r) errors.push(invalid(path.child('valueExpression'), a.valueExpression, r.error));
    else if (!['string', 'null_type', 'dyn'].includes(r.kind))
      errors.push(invalid(path.child('valueExpression'), a.valueExpression, 'must evaluate to one of [string null_type]'));
  }
  return errors;
}

export function validatePolicySpec(name: string, spec: PolicySpec | undefined): FieldError[] {
  const s = spec ?? {};
  const path = fieldPath('spec');
  const errors: FieldError[] = [];
  if (s.failurePolicy === undefined) errors.push(required(path.child('failurePolicy')));
  else if (!FAILURE_POLICIES.includes(s.failurePolicy))
    errors.push(notSupported(path.child('failurePolicy'), s.failurePolicy, FAILURE_POLICIES));
  const hasParams = s.paramKind !== undefined && s.paramKind !== null;
  if (hasParams) errors.push(...validateParamKind(s.paramKind!, path.child('paramKind')));
  if (!s.matchConstraints) errors.push(required(path.child('matchConstraints')));
  else {
    errors.push(...validateMatchResources(s.matchConstraints, path.child('matchConstraints')));
    if (!(s.matchConstraints.resourceRules ?? []).length) errors.push(required(path.child('matchConstraints', 'resourceRules')));
  }
  errors.push(...validateMatchConditions(s.matchConditions ?? [], hasParams, path.child('matchConditions')));
  (s.variables ?? []).forEach((v, i) => errors.push(...validateVariable(v, hasParams, path.child('variables').index(i))));
  const validations = s.validations ?? [];
  const annotations = s.auditAnnotations ?? [];
  if (validations.length === 0 && annotations.length === 0) {
    const why = 'validations or auditAnnotations must contain at least one item';
    errors.push(required(path.child('validations'), why), required(path.child('auditAnnotations'), why));
    return errors;
  }
  validations.forEach((v, i) => errors.push(...validateValidation(v, hasParams, path.child('validations').index(i))));
  if (annotations.length > MAX_AUDIT_ANNOTATIONS)
    errors.push(invalid(path.child('auditAnnotations'), annotations, `must not have more than ${MAX_AUDIT_ANNOTATIONS} auditAnnotations`));
  const keys = new Set<string>();
  annotations.forEach((a, i) => {
    const at = path.child('auditAnnotations').index(i);
    errors.push(...validateAuditAnnotation(name, a, hasParams, at));
    if (keys.has(a.key ?? '')) errors.push(duplicate(at.child('key'), a.key ?? ''));
    keys.add(a.key ?? '');
  });
  return errors;
}

function validateParamRef(r: ParamRef | undefined, path: FieldPath): FieldError[] {
  if (!r) return [];
  const errors: FieldError[] = [];
  if (r.name) {
    for (const msg of validatePathSegmentName(r.name, false)) errors.push(invalid(path.child('name'), r.name, msg));
    if (r.selector) errors.push(forbidden(path.child('name'), 'name and selector are mutually exclusive'));
  }
  if (r.selector) {
    errors.push(...validateLabelSelector(r.selector, path.child('selector')));
    if (r.name) errors.push(forbidden(path.child('selector'), 'name and selector are mutually exclusive'));
  }
  if (!r.name && !r.selector) errors.push(required(path, 'one of name or selector must be specified'));
  if (!r.parameterNotFoundAction) errors.push(required(path.child('parameterNotFoundAction')));
  else if (!NOT_FOUND_ACTIONS.includes(r.parameterNotFoundAction))
    errors.push(notSupported(path.child('parameterNotFoundAction'), r.parameterNotFoundAction, NOT_FOUND_ACTIONS));
  return errors;
}

function validateValidationActions(actions: string[], path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  actions.forEach((a, i) => {
    if (!ACTIONS.includes(a)) errors.push(notSupported(path.index(i), a, ACTIONS));
    if (seen.has(a)) errors.push(duplicate(path.index(i), a));
    seen.add(a);
  });
  if (seen.has('Deny') && seen.has('Warn'))
    errors.push(
      invalid(
        path,
        actions,
        'must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
      ),
    );
  if (seen.size === 0) errors.push(required(path, 'at least one validation action is required'));
  return errors;
}

export function validateBindingSpec(spec: BindingSpec | undefined): FieldError[] {
  const s = spec ?? {};
  const path = fieldPath('spec');
  const errors: FieldError[] = [];
  if (!s.policyName) errors.push(required(path.child('policyName')));
  else for (const msg of nameIsDNSSubdomain(s.policyName, false)) errors.push(invalid(path.child('policyName'), s.policyName, msg));
  errors.push(...validateParamRef(s.paramRef, path.child('paramRef')));
  // Kubernetes 1.28 names this path with its typo.
  errors.push(...validateMatchResources(s.matchResources, path.child('matchResouces')));
  errors.push(...validateValidationActions(s.validationActions ?? [], path.child('validationActions')));
  return errors;
}
