/**
 * What RBAC reads: roles by name and the bindings that name a subject. The server keeps an
 * implementation current from the store's watch (policy-cache.ts is the in-memory one); nothing here
 * reads storage.
 */
import type { UserInfo } from '../../authentication/interfaces.js';
import type { Binding, ClusterRole, Role, Subject } from './types.js';

export interface RbacLister {
  role(namespace: string, name: string): Role | undefined;
  clusterRole(name: string): ClusterRole | undefined;
  /** The ClusterRoleBindings one of whose subjects is among `keys` (subjectKeysOf). */
  clusterRoleBindingsFor(keys: readonly string[]): Iterable<Binding>;
  /** The RoleBindings of `namespace` one of whose subjects is among `keys`. */
  roleBindingsFor(namespace: string, keys: readonly string[]): Iterable<Binding>;
}

const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';

/** The index keys a user is found under: their name, each group, and their ServiceAccount. */
export function subjectKeysOf(user: UserInfo): string[] {
  const keys = [`User:${user.name}`, ...user.groups.map((g) => `Group:${g}`)];
  if (user.name.startsWith(SERVICE_ACCOUNT_PREFIX)) {
    const rest = user.name.slice(SERVICE_ACCOUNT_PREFIX.length).split(':');
    if (rest.length === 2 && rest[0] && rest[1]) keys.push(`ServiceAccount:${rest[0]}:${rest[1]}`);
  }
  return keys;
}

/** The index key of a binding subject; a ServiceAccount without namespace takes the binding's (none: no key). */
export function subjectKey(subject: Subject, bindingNamespace: string): string | undefined {
  switch (subject.kind) {
    case 'User':
    case 'Group':
      return `${subject.kind}:${subject.name ?? ''}`;
    case 'ServiceAccount': {
      const ns = subject.namespace || bindingNamespace;
      return ns ? `ServiceAccount:${ns}:${subject.name ?? ''}` : undefined;
    }
    default:
      return undefined;
  }
}

/** How Kubernetes names the subject a rule came through ("User \"jane\"", "ServiceAccount \"sa/ns\""). */
export function describeSubject(subject: Subject, bindingNamespace: string): string {
  if (subject.kind === 'ServiceAccount') return `ServiceAccount "${subject.name}/${subject.namespace || bindingNamespace}"`;
  return `${subject.kind} "${subject.name}"`;
}
