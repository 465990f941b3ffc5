import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newApiDomain } from '../../../../apiserver/api/domain.js';
import { errorMessage, fieldPath, type FieldError } from '../../../../apiserver/api/field-errors.js';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import type { Strategy, StrategyContext } from '../../../../apiserver/api/strategy.js';
import { validateWebhookService, validateWebhookURL } from '../../../../apiserver/registry/admissionregistration/client-config.js';
import { validateRuleWithOperations } from '../../../../apiserver/registry/admissionregistration/rules.js';
import {
  mutatingWebhookConfigurationStrategy,
  validatingWebhookConfigurationStrategy,
} from '../../../../apiserver/registry/admissionregistration/strategy.js';

const ctx: StrategyContext = { domain: newApiDomain(), now: new Date() };
const messages = (errs: FieldError[]) => errs.map(errorMessage);
const url = fieldPath('url');
const service = fieldPath('service');

function config(webhooks: Record<string, unknown>[]): ApiObject {
  return { metadata: { name: 'c' }, webhooks };
}

/** The errors of a configuration after defaulting, as the store validates it. */
function validate(strategy: Strategy, webhooks: Record<string, unknown>[]): string[] {
  const c = config(webhooks);
  strategy.applyDefaults!(c, ctx);
  return messages(strategy.validate!(c, ctx));
}

const valid = () => ({
  name: 'hook.example.com',
  clientConfig: { service: { namespace: 'ns', name: 'svc' } },
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
});

