/** The RoleBinding/ClusterRoleBinding table, as kubectl prints it: ROLE, AGE, and the subjects with -o wide. */
import type { PrinterColumn } from '../../../api/resource.js';
import { typedColumns } from '../../../api/strategy.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import type { RoleBinding, RbacV1Subject as Subject } from '../../../api/generated/types.js';

/** One kind of subject, joined as rbac.SubjectsStrings does (ServiceAccounts as namespace/name). */
function subjectsOf(kind: string, format: (s: Subject) => string) {
  return (obj: RoleBinding) =>
    (obj.subjects ?? [])
      .filter((s) => s.kind === kind)
      .map(format)
      .join(', ');
}

// A ClusterRoleBinding has the same roleRef and subjects as a RoleBinding.
export const bindingColumns: PrinterColumn[] = [
  ...typedColumns<RoleBinding>([{ name: 'Role', cell: (obj) => `${obj.roleRef?.kind ?? ''}/${obj.roleRef?.name ?? ''}` }]),
  AGE_COLUMN,
  ...typedColumns<RoleBinding>([
    { name: 'Users', priority: 1, cell: subjectsOf('User', (s) => s.name ?? '') },
    { name: 'Groups', priority: 1, cell: subjectsOf('Group', (s) => s.name ?? '') },
    {
      name: 'ServiceAccounts',
      priority: 1,
      cell: subjectsOf('ServiceAccount', (s) => `${s.namespace ?? ''}/${s.name ?? ''}`),
    },
  ]),
];
