import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newApiDomain } from '../../../../apiserver/api/domain.js';
import { errorMessage, type FieldError } from '../../../../apiserver/api/field-errors.js';
import type { ApiObject } from '../../../../apiserver/api/object.js';
import type { StrategyContext } from '../../../../apiserver/api/strategy.js';
import { clusterRoleStrategy, roleStrategy } from '../../../../apiserver/registry/rbac/role/strategy.js';
import { clusterRoleBindingStrategy, roleBindingStrategy } from '../../../../apiserver/registry/rbac/binding/strategy.js';
import { bindingColumns } from '../../../../apiserver/registry/rbac/binding/columns.js';

const ctx: StrategyContext = { domain: newApiDomain(), now: new Date('2024-01-01T00:00:00Z') };
const messages = (errs: FieldError[]) => errs.map(errorMessage);
const obj = (fields: Record<string, unknown>): ApiObject => ({ metadata: { name: 'x' }, ...fields });

describe('Role and ClusterRole rules', () => {
  it('requires verbs, and apiGroups and resources for resource rules', () => {
    const role = obj({ rules: [{}, { verbs: ['get'], apiGroups: [''], resources: ['pods'] }] });
    assert.deepEqual(messages(roleStrategy.validate!(role, ctx)), [
      'rules[0].verbs: Required value: verbs must contain at least one value',
      'rules[0].apiGroups: Required value: resource rules must supply at least one api group',
      'rules[0].resources: Required value: resource rules must supply at least one resource',
    ]);
  });

  it('allows non-resource URLs only in ClusterRoles and never mixed with resources', () => {
    const urls = { verbs: ['get'], nonResourceURLs: ['/healthz'] };
    const mixed = { verbs: ['get'], nonResourceURLs: ['/healthz'], resources: ['pods'] };
    assert.deepEqual(messages(roleStrategy.validate!(obj({ rules: [urls] }), ctx)), [
      'rules[0].nonResourceURLs: Invalid value: []string{"/healthz"}: namespaced rules cannot apply to non-resource URLs',
    ]);
    assert.deepEqual(clusterRoleStrategy.validate!(obj({ rules: [urls] }), ctx), []);
    assert.deepEqual(messages(clusterRoleStrategy.validate!(obj({ rules: [mixed] }), ctx)), [
      'rules[0].nonResourceURLs: Invalid value: []string{"/healthz"}: rules cannot apply to both regular resources and non-resource URLs',
    ]);
  });

  it('checks a ClusterRole aggregationRule', () => {
    assert.deepEqual(messages(clusterRoleStrategy.validate!(obj({ aggregationRule: {} }), ctx)), [
      'aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil',
    ]);
    const bad = obj({
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }, { matchExpressions: [{ key: 'k', operator: 'In' }] }] },
    });
    assert.deepEqual(messages(clusterRoleStrategy.validate!(bad, ctx)), [
      "aggregationRule.clusterRoleSelectors[1].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      'aggregationRule.clusterRoleSelectors[1]: Invalid value: "null": invalid label selector.',
    ]);
  });
});

describe('RoleBinding and ClusterRoleBinding', () => {
  it('defaults the roleRef apiGroup and subject apiGroups to the RBAC group of the domain', () => {
    const b = obj({
      roleRef: { kind: 'Role', name: 'r' },
      subjects: [
        { kind: 'User', name: 'u' },
        { kind: 'Group', name: 'g' },
        { kind: 'ServiceAccount', name: 's' },
        { kind: 'ServiceAccount', name: 't', apiGroup: '' },
      ],
    });
    roleBindingStrategy.applyDefaults!(b, ctx);
    assert.deepEqual(b.roleRef, { kind: 'Role', name: 'r', apiGroup: 'rbac.authorization.orch.io' });
    assert.deepEqual(
      (b.subjects as { apiGroup: string }[]).map((s) => s.apiGroup),
      ['rbac.authorization.orch.io', 'rbac.authorization.orch.io', undefined, undefined],
    );
    // The core group's empty name is left out, as kube-apiserver answers (apiGroup,omitempty).
    assert.ok((b.subjects as object[]).slice(2).every((s) => !('apiGroup' in s)));
    const missing = obj({});
    roleBindingStrategy.applyDefaults!(missing, ctx);
    assert.deepEqual(messages(roleBindingStrategy.validate!(missing, ctx)), [
      'roleRef.kind: Unsupported value: "": supported values: "Role", "ClusterRole"',
      'roleRef.name: Required value',
    ]);
  });

  it('checks roleRef and subjects', () => {
    const b = obj({
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'a/b' },
      subjects: [
        { kind: 'ServiceAccount', name: 'Bad_Name', apiGroup: 'x' },
        { kind: 'User', name: 'u', apiGroup: '' },
        { kind: 'Robot', name: 'r' },
        { kind: 'Group', apiGroup: 'rbac.authorization.orch.io' },
      ],
    });
    assert.deepEqual(messages(roleBindingStrategy.validate!(b, ctx)), [
      'roleRef.apiGroup: Unsupported value: "rbac.authorization.k8s.io": supported values: "rbac.authorization.orch.io"',
      'roleRef.name: Invalid value: "a/b": may not contain \'/\'',
      "subjects[0].name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      'subjects[0].apiGroup: Unsupported value: "x": supported values: ""',
      'subjects[1].apiGroup: Unsupported value: "": supported values: "rbac.authorization.orch.io"',
      'subjects[2].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
      'subjects[3].name: Required value',
    ]);
  });

  it('binds only ClusterRoles cluster-wide, and needs ServiceAccount namespaces there', () => {
    const b = obj({
      roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'r' },
      subjects: [{ kind: 'ServiceAccount', name: 's' }],
    });
    assert.deepEqual(messages(clusterRoleBindingStrategy.validate!(b, ctx)), [
      'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
      'subjects[0].namespace: Required value',
    ]);
    assert.deepEqual(messages(roleBindingStrategy.validate!(b, ctx)), []);
  });

  it('never changes roleRef', () => {
    const ref = { apiGroup: 'rbac.authorization.orch.io', kind: 'ClusterRole', name: 'view' };
    const old = obj({ roleRef: ref });
    assert.deepEqual(roleBindingStrategy.validateUpdate!(obj({ roleRef: { ...ref } }), old, ctx), []);
    assert.deepEqual(messages(clusterRoleBindingStrategy.validateUpdate!(obj({ roleRef: { ...ref, name: 'edit' } }), old, ctx)), [
      'roleRef: Invalid value: {"apiGroup":"rbac.authorization.orch.io","kind":"ClusterRole","name":"edit"}: cannot change roleRef',
    ]);
  });

  it('prints ROLE, AGE and, wide, the subjects by kind', () => {
    const b = obj({
      metadata: { name: 'b', creationTimestamp: '2023-12-31T23:59:00Z' },
      roleRef: { kind: 'ClusterRole', name: 'view' },
      subjects: [
        { kind: 'User', name: 'alice' },
        { kind: 'User', name: 'bob' },
        { kind: 'Group', name: 'devs' },
        { kind: 'ServiceAccount', name: 'sa', namespace: 'ns' },
      ],
    });
    assert.deepEqual(
      bindingColumns.map((c) => [c.name, c.priority ?? 0, c.cell(b, ctx.now)]),
      [
        ['Role', 0, 'ClusterRole/view'],
        ['Age', 0, '60s'],
        ['Users', 1, 'alice, bob'],
        ['Groups', 1, 'devs'],
        ['ServiceAccounts', 1, 'ns/sa'],
      ],
    );
  });
});
