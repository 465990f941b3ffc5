/**
 * admissionregistration.orch.io/v1 over HTTP: Validating and Mutating webhook configurations with every
 * v1 default as stored, the 422 causes of invalid webhooks, generation tracking and tables.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import type { TestClient } from '../../support/http-client.js';

const BASE = '/apis/admissionregistration.orch.io/v1';
const VALIDATING = `${BASE}/validatingwebhookconfigurations`;
const MUTATING = `${BASE}/mutatingwebhookconfigurations`;
const MERGE = 'application/merge-patch+json';

const hook = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  clientConfig: { service: { namespace: 'webhooks', name: 'svc', path: '/validate' }, caBundle: 'Y2E=' },
  rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments', 'deployments/scale'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1', 'v1beta1'],
  ...extra,
});

describe('admissionregistration.orch.io/v1 webhook configurations', () => {
  let s: TestServer;
  let c: TestClient;
  before(async () => {
    s = await startTestServer();
    c = s.client;
  });
  after(() => s?.stop());

  it('are discovered cluster-scoped in the api-extensions category', async () => {
    const r = await c.get(BASE);
    assert.deepEqual(
      r.body.resources.map((x: any) => [x.name, x.namespaced, x.categories]),
      [
        ['mutatingwebhookconfigurations', false, ['api-extensions']],
        ['validatingadmissionpolicies', false, ['api-extensions']],
        ['validatingadmissionpolicies/status', false, undefined],
        ['validatingadmissionpolicybindings', false, ['api-extensions']],
        ['validatingwebhookconfigurations', false, ['api-extensions']],
      ],
    );
  });

  it('store a validating webhook with every default, generation 1', async () => {
    const r = await c.post(VALIDATING, { metadata: { name: 'policy' }, webhooks: [hook('policy.example.com')] });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.metadata.generation, 1);
    assert.deepEqual(r.body.webhooks, [
      {
        ...hook('policy.example.com'),
        clientConfig: { service: { namespace: 'webhooks', name: 'svc', path: '/validate', port: 443 }, caBundle: 'Y2E=' },
        rules: [{ ...hook('x').rules[0], scope: '*' }],
        failurePolicy: 'Fail',
        matchPolicy: 'Equivalent',
        namespaceSelector: {},
        objectSelector: {},
        timeoutSeconds: 10,
      },
    ]);
    assert.deepEqual((await c.get(`${VALIDATING}/policy`)).body, r.body);
  });

  it('store a mutating webhook with reinvocationPolicy Never and keep what is set', async () => {
    const r = await c.post(MUTATING, {
      metadata: { name: 'inject' },
      webhooks: [
        hook('inject.example.com', {
          clientConfig: { url: 'https://inject.example.com:8443/mutate' },
          failurePolicy: 'Ignore',
          matchPolicy: 'Exact',
          timeoutSeconds: 5,
          sideEffects: 'NoneOnDryRun',
          namespaceSelector: { matchLabels: { inject: 'true' } },
          matchConditions: [{ name: 'not-system', expression: "!request.userInfo.username.startsWith('system:')" }],
        }),
      ],
    });
    assert.equal(r.status, 201, r.text);
    const w = r.body.webhooks[0];
    assert.deepEqual(
      [
        w.reinvocationPolicy,
        w.failurePolicy,
        w.matchPolicy,
        w.timeoutSeconds,
        w.sideEffects,
        w.namespaceSelector,
        w.objectSelector,
        w.clientConfig,
      ],
      [
        'Never',
        'Ignore',
        'Exact',
        5,
        'NoneOnDryRun',
        { matchLabels: { inject: 'true' } },
        {},
        { url: 'https://inject.example.com:8443/mutate' },
      ],
    );
  });

  it('answer 422 with one cause per invalid field', async () => {
    const r = await c.post(VALIDATING, {
      metadata: { name: 'bad' },
      webhooks: [
        {
          name: 'short',
          clientConfig: { url: 'http://h/p?q=1', service: { name: 's', namespace: 'n' } },
          rules: [{ operations: ['PATCH'], apiGroups: [], apiVersions: ['v1'], resources: ['*/*', 'pods'], scope: 'Global' }],
          sideEffects: 'Unknown',
          timeoutSeconds: 0,
          admissionReviewVersions: ['v2'],
        },
        { ...hook('dup.example.com'), clientConfig: { url: 'http://user@h?x#f' } },
        { ...hook('dup.example.com'), clientConfig: { service: { name: 's', namespace: 'n', port: 70000, path: 'x' } } },
      ],
    });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.details.group, 'admissionregistration.orch.io');
    assert.equal(r.body.details.kind, 'ValidatingWebhookConfiguration');
    assert.deepEqual(r.body.details.causes, [
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "short": should be a domain with at least three segments separated by dots',
        field: 'webhooks[0].name',
      },
      {
        reason: 'FieldValueNotSupported',
        message: 'Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
        field: 'webhooks[0].rules[0].operations[0]',
      },
      { reason: 'FieldValueRequired', message: 'Required value', field: 'webhooks[0].rules[0].apiGroups' },
      {
        reason: 'FieldValueInvalid',
        message: `Invalid value: []string{"*/*", "pods"}: if '*/*' is present, must not specify other resources`,
        field: 'webhooks[0].rules[0].resources',
      },
      {
        reason: 'FieldValueNotSupported',
        message: 'Unsupported value: "Global": supported values: "*", "Cluster", "Namespaced"',
        field: 'webhooks[0].rules[0].scope',
      },
      {
        reason: 'FieldValueNotSupported',
        message: 'Unsupported value: "Unknown": supported values: "None", "NoneOnDryRun"',
        field: 'webhooks[0].sideEffects',
      },
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: 0: the timeout value must be between 1 and 30 seconds',
        field: 'webhooks[0].timeoutSeconds',
      },
      {
        reason: 'FieldValueRequired',
        message: 'Required value: exactly one of url or service is required',
        field: 'webhooks[0].clientConfig',
      },
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: []string{"v2"}: must include at least one of v1, v1beta1',
        field: 'webhooks[0].admissionReviewVersions',
      },
      {
        reason: 'FieldValueInvalid',
        message: `Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
        field: 'webhooks[1].clientConfig.url',
      },
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "user": user information is not permitted in the URL',
        field: 'webhooks[1].clientConfig.url',
      },
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "f": fragments are not permitted in the URL',
        field: 'webhooks[1].clientConfig.url',
      },
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "x": query parameters are not permitted in the URL',
        field: 'webhooks[1].clientConfig.url',
      },
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive',
        field: 'webhooks[2].clientConfig.service.port',
      },
      { reason: 'FieldValueInvalid', message: `Invalid value: "x": must start with a '/'`, field: 'webhooks[2].clientConfig.service.path' },
      // Kubernetes drops the first character as the missing '/', leaving an empty first segment.
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "x": segment[0] may not be empty',
        field: 'webhooks[2].clientConfig.service.path',
      },
      { reason: 'FieldValueDuplicate', message: 'Duplicate value: "dup.example.com"', field: 'webhooks[2].name' },
    ]);
  });

  it('require sideEffects and admissionReviewVersions in v1', async () => {
    const { sideEffects: _s, admissionReviewVersions: _a, ...bare } = hook('bare.example.com');
    const r = await c.post(MUTATING, { metadata: { name: 'bare' }, webhooks: [bare] });
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(r.body.details.causes, [
      { reason: 'FieldValueRequired', message: 'Required value: must specify one of None, NoneOnDryRun', field: 'webhooks[0].sideEffects' },
      {
        reason: 'FieldValueRequired',
        message: 'Required value: must specify one of v1, v1beta1',
        field: 'webhooks[0].admissionReviewVersions',
      },
    ]);
  });

  it('bump generation when the webhooks change, not for metadata', async () => {
    const labelled = await c.patch(`${VALIDATING}/policy`, { metadata: { labels: { team: 'sec' } } }, MERGE);
    assert.equal(labelled.status, 200, labelled.text);
    assert.equal(labelled.body.metadata.generation, 1);
    const cur = labelled.body;
    cur.webhooks[0].timeoutSeconds = 20;
    const updated = await c.put(`${VALIDATING}/policy`, cur);
    assert.equal(updated.status, 200, updated.text);
    assert.equal(updated.body.metadata.generation, 2);
    const bad = await c.put(`${VALIDATING}/policy`, { ...updated.body, webhooks: [{ ...updated.body.webhooks[0], matchPolicy: 'Fuzzy' }] });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.details.causes, [
      {
        reason: 'FieldValueNotSupported',
        message: 'Unsupported value: "Fuzzy": supported values: "Equivalent", "Exact"',
        field: 'webhooks[0].matchPolicy',
      },
    ]);
  });

  it('print WEBHOOKS and AGE', async () => {
    const r = await c.request('GET', MUTATING, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.orch.io' } });
    assert.deepEqual(
      r.body.columnDefinitions.map((d: any) => [d.name, d.type]),
      [
        ['Name', 'string'],
        ['Webhooks', 'integer'],
        ['Age', 'string'],
      ],
    );
    assert.deepEqual(
      r.body.rows.map((row: any) => row.cells.slice(0, 2)),
      [['inject', 1]],
    );
  });
});
