/** rbac.authorization.k8s.io/v1 (served as rbac.authorization.<domain>/v1): roles and their bindings. */
import type { ResourceDeclaration } from '../../api/resource.js';
import { clusterRoleStrategy, roleStrategy } from '../rbac/role/strategy.js';
import { clusterRoleBindingStrategy, roleBindingStrategy } from '../rbac/binding/strategy.js';
import { bindingColumns } from '../rbac/binding/columns.js';

// Roles print NAME and CREATED AT, Kubernetes' default table, so they declare no columns.
export const rbacResources: ResourceDeclaration[] = [
  {
    kubernetesGroup: 'rbac.authorization.k8s.io',
    version: 'v1',
    kind: 'Role',
    plural: 'roles',
    singular: 'role',
    namespaced: true,
    schema: 'rbac.v1.Role',
    nameRule: 'path-segment',
    strategy: roleStrategy,
    allowCreateOnUpdate: true,
  },
  {
    kubernetesGroup: 'rbac.authorization.k8s.io',
    version: 'v1',
    kind: 'ClusterRole',
    plural: 'clusterroles',
    singular: 'clusterrole',
    namespaced: false,
    schema: 'rbac.v1.ClusterRole',
    nameRule: 'path-segment',
    strategy: clusterRoleStrategy,
    allowCreateOnUpdate: true,
  },
  {
    kubernetesGroup: 'rbac.authorization.k8s.io',
    version: 'v1',
    kind: 'RoleBinding',
    plural: 'rolebindings',
    singular: 'rolebinding',
    namespaced: true,
    schema: 'rbac.v1.RoleBinding',
    nameRule: 'path-segment',
    strategy: roleBindingStrategy,
    allowCreateOnUpdate: true,
    columns: bindingColumns,
  },
  {
    kubernetesGroup: 'rbac.authorization.k8s.io',
    version: 'v1',
    kind: 'ClusterRoleBinding',
    plural: 'clusterrolebindings',
    singular: 'clusterrolebinding',
    namespaced: false,
    schema: 'rbac.v1.ClusterRoleBinding',
    nameRule: 'path-segment',
    strategy: clusterRoleBindingStrategy,
    allowCreateOnUpdate: true,
    columns: bindingColumns,
  },
];
