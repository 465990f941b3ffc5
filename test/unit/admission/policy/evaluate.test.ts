/** One policy's evaluation: validations and their messages, match conditions, variables, failurePolicy, audit annotations, cost limits. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import { compilePolicy } from '../../../../apiserver/admission/policy/compiled-policy.js';
import { evaluatePolicy, evaluatePolicyAuthorized } from '../../../../apiserver/admission/policy/evaluate.js';
import { matchResources } from '../../../../apiserver/admission/policy/match-resources.js';
import type { PolicySpec } from '../../../../apiserver/registry/admissionregistration/policy-types.js';
import { attrs } from '../fixture.js';

const RULES = { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['*'], resources: ['deployments'], scope: '*' }] };

const deploy = (replicas: number, labels: Record<string, string> = {}): ApiObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'd', namespace: 'ns', labels },
  spec: { replicas },
});

function evaluate(spec: PolicySpec, object: ApiObject, opts: { oldObject?: ApiObject; params?: ApiObject | null } = {}) {
  const a = attrs({
    group: 'apps',
    resource: 'deployments',
    namespace: 'ns',
    object,
    oldObject: opts.oldObject,
    operation: opts.oldObject ? 'UPDATE' : 'CREATE',
  });
  const matched = matchResources(
    { equivalents: () => [] },
    { ...RULES, matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {} },
    a,
    {},
  );
  assert.ok(matched);
  return evaluatePolicy(compilePolicy('p', { matchConstraints: RULES, ...spec }), {
    attributes: a,
    matched,
    params: opts.params ?? null,
    namespaceObject: null,
  });
}

test('a false validation denies with its message, else messageExpression, else the expression', () => {
  const r = evaluate(
    {
      validations: [
        { expression: 'object.spec.replicas <= 5' },
        { expression: 'object.spec.replicas <= 5', message: 'at most 5' },
        { expression: 'object.spec.replicas <= 5', messageExpression: "'got ' + string(object.spec.replicas)", message: 'ignored' },
        { expression: 'object.spec.replicas > 0', reason: 'Forbidden' },
      ],
    },
    deploy(7),
  );
  assert.deepEqual(
    r.decisions.map((d) => [d.action, d.message, d.reason]),
    [
      ['deny', 'failed expression: object.spec.replicas <= 5', 'Invalid'],
      ['deny', 'at most 5', 'Invalid'],
      ['deny', 'got 7', 'Invalid'],
      ['admit', '', undefined],
    ],
  );
});

test('a messageExpression that fails, is empty or spans lines falls back to the message', () => {
  const r = evaluate(
    {
      validations: [
        { expression: 'false', message: 'm1', messageExpression: 'object.missing.field' },
        { expression: 'false', message: 'm2', messageExpression: "''" },
        { expression: 'false', message: 'm3', messageExpression: "'a\\nb'" },
      ],
    },
    deploy(1),
  );
  assert.deepEqual(
    r.decisions.map((d) => d.message),
    ['m1', 'm2', 'm3'],
  );
});

test('params and oldObject are variables; a transition rule sees both', () => {
  const params: ApiObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'limits' }, data: { max: '3' } };
  const spec: PolicySpec = {
    paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
    validations: [
      { expression: 'object.spec.replicas <= int(params.data.max)' },
      { expression: 'oldObject == null || object.spec.replicas >= oldObject.spec.replicas', message: 'no scaling down' },
    ],
  };
  assert.deepEqual(
    evaluate(spec, deploy(3), { params }).decisions.map((d) => d.action),
    ['admit', 'admit'],
  );
  assert.deepEqual(
    evaluate(spec, deploy(2), { params, oldObject: deploy(3) }).decisions.map((d) => [d.action, d.message]),
    [
      ['admit', ''],
      ['deny', 'no scaling down'],
    ],
  );
});

test('a false match condition skips the policy; variables compose', () => {
  const spec: PolicySpec = {
    matchConditions: [{ name: 'labelled', expression: "'team' in object.metadata.labels" }],
    variables: [
      { name: 'team', expression: "object.metadata.labels['team']" },
      { name: 'isInfra', expression: "variables.team == 'infra'" },
    ],
    validations: [{ expression: 'variables.isInfra', messageExpression: "'team ' + variables.team + ' may not'" }],
  };
  assert.equal(evaluate(spec, deploy(1)).skipped, true);
  assert.deepEqual(
    evaluate(spec, deploy(1, { team: 'web' })).decisions.map((d) => d.message),
    ['team web may not'],
  );
  assert.deepEqual(
    evaluate(spec, deploy(1, { team: 'infra' })).decisions.map((d) => d.action),
    ['admit'],
  );
});

test('an evaluation error is a denial under Fail and an admission under Ignore', () => {
  const validations = [{ expression: "object.metadata.labels['absent'] == 'x'" }];
  const fail = evaluate({ failurePolicy: 'Fail', validations }, deploy(1)).decisions[0];
  assert.equal(fail.action, 'deny');
  assert.equal(fail.error, true);
  assert.match(fail.message, /^expression 'object.metadata.labels\['absent'\] == 'x'' resulted in error: /);
  const ignore = evaluate({ failurePolicy: 'Ignore', validations }, deploy(1)).decisions[0];
  assert.equal(ignore.action, 'admit');
  assert.equal(ignore.error, true);
});

test('audit annotations publish strings and leave out null', () => {
  const r = evaluate(
    {
      auditAnnotations: [
        { key: 'high', valueExpression: "object.spec.replicas > 5 ? 'replicas ' + string(object.spec.replicas) : null" },
        { key: 'always', valueExpression: "'  seen  '" },
      ],
    },
    deploy(9),
  );
  assert.deepEqual(r.auditAnnotations, [
    { key: 'high', value: 'replicas 9' },
    { key: 'always', value: 'seen' },
  ]);
  assert.deepEqual(evaluate({ auditAnnotations: [{ key: 'high', valueExpression: 'null' }] }, deploy(1)).auditAnnotations, []);
});

test('an expression over the per-call cost limit fails as cel-go cancels it, under failurePolicy', () => {
  const big = deploy(1);
  (big.spec as Record<string, unknown>).items = Array.from({ length: 2000 }, (_, i) => i);
  const r = evaluate({ validations: [{ expression: 'object.spec.items.all(x, object.spec.items.all(y, x + y >= 0))' }] }, big);
  assert.equal(r.decisions[0].action, 'deny');
  assert.match(r.decisions[0].message, /resulted in error: operation cancelled: actual cost limit exceeded$/);
  const ignored = evaluate(
    { failurePolicy: 'Ignore', validations: [{ expression: 'object.spec.items.all(x, object.spec.items.all(y, x + y >= 0))' }] },
    big,
  );
  assert.equal(ignored.decisions[0].action, 'admit');
});

test('the lists and strings libraries are there', () => {
  const r = evaluate(
    {
      validations: [
        { expression: '[1, 2, 3].isSorted() && [3, 1, 2].max() == 3 && [1, 2].sum() == 3 && [1, 2, 1].lastIndexOf(1) == 2' },
        { expression: "'A-b'.lowerAscii() == 'a-b' && 'a,b'.split(',').size() == 2 && ['x', 'y'].join('-') == 'x-y'" },
      ],
    },
    deploy(1),
  );
  assert.deepEqual(
    r.decisions.map((d) => [d.action, d.message]),
    [
      ['admit', ''],
      ['admit', ''],
    ],
  );
});

test('an expression that does not compile makes the policy a configuration error', () => {
  const p = compilePolicy('p', { validations: [{ expression: 'object.(' }] });
  assert.match(p.configurationError ?? '', /^compilation error: /);
});

test('the authorizer answers checks for the request user or a service account, asked again once authorized', async () => {
  const asked: string[] = [];
  const authorizer = {
    authorize: async (x: {
      user: { name: string };
      verb: string;
      resource: string;
      apiGroup: string;
      namespace: string;
      apiVersion: string;
    }) => {
      asked.push(`${x.user.name} ${x.verb} ${x.apiGroup}/${x.resource} in ${x.namespace} (${x.apiVersion})`);
      return {
        decision: x.user.name === 'admin' ? ('Allow' as const) : ('NoOpinion' as const),
        reason: x.user.name === 'admin' ? 'masters' : '',
      };
    },
  };
  const a = attrs({ group: 'apps', resource: 'deployments', namespace: 'ns', object: deploy(1) });
  const matched = matchResources(
    { equivalents: () => [] },
    { ...RULES, matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {} },
    a,
    {},
  );
  assert.ok(matched);
  const policy = compilePolicy('p', {
    matchConstraints: RULES,
    validations: [
      { expression: "authorizer.group('').resource('secrets').namespace('ns').check('get').allowed()" },
      {
        expression: "authorizer.serviceAccount('ns', 'robot').group('').resource('secrets').check('get').allowed()",
        message: 'robot may not',
      },
      { expression: "authorizerRequestResource.check('delete').reason() == 'masters'" },
    ],
  });
  const r = await evaluatePolicyAuthorized(policy, { attributes: a, matched, params: null, namespaceObject: null }, authorizer as never);
  assert.deepEqual(
    r.decisions.map((d) => [d.action, d.message]),
    [
      ['admit', ''],
      ['deny', 'robot may not'],
      ['admit', ''],
    ],
  );
  assert.deepEqual(asked.sort(), [
    'admin delete apps/deployments in ns (*)',
    'admin get /secrets in ns (*)',
    'system:serviceaccount:ns:robot get /secrets in  (*)',
  ]);
});
