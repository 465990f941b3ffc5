/**
 * The rules a user holds in a namespace (Kubernetes' DefaultRuleResolver): those of the
 * ClusterRoleBindings naming them, then — for a namespace — those of its RoleBindings, a
 * RoleBinding's ClusterRole granting only there. A binding whose role is missing is an error that
 * does not stop the walk: rules are additive, so what was found still counts.
 */
import type { UserInfo } from '../../authentication/interfaces.js';
import { toError } from '../../api/thrown.js';
import { describeSubject, type RbacLister, subjectKeysOf } from './lister.js';
import type { Binding, PolicyRule, RoleRef, Subject } from './types.js';

/** Where a rule came from, for an allow's reason. */
export type RuleSource = () => string;

/** Called for each rule (with its source) or error; returning false stops the walk. */
export type RuleVisitor = (source: RuleSource | undefined, rule: PolicyRule | undefined, err: Error | undefined) => boolean;

const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';

function appliesToUser(user: UserInfo, subject: Subject, namespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return user.name === subject.name;
    case 'Group':
      return user.groups.includes(subject.name ?? '');
    case 'ServiceAccount': {
      const ns = subject.namespace || namespace;
      return ns !== '' && user.name === `${SERVICE_ACCOUNT_PREFIX}${ns}:${subject.name}`;
    }
    default:
      return false;
  }
}

export class RuleResolver {
  constructor(
    private readonly lister: RbacLister,
    /** The RBAC group of the domain, as it prints in messages (rbac.authorization.<domain>). */
    private readonly rbacGroup: string,
  ) {}

  /** The rules of a role reference; a binding's namespace finds its Role. */
  roleReferenceRules(ref: RoleRef, bindingNamespace: string): PolicyRule[] {
    if (ref.kind === 'Role') {
      const role = this.lister.role(bindingNamespace, ref.name ?? '');
      if (!role) throw new Error(`role.${this.rbacGroup} "${ref.name}" not found`);
      return role.rules ?? [];
    }
    if (ref.kind === 'ClusterRole') {
      const role = this.lister.clusterRole(ref.name ?? '');
      if (!role) throw new Error(`clusterrole.${this.rbacGroup} "${ref.name}" not found`);
      return role.rules ?? [];
    }
    throw new Error(`unsupported role reference kind: "${ref.kind}"`);
  }

  visitRulesFor(user: UserInfo, namespace: string, visitor: RuleVisitor): void {
    const keys = subjectKeysOf(user);
    if (!this.visitBindings(user, '', this.lister.clusterRoleBindingsFor(keys), 'ClusterRoleBinding', visitor)) return;
    if (namespace) this.visitBindings(user, namespace, this.lister.roleBindingsFor(namespace, keys), 'RoleBinding', visitor);
  }

  /** Every rule found, and the errors met finding them. */
  rulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; errors: Error[] } {
    const rules: PolicyRule[] = [];
    const errors: Error[] = [];
    this.visitRulesFor(user, namespace, (_source, rule, err) => {
      if (rule) rules.push(rule);
      if (err) errors.push(err);
      return true;
    });
    return { rules, errors };
  }

  private visitBindings(user: UserInfo, namespace: string, bindings: Iterable<Binding>, kind: string, visitor: RuleVisitor): boolean {
    for (const binding of bindings) {
      const subject = (binding.subjects ?? []).find((s) => appliesToUser(user, s, namespace));
      if (!subject) continue;
      let rules: PolicyRule[];
      try {
        rules = this.roleReferenceRules(binding.roleRef, namespace);
      } catch (err) {
        if (!visitor(undefined, undefined, toError(err))) return false;
        continue;
      }
      const name = namespace ? `${binding.metadata.name}/${namespace}` : binding.metadata.name;
      const source = () =>
        `${kind} "${name}" of ${binding.roleRef.kind} "${binding.roleRef.name}" to ${describeSubject(subject, namespace)}`;
      for (const rule of rules) if (!visitor(source, rule, undefined)) return false;
    }
    return true;
  }
}
