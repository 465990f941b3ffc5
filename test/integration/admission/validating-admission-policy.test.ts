/**
 * ValidatingAdmissionPolicy against a real server, with the policies of Kubernetes' documentation: a
 * replica limit with a ConfigMap param and with a custom resource param, a required label, an oldObject
 * transition rule, the Warn and Audit actions (a Warning header, an audit annotation in the audit log),
 * a policy's audit annotations, a bad expression refused at create (422), failurePolicy Ignore vs Fail
 * with a missing param, and v1beta1 served only when --runtime-config asks.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { createNamespace } from '../../support/namespaces.js';
import { eventually } from '../../support/eventually.js';

const AR = '/apis/admissionregistration.orch.io/v1';
const NS = 'vap';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;

const deployment = (name: string, replicas: number, labels: Record<string, string> = { app: name }) => ({
  metadata: { name, labels },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  },
});

const deploymentRules = [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] }];

describe('ValidatingAdmissionPolicy', () => {
  let dir: string;
  let s: TestServer;
  const auditLog = () => join(dir, 'audit.log');

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-vap-'));
    await writeFile(join(dir, 'policy.yaml'), 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
    s = await startTestServer({ args: [`--audit-policy-file=${join(dir, 'policy.yaml')}`, `--audit-log-path=${auditLog()}`] });
    await createNamespace(s.client, NS);
  });
  after(async () => {
    await s?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Creates a policy and its binding; both removed after `fn`. */
  async function withPolicy(
    name: string,
    spec: Record<string, unknown>,
    binding: Record<string, unknown>,
    fn: () => Promise<void>,
  ): Promise<void> {
    const p = await s.client.post(`${AR}/validatingadmissionpolicies`, { metadata: { name }, spec });
    assert.equal(p.status, 201, JSON.stringify(p.body));
    const b = await s.client.post(`${AR}/validatingadmissionpolicybindings`, {
      metadata: { name: `${name}-binding` },
      spec: { policyName: name, validationActions: ['Deny'], ...binding },
    });
    assert.equal(b.status, 201, JSON.stringify(b.body));
    try {
      await fn();
    } finally {
      await s.client.delete(`${AR}/validatingadmissionpolicybindings/${name}-binding`);
      await s.client.delete(`${AR}/validatingadmissionpolicies/${name}`);
    }
  }

  it('defaults a policy and its binding and serves them with a status', async () => {
    await withPolicy(
      'defaults.example.com',
      { matchConstraints: { resourceRules: deploymentRules }, validations: [{ expression: 'true' }] },
      {},
      async () => {
        const p = await s.client.get(`${AR}/validatingadmissionpolicies/defaults.example.com`);
        assert.equal(p.body.spec.failurePolicy, 'Fail');
        assert.equal(p.body.spec.matchConstraints.matchPolicy, 'Equivalent');
        assert.deepEqual(p.body.spec.matchConstraints.namespaceSelector, {});
        assert.equal(p.body.spec.matchConstraints.resourceRules[0].scope, '*');
        assert.equal(p.body.metadata.generation, 1);
      },
    );
  });

  it('denies what a policy without params refuses, with Kubernetes message and code (documentation: replicas <= 5)', async () => {
    await withPolicy(
      'demo-policy.example.com',
      {
        failurePolicy: 'Fail',
        matchConstraints: { resourceRules: deploymentRules },
        validations: [{ expression: 'object.spec.replicas <= 5' }],
      },
      {},
      async () => {
        const denied = await s.client.post(DEPLOYMENTS, deployment('nginx', 6));
        assert.equal(denied.status, 422);
        assert.equal(denied.body.reason, 'Invalid');
        const message =
          "ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'demo-policy.example.com-binding' denied request: failed expression: object.spec.replicas <= 5";
        assert.equal(denied.body.message, `deployments.apps "nginx" is forbidden: ${message}`);
        assert.deepEqual(denied.body.details, { name: 'nginx', group: 'apps', kind: 'deployments', causes: [{ message }] });
        assert.equal((await s.client.post(DEPLOYMENTS, deployment('nginx', 5))).status, 201);
        await s.client.delete(`${DEPLOYMENTS}/nginx`);
      },
    );
  });

  it('limits replicas with a ConfigMap param, its messageExpression and reason', async () => {
    assert.equal(
      (await s.client.post(`/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: 'replica-limit' }, data: { maxReplicas: '3' } }))
        .status,
      201,
    );
    await withPolicy(
      'replicalimit-policy.example.com',
      {
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        matchConstraints: { resourceRules: deploymentRules },
        validations: [
          {
            expression: 'object.spec.replicas <= int(params.data.maxReplicas)',
            messageExpression: "'object.spec.replicas must be no greater than ' + params.data.maxReplicas",
            reason: 'Forbidden',
          },
        ],
      },
      { paramRef: { name: 'replica-limit', namespace: NS, parameterNotFoundAction: 'Deny' } },
      async () => {
        const denied = await eventually('the param read', async () => {
          const r = await s.client.post(DEPLOYMENTS, deployment('limited', 4));
          return r.status === 403 && r;
        });
        assert.equal(denied.body.reason, 'Forbidden');
        assert.match(denied.body.message, /denied request: object.spec.replicas must be no greater than 3$/);
        assert.equal((await s.client.post(DEPLOYMENTS, deployment('limited', 3))).status, 201);
        // An update is checked too.
        const d = (await s.client.get(`${DEPLOYMENTS}/limited`)).body;
        d.spec.replicas = 9;
        assert.equal((await s.client.put(`${DEPLOYMENTS}/limited`, d)).status, 403);
        await s.client.delete(`${DEPLOYMENTS}/limited`);
      },
    );
  });

  it('limits replicas with a custom resource param selected by labels (documentation: ReplicaLimit)', async () => {
    const crd = await s.client.post('/apis/apiextensions.orch.io/v1/customresourcedefinitions', {
      metadata: { name: 'replicalimits.rules.example.com' },
      spec: {
        group: 'rules.example.com',
        scope: 'Namespaced',
        names: { plural: 'replicalimits', singular: 'replicalimit', kind: 'ReplicaLimit', listKind: 'ReplicaLimitList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', properties: { maxReplicas: { type: 'integer' } } } },
          },
        ],
      },
    });
    assert.equal(crd.status, 201, JSON.stringify(crd.body));
    const limits = `/apis/rules.example.com/v1/namespaces/${NS}/replicalimits`;
    await eventually('the ReplicaLimit resource', async () => (await s.client.get(limits)).status === 200);
    assert.equal(
      (
        await s.client.post(limits, {
          apiVersion: 'rules.example.com/v1',
          kind: 'ReplicaLimit',
          metadata: { name: 'small', labels: { tier: 'small' } },
          maxReplicas: 2,
        })
      ).status,
      201,
    );
    await withPolicy(
      'crd-param.example.com',
      {
        paramKind: { apiVersion: 'rules.example.com/v1', kind: 'ReplicaLimit' },
        matchConstraints: { resourceRules: deploymentRules },
        validations: [{ expression: 'object.spec.replicas <= params.maxReplicas', reason: 'Invalid' }],
      },
      { paramRef: { selector: { matchLabels: { tier: 'small' } }, parameterNotFoundAction: 'Allow' } },
      async () => {
        const denied = await eventually('the param read', async () => {
          const r = await s.client.post(DEPLOYMENTS, deployment('crd-limited', 3));
          return r.status === 422 && r;
        });
        assert.match(denied.body.message, /denied request: failed expression: object.spec.replicas <= params.maxReplicas$/);
        assert.equal((await s.client.post(DEPLOYMENTS, deployment('crd-limited', 2))).status, 201);
        await s.client.delete(`${DEPLOYMENTS}/crd-limited`);
      },
    );
  });

  it('requires a label, only in namespaces its binding selects, with a match condition and a variable', async () => {
    await createNamespace(s.client, 'vap-other');
    await withPolicy(
      'require-env.example.com',
      {
        matchConstraints: { resourceRules: deploymentRules },
        matchConditions: [{ name: 'not-excluded', expression: "!('skip' in object.metadata.labels)" }],
        variables: [{ name: 'env', expression: "'environment' in object.metadata.labels ? object.metadata.labels['environment'] : ''" }],
        validations: [{ expression: "variables.env in ['prod', 'test']", message: 'environment must be prod or test' }],
      },
      { matchResources: { namespaceSelector: { matchLabels: { 'orch.io/metadata.name': NS } } } },
      async () => {
        const denied = await s.client.post(DEPLOYMENTS, deployment('unlabelled', 1));
        assert.equal(denied.status, 422);
        assert.match(denied.body.message, /denied request: environment must be prod or test$/);
        assert.equal((await s.client.post(DEPLOYMENTS, deployment('labelled', 1, { app: 'labelled', environment: 'prod' }))).status, 201);
        assert.equal((await s.client.post(DEPLOYMENTS, deployment('skipped', 1, { app: 'skipped', skip: 'yes' }))).status, 201);
        // Another namespace is not in the binding's matchResources.
        assert.equal((await s.client.post('/apis/apps/v1/namespaces/vap-other/deployments', deployment('elsewhere', 1))).status, 201);
        for (const n of ['labelled', 'skipped']) await s.client.delete(`${DEPLOYMENTS}/${n}`);
      },
    );
  });

  it('refuses a transition with oldObject (a label that may not change) and lets creates through', async () => {
    await withPolicy(
      'immutable-tier.example.com',
      {
        matchConstraints: { resourceRules: deploymentRules },
        validations: [
          {
            expression: "oldObject == null || object.metadata.labels['tier'] == oldObject.metadata.labels['tier']",
            messageExpression: "'tier is immutable: ' + oldObject.metadata.labels['tier']",
          },
        ],
      },
      {},
      async () => {
        assert.equal((await s.client.post(DEPLOYMENTS, deployment('tiered', 1, { app: 'tiered', tier: 'web' }))).status, 201);
        const d = (await s.client.get(`${DEPLOYMENTS}/tiered`)).body;
        d.metadata.labels.tier = 'db';
        const denied = await s.client.put(`${DEPLOYMENTS}/tiered`, d);
        assert.equal(denied.status, 422);
        assert.match(denied.body.message, /denied request: tier is immutable: web$/);
        d.metadata.labels.tier = 'web';
        d.spec.replicas = 2;
        assert.equal((await s.client.put(`${DEPLOYMENTS}/tiered`, d)).status, 200);
        await s.client.delete(`${DEPLOYMENTS}/tiered`);
      },
    );
  });

  it('warns with Warn and records Audit failures and audit annotations in the audit log', async () => {
    await withPolicy(
      'warn-audit.example.com',
      {
        matchConstraints: { resourceRules: deploymentRules },
        validations: [{ expression: 'object.spec.replicas <= 1', message: 'too many replicas' }],
        auditAnnotations: [
          {
            key: 'high-replica-count',
            valueExpression: "object.spec.replicas > 1 ? 'Deployment spec.replicas set to ' + string(object.spec.replicas) : null",
          },
        ],
      },
      { validationActions: ['Warn', 'Audit'] },
      async () => {
        const r = await s.client.post(DEPLOYMENTS, deployment('warned', 3));
        assert.equal(r.status, 201);
        assert.equal(
          r.headers.warning,
          `299 - "Validation failed for ValidatingAdmissionPolicy 'warn-audit.example.com' with binding 'warn-audit.example.com-binding': too many replicas"`,
        );
        const auditID = String(r.headers['audit-id']);
        const event = await eventually('the audit event', async () => {
          const text = await readFile(auditLog(), 'utf8').catch(() => '');
          return text
            .split('\n')
            .filter((l) => l)
            .map((l) => JSON.parse(l))
            .find((e) => e.auditID === auditID && e.stage === 'ResponseComplete');
        });
        assert.equal(event.annotations['warn-audit.example.com/high-replica-count'], 'Deployment spec.replicas set to 3');
        assert.deepEqual(JSON.parse(event.annotations['validation.policy.admission.orch.io/validation_failure']), [
          {
            message: 'too many replicas',
            policy: 'warn-audit.example.com',
            binding: 'warn-audit.example.com-binding',
            expressionIndex: 0,
            validationActions: ['Warn', 'Audit'],
          },
        ]);
        await s.client.delete(`${DEPLOYMENTS}/warned`);
      },
    );
  });

  it('writes the type checking of its validations against the matched kinds to status', async () => {
    const p = await s.client.post(`${AR}/validatingadmissionpolicies`, {
      metadata: { name: 'typo.example.com' },
      spec: {
        matchConstraints: { resourceRules: deploymentRules },
        validations: [
          { expression: 'object.spec.replicsa > 1' },
          { expression: 'object.spec.replicas > 1', messageExpression: "'n=' + string(object.spec.replica)" },
        ],
      },
    });
    assert.equal(p.status, 201);
    const checked = await eventually('the status', async () => {
      const r = await s.client.get(`${AR}/validatingadmissionpolicies/typo.example.com`);
      return r.body.status?.observedGeneration === 1 && r.body;
    });
    assert.deepEqual(checked.status.typeChecking.expressionWarnings, [
      {
        fieldRef: 'spec.validations[0].expression',
        warning:
          "apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replicsa'\n | object.spec.replicsa > 1\n | ...........^\n",
      },
      {
        fieldRef: 'spec.validations[1].messageExpression',
        warning:
          "apps/v1, Kind=Deployment: ERROR: <input>:1:26: undefined field 'replica'\n | 'n=' + string(object.spec.replica)\n | .........................^\n",
      },
    ]);
    await s.client.delete(`${AR}/validatingadmissionpolicies/typo.example.com`);
  });

  it('refuses a policy whose expression does not compile with a 422 naming the field', async () => {
    const r = await s.client.post(`${AR}/validatingadmissionpolicies`, {
      metadata: { name: 'bad.example.com' },
      spec: {
        matchConstraints: { resourceRules: deploymentRules },
        validations: [{ expression: 'object.spec.replicas <= params.max' }, { expression: 'object.spec.(' }],
      },
    });
    assert.equal(r.status, 422);
    assert.equal(r.body.reason, 'Invalid');
    const causes = r.body.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);
    assert.equal(causes.length, 2);
    assert.match(
      causes[0],
      /^spec\.validations\[0\]\.expression: Invalid value: "object\.spec\.replicas <= params\.max": compilation failed: ERROR: <input>:1:25: undeclared reference to 'params'/,
    );
    assert.match(
      causes[1],
      /^spec\.validations\[1\]\.expression: Invalid value: "object\.spec\.\(": compilation failed: ERROR: <input>:1:/,
    );
    const noActions = await s.client.post(`${AR}/validatingadmissionpolicybindings`, {
      metadata: { name: 'no-actions' },
      spec: { policyName: 'x' },
    });
    assert.equal(noActions.status, 422);
    assert.match(noActions.body.message, /spec\.validationActions: Required value: at least one validation action is required/);
  });

  it('answers malformed policies and bindings with a 4xx, never a 5xx', async () => {
    const policies = [
      { validations: [null], matchConstraints: { resourceRules: [null] } },
      { paramKind: null, matchConstraints: null, validations: null, auditAnnotations: [null], variables: [null], matchConditions: [null] },
      {
        matchConstraints: { resourceRules: deploymentRules, namespaceSelector: null },
        validations: [{ expression: `${'x'.repeat(10_000)}(` }],
      },
      {
        matchConstraints: { resourceRules: deploymentRules },
        validations: [{ expression: '[1,2].all(x, [1,2].all(y, [1,2].all(z, true)))' }],
        variables: [{ name: 'a', expression: 'variables.a' }],
      },
      'not an object',
    ];
    for (const [i, spec] of policies.entries()) {
      const r = await s.client.post(`${AR}/validatingadmissionpolicies`, { metadata: { name: `malformed-${i}` }, spec });
      assert.ok(r.status < 500, `${i}: ${r.status} ${r.text}`);
      if (r.status === 201) await s.client.delete(`${AR}/validatingadmissionpolicies/malformed-${i}`);
    }
    for (const [i, spec] of [
      { paramRef: null, matchResources: null, validationActions: null },
      { policyName: 3, paramRef: { selector: null } },
    ].entries()) {
      const r = await s.client.post(`${AR}/validatingadmissionpolicybindings`, { metadata: { name: `malformed-${i}` }, spec });
      assert.ok(r.status < 500, `binding ${i}: ${r.status} ${r.text}`);
    }
  });

  it('with a missing param, failurePolicy Fail refuses and Ignore admits', async () => {
    const spec = (failurePolicy: string) => ({
      failurePolicy,
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: { resourceRules: deploymentRules },
      validations: [{ expression: 'object.spec.replicas <= int(params.data.maxReplicas)' }],
    });
    const binding = { paramRef: { name: 'missing', namespace: NS, parameterNotFoundAction: 'Deny' } };
    await withPolicy('missing-fail.example.com', spec('Fail'), binding, async () => {
      const denied = await s.client.post(DEPLOYMENTS, deployment('unparamed', 1));
      assert.equal(denied.status, 422);
      assert.match(
        denied.body.message,
        /ValidatingAdmissionPolicy 'missing-fail.example.com' with binding 'missing-fail.example.com-binding' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction$/,
      );
    });
    await withPolicy('missing-ignore.example.com', spec('Ignore'), binding, async () => {
      assert.equal((await s.client.post(DEPLOYMENTS, deployment('unparamed', 1))).status, 201);
      await s.client.delete(`${DEPLOYMENTS}/unparamed`);
    });
  });

  it('an evaluation error follows failurePolicy', async () => {
    const spec = (failurePolicy: string) => ({
      failurePolicy,
      matchConstraints: { resourceRules: deploymentRules },
      validations: [{ expression: "object.metadata.labels['absent'] == 'x'" }],
    });
    await withPolicy('eval-fail.example.com', spec('Fail'), {}, async () => {
      const denied = await s.client.post(DEPLOYMENTS, deployment('erring', 1));
      assert.equal(denied.status, 422);
      assert.match(denied.body.message, /denied request: expression 'object.metadata.labels\['absent'\] == 'x'' resulted in error: /);
    });
    await withPolicy('eval-ignore.example.com', spec('Ignore'), {}, async () => {
      assert.equal((await s.client.post(DEPLOYMENTS, deployment('erring', 1))).status, 201);
      await s.client.delete(`${DEPLOYMENTS}/erring`);
    });
  });

  it('serves v1beta1 only when --runtime-config turns it on', async () => {
    assert.equal((await s.client.get('/apis/admissionregistration.orch.io/v1beta1/validatingadmissionpolicies')).status, 404);
    const beta = await startTestServer({ args: ['--runtime-config=admissionregistration.orch.io/v1beta1=true'] });
    try {
      const r = await beta.client.post('/apis/admissionregistration.orch.io/v1beta1/validatingadmissionpolicies', {
        metadata: { name: 'beta.example.com' },
        spec: { matchConstraints: { resourceRules: deploymentRules }, validations: [{ expression: 'true' }] },
      });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      assert.equal(r.body.apiVersion, 'admissionregistration.orch.io/v1beta1');
      const v1 = await beta.client.get(`${AR}/validatingadmissionpolicies/beta.example.com`);
      assert.equal(v1.body.apiVersion, 'admissionregistration.orch.io/v1');
    } finally {
      await beta.stop();
    }
  });
});
