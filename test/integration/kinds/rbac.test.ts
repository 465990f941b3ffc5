/**
 * rbac.authorization.orch.io/v1 over HTTP: Roles, ClusterRoles and their bindings with Kubernetes'
 * defaults as stored, each invalid case's 422 causes, the immutable roleRef, create-on-PUT and tables.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../support/api-server.js';
import { createNamespace } from '../../support/namespaces.js';
import type { TestClient } from '../../support/http-client.js';
import { TABLE } from '../../support/api-assertions.js';

const GROUP = 'rbac.authorization.orch.io';
const BASE = `/apis/${GROUP}/v1`;
const NS = `${BASE}/namespaces/rbac`;

describe('rbac.authorization.orch.io/v1', () => {
  let s: TestServer;
  let c: TestClient;
  before(async () => {
    s = await startTestServer();
    c = s.client;
    await createNamespace(c, 'rbac');
  });
  after(() => s?.stop());

  it('serves the four kinds in discovery', async () => {
    const r = await c.get(BASE);
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.body.resources.map((x: any) => [x.name, x.kind, x.namespaced]),
      [
        ['clusterrolebindings', 'ClusterRoleBinding', false],
        ['clusterroles', 'ClusterRole', false],
        ['rolebindings', 'RoleBinding', true],
        ['roles', 'Role', true],
      ],
    );
  });

  it('stores a Role and a ClusterRole as given, names as path segments', async () => {
    const rules = [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }];
    const role = await c.post(`${NS}/roles`, { metadata: { name: 'pod:reader' }, rules });
    assert.equal(role.status, 201, role.text);
    assert.deepEqual(role.body.rules, rules);
    assert.equal(role.body.apiVersion, `${GROUP}/v1`);
    const cr = await c.post(`${BASE}/clusterroles`, {
      metadata: { name: 'monitoring' },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'orch.io/aggregate-to-monitoring': 'true' } }] },
      rules: [{ verbs: ['get'], nonResourceURLs: ['/metrics'] }],
    });
    assert.equal(cr.status, 201, cr.text);
    const badName = await c.post(`${NS}/roles`, { metadata: { name: 'a/b' } });
    assert.equal(badName.status, 422);
    assert.deepEqual(badName.body.details.causes, [
      { reason: 'FieldValueInvalid', message: `Invalid value: "a/b": may not contain '/'`, field: 'metadata.name' },
    ]);
  });

  it('refuses rules without verbs, groups or resources, and namespaced non-resource URLs', async () => {
    const r = await c.post(`${NS}/roles`, {
      metadata: { name: 'bad' },
      rules: [{ apiGroups: [''] }, { verbs: ['get'], nonResourceURLs: ['/healthz'], resources: ['pods'] }],
    });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.body.message.startsWith(`Role.${GROUP} "bad" is invalid: [`), true, r.body.message);
    assert.deepEqual(r.body.details.causes, [
      { reason: 'FieldValueRequired', message: 'Required value: verbs must contain at least one value', field: 'rules[0].verbs' },
      {
        reason: 'FieldValueRequired',
        message: 'Required value: resource rules must supply at least one resource',
        field: 'rules[0].resources',
      },
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: []string{"/healthz"}: namespaced rules cannot apply to non-resource URLs',
        field: 'rules[1].nonResourceURLs',
      },
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: []string{"/healthz"}: rules cannot apply to both regular resources and non-resource URLs',
        field: 'rules[1].nonResourceURLs',
      },
    ]);
  });

  it('refuses an empty or invalid aggregationRule', async () => {
    const r = await c.post(`${BASE}/clusterroles`, {
      metadata: { name: 'agg' },
      aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'k', operator: 'Near' }] }] },
    });
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(r.body.details.causes, [
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "Near": not a valid selector operator',
        field: 'aggregationRule.clusterRoleSelectors[0].matchExpressions[0].operator',
      },
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "null": invalid label selector.',
        field: 'aggregationRule.clusterRoleSelectors[0]',
      },
    ]);
    const empty = await c.post(`${BASE}/clusterroles`, { metadata: { name: 'agg' }, aggregationRule: {} });
    assert.deepEqual(empty.body.details.causes, [
      {
        reason: 'FieldValueRequired',
        message: 'Required value: at least one clusterRoleSelector required if aggregationRule is non-nil',
        field: 'aggregationRule.clusterRoleSelectors',
      },
    ]);
  });

  it('stores a RoleBinding with roleRef and subject apiGroups defaulted', async () => {
    const r = await c.post(`${NS}/rolebindings`, {
      metadata: { name: 'readers' },
      roleRef: { kind: 'Role', name: 'pod:reader' },
      subjects: [
        { kind: 'User', name: 'alice' },
        { kind: 'Group', name: 'devs' },
        { kind: 'ServiceAccount', name: 'builder' },
      ],
    });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body.roleRef, { apiGroup: GROUP, kind: 'Role', name: 'pod:reader' });
    assert.deepEqual(r.body.subjects, [
      { kind: 'User', apiGroup: GROUP, name: 'alice' },
      { kind: 'Group', apiGroup: GROUP, name: 'devs' },
      { kind: 'ServiceAccount', name: 'builder' },
    ]);
    assert.deepEqual((await c.get(`${NS}/rolebindings/readers`)).body.roleRef, r.body.roleRef);
  });

  it('refuses bad roleRefs and subjects', async () => {
    const r = await c.post(`${BASE}/clusterrolebindings`, {
      metadata: { name: 'bad' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: '..' },
      subjects: [
        { kind: 'ServiceAccount', name: 'sa', apiGroup: 'v1' },
        { kind: 'User', apiGroup: 'x', name: 'u' },
        { kind: 'Robot', name: 'r' },
        { kind: 'Group', name: '' },
      ],
    });
    assert.equal(r.status, 422, r.text);
    assert.deepEqual(r.body.details.causes, [
      {
        reason: 'FieldValueNotSupported',
        message: `Unsupported value: "rbac.authorization.k8s.io": supported values: "${GROUP}"`,
        field: 'roleRef.apiGroup',
      },
      { reason: 'FieldValueNotSupported', message: 'Unsupported value: "Role": supported values: "ClusterRole"', field: 'roleRef.kind' },
      { reason: 'FieldValueInvalid', message: `Invalid value: "..": may not be '..'`, field: 'roleRef.name' },
      { reason: 'FieldValueNotSupported', message: 'Unsupported value: "v1": supported values: ""', field: 'subjects[0].apiGroup' },
      { reason: 'FieldValueRequired', message: 'Required value', field: 'subjects[0].namespace' },
      { reason: 'FieldValueNotSupported', message: `Unsupported value: "x": supported values: "${GROUP}"`, field: 'subjects[1].apiGroup' },
      {
        reason: 'FieldValueNotSupported',
        message: 'Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
        field: 'subjects[2].kind',
      },
      { reason: 'FieldValueRequired', message: 'Required value', field: 'subjects[3].name' },
    ]);
    const noRef = await c.post(`${NS}/rolebindings`, { metadata: { name: 'no-ref' } });
    assert.equal(noRef.status, 422, noRef.text);
    assert.deepEqual(noRef.body.details.causes, [
      {
        reason: 'FieldValueNotSupported',
        message: 'Unsupported value: "": supported values: "Role", "ClusterRole"',
        field: 'roleRef.kind',
      },
      { reason: 'FieldValueRequired', message: 'Required value', field: 'roleRef.name' },
    ]);
  });

  it('never changes roleRef, while subjects may change', async () => {
    const created = await c.post(`${BASE}/clusterrolebindings`, {
      metadata: { name: 'viewers' },
      roleRef: { apiGroup: GROUP, kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'ServiceAccount', name: 'sa', namespace: 'rbac' }],
    });
    assert.equal(created.status, 201, created.text);
    const moved = await c.patch(`${BASE}/clusterrolebindings/viewers`, { roleRef: { name: 'edit' } }, 'application/merge-patch+json');
    assert.equal(moved.status, 422, moved.text);
    assert.deepEqual(moved.body.details.causes, [
      {
        reason: 'FieldValueInvalid',
        message: `Invalid value: {"apiGroup":"${GROUP}","kind":"ClusterRole","name":"edit"}: cannot change roleRef`,
        field: 'roleRef',
      },
    ]);
    const subjects = await c.patch(
      `${BASE}/clusterrolebindings/viewers`,
      { subjects: [{ kind: 'User', name: 'bob' }] },
      'application/merge-patch+json',
    );
    assert.equal(subjects.status, 200, subjects.text);
    assert.deepEqual(subjects.body.subjects, [{ kind: 'User', apiGroup: GROUP, name: 'bob' }]);
  });

  it('creates on PUT, as Kubernetes allows for RBAC kinds', async () => {
    const r = await c.put(`${BASE}/clusterroles/put-created`, { metadata: { name: 'put-created' }, rules: [] });
    assert.equal(r.status, 201, r.text);
    const b = await c.put(`${NS}/rolebindings/put-created`, {
      metadata: { name: 'put-created' },
      roleRef: { kind: 'ClusterRole', name: 'put-created' },
    });
    assert.equal(b.status, 201, b.text);
  });

  it('prints roles with CREATED AT and bindings with ROLE, AGE and the subjects', async () => {
    const roles = await c.request('GET', `${NS}/roles`, { headers: { Accept: TABLE } });
    assert.deepEqual(
      roles.body.columnDefinitions.map((d: any) => d.name),
      ['Name', 'Created At'],
    );
    assert.deepEqual(
      roles.body.rows.map((r: any) => r.cells[0]),
      ['pod:reader'],
    );
    const bindings = await c.request('GET', `${NS}/rolebindings/readers`, { headers: { Accept: TABLE } });
    assert.deepEqual(
      bindings.body.columnDefinitions.map((d: any) => [d.name, d.priority]),
      [
        ['Name', 0],
        ['Role', 0],
        ['Age', 0],
        ['Users', 1],
        ['Groups', 1],
        ['ServiceAccounts', 1],
      ],
    );
    const [name, role, , users, groups, sas] = bindings.body.rows[0].cells;
    // A ServiceAccount prints as namespace/name, its namespace as written (none here, as kubectl shows it).
    assert.deepEqual([name, role, users, groups, sas], ['readers', 'Role/pod:reader', 'alice', 'devs', '/builder']);
  });
});
