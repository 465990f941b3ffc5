/** ValidatingAdmissionPolicy and binding validation, with Kubernetes' paths and messages. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorMessage } from '../../../../apiserver/api/field-errors.js';
import { applyBindingDefaults, applyPolicyDefaults } from '../../../../apiserver/registry/admissionregistration/policy-defaults.js';
import type { BindingSpec, PolicySpec } from '../../../../apiserver/registry/admissionregistration/policy-types.js';
import { validateBindingSpec, validatePolicySpec } from '../../../../apiserver/registry/admissionregistration/policy-validation.js';

const RULES = [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] }];

function policyErrors(spec: PolicySpec, name = 'p.example.com'): string[] {
  const s = structuredClone(spec);
  applyPolicyDefaults(s);
  return validatePolicySpec(name, s).map(errorMessage);
}

function bindingErrors(spec: BindingSpec): string[] {
  const s = structuredClone(spec);
  applyBindingDefaults(s);
  return validateBindingSpec(s).map(errorMessage);
}

test('a valid policy has no errors; the defaults fill failurePolicy, matchPolicy, selectors and scope', () => {
  const spec: PolicySpec = { matchConstraints: { resourceRules: RULES }, validations: [{ expression: 'object.spec.replicas <= 5' }] };
  assert.deepEqual(policyErrors(spec), []);
  applyPolicyDefaults(spec);
  assert.equal(spec.failurePolicy, 'Fail');
  assert.deepEqual(spec.matchConstraints, {
    resourceRules: [{ ...RULES[0], scope: '*' }],
    matchPolicy: 'Equivalent',
    namespaceSelector: {},
    objectSelector: {},
  });
});

test('required parts and enumerations', () => {
  assert.deepEqual(policyErrors({}), [
    'spec.matchConstraints: Required value',
    'spec.validations: Required value: validations or auditAnnotations must contain at least one item',
    'spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item',
  ]);
  assert.deepEqual(policyErrors({ failurePolicy: 'Maybe', matchConstraints: {}, validations: [{ expression: 'true', reason: 'Odd' }] }), [
    'spec.failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore"',
    'spec.matchConstraints.resourceRules: Required value',
    'spec.validations[0].reason: Unsupported value: "Odd": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge", "Unauthorized"',
  ]);
});

test('expressions must compile against the variables the policy has', () => {
  const errs = policyErrors({
    matchConstraints: { resourceRules: RULES },
    validations: [{ expression: 'params.max > 1' }, { expression: "'a'", messageExpression: '1' }],
    variables: [{ name: 'not-an-identifier', expression: 'object' }],
  });
  assert.equal(errs.length, 4, errs.join('\n'));
  assert.match(errs[0], /^spec\.variables\[0\]\.name: Invalid value: "not-an-identifier": name is not a valid CEL identifier$/);
  assert.match(
    errs[1],
    /^spec\.validations\[0\]\.expression: Invalid value: "params.max > 1": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params'/,
  );
  assert.match(errs[2], /^spec\.validations\[1\]\.expression: Invalid value: "'a'": must evaluate to bool$/);
  assert.match(errs[3], /^spec\.validations\[1\]\.messageExpression: Invalid value: "1": must evaluate to string$/);
  assert.deepEqual(
    policyErrors({
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: { resourceRules: RULES },
      validations: [{ expression: 'params.data.max != ""' }],
    }),
    [],
  );
});

test('audit annotations: a qualified key under the policy name, a string or null value', () => {
  const errs = policyErrors({
    matchConstraints: { resourceRules: RULES },
    auditAnnotations: [
      { key: 'ok', valueExpression: "'v'" },
      { key: 'ok', valueExpression: 'null' },
      { key: 'bad key', valueExpression: '1' },
    ],
  });
  assert.equal(errs.length, 3, errs.join('\n'));
  assert.match(errs[0], /^spec\.auditAnnotations\[1\]\.key: Duplicate value: "ok"$/);
  assert.match(errs[1], /^spec\.auditAnnotations\[2\]\.key: Invalid value: "p.example.com\/bad key": /);
  assert.match(errs[2], /^spec\.auditAnnotations\[2\]\.valueExpression: Invalid value: "1": must evaluate to one of \[string null_type\]$/);
});

test('a binding: policyName, paramRef, validationActions', () => {
  assert.deepEqual(bindingErrors({ policyName: 'p', validationActions: ['Deny'] }), []);
  assert.deepEqual(bindingErrors({}), [
    'spec.policyName: Required value',
    'spec.validationActions: Required value: at least one validation action is required',
  ]);
  assert.deepEqual(
    bindingErrors({
      policyName: 'p',
      validationActions: ['Deny', 'Warn', 'Deny'],
      paramRef: { name: 'x', selector: {}, parameterNotFoundAction: 'Maybe' },
    }),
    [
      'spec.paramRef.name: Forbidden: name and selector are mutually exclusive',
      'spec.paramRef.selector: Forbidden: name and selector are mutually exclusive',
      'spec.paramRef.parameterNotFoundAction: Unsupported value: "Maybe": supported values: "Deny", "Allow"',
      'spec.validationActions[2]: Duplicate value: "Deny"',
      'spec.validationActions: Invalid value: []string{"Deny", "Warn", "Deny"}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
    ],
  );
  assert.deepEqual(bindingErrors({ policyName: 'p', validationActions: ['Audit'], paramRef: {} }), [
    'spec.paramRef: Required value: one of name or selector must be specified',
    'spec.paramRef.parameterNotFoundAction: Required value',
  ]);
});
