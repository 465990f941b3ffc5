/** The four RBAC kinds as the authorizer reads them (rbac/v1, served under the API domain). */
import type { PolicyRule } from '../../registry/rbac/policy-rule.js';
import type { RoleRef, RbacV1Subject as Subject } from '../../api/generated/types.js';

export type { PolicyRule, Subject, RoleRef };

interface Meta {
  metadata: { name?: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
}

export interface Role extends Meta {
  rules?: PolicyRule[];
}

export interface ClusterRole extends Role {
  aggregationRule?: { clusterRoleSelectors?: unknown[] };
}

export interface Binding extends Meta {
  roleRef: RoleRef;
  subjects?: Subject[];
}

export type RbacKind = 'Role' | 'ClusterRole' | 'RoleBinding' | 'ClusterRoleBinding';
export const RBAC_KINDS: readonly RbacKind[] = ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'];