describe('webhook clientConfig', () => {
  it('accepts an https URL with a host and path', () => {
    assert.deepEqual(validateWebhookURL(url, 'https://hook.example.com:8443/validate'), []);
  });

  it('refuses other schemes, missing hosts, user info, queries and fragments', () => {
    assert.deepEqual(messages(validateWebhookURL(url, 'http://user:pw@h/p?x=1#frag')), [
      'url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
      'url: Invalid value: "user:pw": user information is not permitted in the URL',
      'url: Invalid value: "frag": fragments are not permitted in the URL',
      'url: Invalid value: "x=1": query parameters are not permitted in the URL',
    ]);
    assert.deepEqual(messages(validateWebhookURL(url, 'hook/path')), [
      'url: Invalid value: "": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
      'url: Invalid value: "": host must be provided; desired format: https://host[/path]',
    ]);
  });

  it('reports URLs Go cannot parse as required', () => {
    assert.deepEqual(messages(validateWebhookURL(url, '://x')), [
      'url: Required value: url must be a valid URL: parse "://x": missing protocol scheme; desired format: https://host[/path]',
    ]);
    assert.deepEqual(messages(validateWebhookURL(url, 'https://h:port/')), [
      'url: Required value: url must be a valid URL: parse "https://h:port/": invalid port ":port" after host; desired format: https://host[/path]',
    ]);
  });

  it('checks a service reference: name, namespace, port and path segments', () => {
    assert.deepEqual(validateWebhookService(service, { name: 's', namespace: 'n', port: 443, path: '/a/b.c/' }), []);
    assert.deepEqual(messages(validateWebhookService(service, { port: 0, path: 'a//B' })), [
      'service.name: Required value: service name is required',
      'service.namespace: Required value: service namespace is required',
      'service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive',
      'service.path: Invalid value: "a//B": must start with a \'/\'',
      'service.path: Invalid value: "a//B": segment[0] may not be empty',
      'service.path: Invalid value: "a//B": segment[1] may not be empty',
      "service.path: Invalid value: \"a//B\": segment[2]: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    ]);
    assert.deepEqual(messages(validateWebhookService(service, { name: 's', namespace: 'n', port: 1, path: '//' })), [
      'service.path: Invalid value: "//": segment[0] may not be empty',
    ]);
  });
});

describe('webhook rules', () => {
  const rule = fieldPath('rules').index(0);
  it('requires each list, keeps "*" alone, and knows the operations and scopes', () => {
    assert.deepEqual(messages(validateRuleWithOperations({ scope: 'Global' }, rule)), [
      'rules[0].operations: Required value',
      'rules[0].apiGroups: Required value',
      'rules[0].apiVersions: Required value',
      'rules[0].resources: Required value',
      'rules[0].scope: Unsupported value: "Global": supported values: "*", "Cluster", "Namespaced"',
    ]);
    const r = { operations: ['*', 'PATCH'], apiGroups: ['*', 'apps'], apiVersions: ['*', ''], resources: ['*'] };
    assert.deepEqual(messages(validateRuleWithOperations(r, rule)), [
      'rules[0].operations: Invalid value: []admissionregistration.OperationType{"*", "PATCH"}: if \'*\' is present, must not specify other operations',
      'rules[0].operations[1]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
      'rules[0].apiGroups: Invalid value: []string{"*", "apps"}: if \'*\' is present, must not specify other API groups',
      'rules[0].apiVersions: Invalid value: []string{"*", ""}: if \'*\' is present, must not specify other API versions',
      'rules[0].apiVersions[1]: Required value',
    ]);
  });

  it('refuses overlapping resource and subresource wildcards', () => {
    const base = { operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'] };
    assert.deepEqual(validateRuleWithOperations({ ...base, resources: ['pods', 'pods/status', '*/scale'] }, rule), []);
    assert.deepEqual(messages(validateRuleWithOperations({ ...base, resources: ['pods/*', 'pods/log', '*/x', 'a/x', ''] }, rule)), [
      'rules[0].resources[1]: Invalid value: "pods/log": if \'pods/*\' is present, must not specify pods/log',
      'rules[0].resources[3]: Invalid value: "a/x": if \'*/x\' is present, must not specify a/x',
      'rules[0].resources[4]: Required value',
    ]);
    assert.deepEqual(messages(validateRuleWithOperations({ ...base, resources: ['*/*', 'pods'] }, rule)), [
      'rules[0].resources: Invalid value: []string{"*/*", "pods"}: if \'*/*\' is present, must not specify other resources',
    ]);
    assert.deepEqual(messages(validateRuleWithOperations({ ...base, resources: ['*', 'pods'] }, rule)), [
      'rules[0].resources: Invalid value: []string{"*", "pods"}: if \'*\' is present, must not specify other resources without subresources',
    ]);
  });
});

describe('webhook configurations', () => {
  it('default every webhook as Kubernetes v1 does', () => {
    const c = config([valid()]);
    mutatingWebhookConfigurationStrategy.applyDefaults!(c, ctx);
    assert.deepEqual(c.webhooks, [
      {
        ...valid(),
        clientConfig: { service: { namespace: 'ns', name: 'svc', port: 443 } },
        rules: [{ ...valid().rules[0], scope: '*' }],
        failurePolicy: 'Fail',
        matchPolicy: 'Equivalent',
        namespaceSelector: {},
        objectSelector: {},
        timeoutSeconds: 10,
        reinvocationPolicy: 'Never',
      },
    ]);
    const v = config([valid()]);
    validatingWebhookConfigurationStrategy.applyDefaults!(v, ctx);
    assert.equal((v.webhooks as Record<string, unknown>[])[0].reinvocationPolicy, undefined);
    assert.deepEqual(validatingWebhookConfigurationStrategy.validate!(v, ctx), []);
  });

  it('validate names, enumerations, timeouts, selectors, clientConfig and review versions', () => {
    const hook = {
      name: 'hook',
      failurePolicy: 'Maybe',
      matchPolicy: 'Loose',
      sideEffects: 'Some',
      timeoutSeconds: 31,
      reinvocationPolicy: 'Always',
      namespaceSelector: { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] },
      objectSelector: { matchLabels: { 'bad key': 'v' } },
      clientConfig: {},
      admissionReviewVersions: ['v2', 'v2'],
    };
    assert.deepEqual(validate(mutatingWebhookConfigurationStrategy, [hook]), [
      'webhooks[0].name: Invalid value: "hook": should be a domain with at least three segments separated by dots',
      'webhooks[0].failurePolicy: Unsupported value: "Maybe": supported values: "Fail", "Ignore"',
      'webhooks[0].matchPolicy: Unsupported value: "Loose": supported values: "Equivalent", "Exact"',
      'webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
      'webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds',
      "webhooks[0].namespaceSelector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      "webhooks[0].objectSelector.matchLabels: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      'webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"',
      'webhooks[0].clientConfig: Required value: exactly one of url or service is required',
      'webhooks[0].admissionReviewVersions[1]: Invalid value: "v2": duplicate version',
      'webhooks[0].admissionReviewVersions: Invalid value: []string{"v2", "v2"}: must include at least one of v1, v1beta1',
    ]);
  });

  it('require sideEffects and admissionReviewVersions, and unique webhook and condition names', () => {
    const { sideEffects: _s, admissionReviewVersions: _a, ...bare } = valid();
    const conditions = [
      { name: 'c', expression: 'true' },
      { name: 'c', expression: ' ' },
      { name: 'bad name!', expression: 'x' },
    ];
    assert.deepEqual(validate(validatingWebhookConfigurationStrategy, [{ ...bare, matchConditions: conditions }, valid()]), [
      'webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun',
      'webhooks[0].matchConditions[1].expression: Required value',
      'webhooks[0].matchConditions[1].name: Duplicate value: "c"',
      "webhooks[0].matchConditions[2].name: Invalid value: \"bad name!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      'webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1',
      'webhooks[1].name: Duplicate value: "hook.example.com"',
    ]);
  });

  it('allow at most 64 match conditions', () => {
    const conditions = Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, expression: 'true' }));
    assert.deepEqual(validate(validatingWebhookConfigurationStrategy, [{ ...valid(), matchConditions: conditions }]), [
      'webhooks[0].matchConditions: Too many: 65: must have at most 64 items',
    ]);
  });
});
