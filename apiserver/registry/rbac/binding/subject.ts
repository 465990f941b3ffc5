/** rbac/v1 Subject: its defaulted apiGroup and ValidateRoleBindingSubject, with the RBAC group of the domain. */
import type { ApiDomain } from '../../../api/domain.js';
import type { FieldError, FieldPath } from '../../../api/field-errors.js';
import { invalid, notSupported, required } from '../../../api/field-errors.js';
import { nameIsDNSSubdomain } from '../../../api/validation/names.js';
import type { RbacV1Subject as Subject } from '../../../api/generated/types.js';

export const SUBJECT_KINDS = ['ServiceAccount', 'User', 'Group'];

/** rbac.authorization.<domain>: the group of roleRef and of User/Group subjects. */
export function rbacGroup(domain: ApiDomain): string {
  return domain.group('rbac.authorization.k8s.io');
}

/**
 * SetDefaults_Subject: Users and Groups belong to the RBAC group, ServiceAccounts to the core group,
 * whose empty name the API leaves out (`apiGroup,omitempty`), as kube-apiserver stores and answers it.
 */
export function defaultSubject(subject: Subject, group: string): void {
  if (subject.apiGroup) return;
  if (subject.kind === 'User' || subject.kind === 'Group') subject.apiGroup = group;
  else delete subject.apiGroup;
}

/** ValidateRoleBindingSubject; a ClusterRoleBinding's ServiceAccount subjects must name their namespace. */
export function validateSubject(subject: Subject, namespaced: boolean, group: string, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const name = subject.name ?? '';
  const apiGroup = subject.apiGroup ?? '';
  if (!name) errors.push(required(path.child('name')));
  switch (subject.kind) {
    case 'ServiceAccount':
      for (const msg of name ? nameIsDNSSubdomain(name, false) : []) errors.push(invalid(path.child('name'), name, msg));
      if (apiGroup) errors.push(notSupported(path.child('apiGroup'), apiGroup, ['']));
      if (!namespaced && !subject.namespace) errors.push(required(path.child('namespace')));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== group) errors.push(notSupported(path.child('apiGroup'), apiGroup, [group]));
      break;
    default:
      errors.push(notSupported(path.child('kind'), subject.kind ?? '', SUBJECT_KINDS));
  }
  return errors;
}
