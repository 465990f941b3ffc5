/** The RoleBinding/ClusterRoleBinding table, as kubectl prints it: ROLE, AGE, and the subjects with -o wide. */
import type { ApiObject } from '../../../api/object.js';
import type { PrinterColumn } from '../../../api/resource.js';
import { AGE_COLUMN } from '../../../api/printers/columns.js';
import type { RoleRef } from '../../../api/generated/types.js';
import type { Subject } from './subject.js';

const subjects = (obj: ApiObject) => (obj.subjects as Subject[] | undefined) ?? [];

/** One kind of subject, joined as rbac.SubjectsStrings does (ServiceAccounts as namespace/name). */
function subjectsOf(kind: string, format: (s: Subject) => string) {
  return (obj: ApiObject) =>
    subjects(obj)
      .filter((s) => s.kind === kind)
      .map(format)
      .join(', ');
}

export const bindingColumns: PrinterColumn[] = [
  {
    name: 'Role',
    type: 'string',
    cell: (obj) => {
      const ref: Partial<RoleRef> = (obj.roleRef as RoleRef | undefined) ?? {};
      return `${ref.kind ?? ''}/${ref.name ?? ''}`;
    },
  },
  AGE_COLUMN,
  { name: 'Users', type: 'string', priority: 1, cell: subjectsOf('User', (s) => s.name ?? '') },
  { name: 'Groups', type: 'string', priority: 1, cell: subjectsOf('Group', (s) => s.name ?? '') },
  {
    name: 'ServiceAccounts',
    type: 'string',
    priority: 1,
    cell: subjectsOf('ServiceAccount', (s) => `${s.namespace ?? ''}/${s.name ?? ''}`),
  },
];
