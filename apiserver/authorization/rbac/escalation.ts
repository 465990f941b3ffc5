/**
 * Escalation prevention (Kubernetes' policy-based RBAC storage): a Role or ClusterRole can be written
 * only by someone who holds every rule of it in that scope, or may `escalate` it; a binding only by
 * someone who holds every rule of the role it references, or may `bind` that role. system:masters
 * may do both. A ClusterRole's aggregationRule can gather anything, so setting it takes `*` on
 * everything. Answers the refusal text, or undefined when the write may go ahead.
 */
import type { UserInfo } from '../../authentication/interfaces.js';
import type { Authorizer } from '../interfaces.js';
import { SYSTEM_PRIVILEGED_GROUP } from '../privileged-groups.js';
import { compactRules, compactString, goQuotedList, uncoveredRules } from './policy-comparator.js';
import type { RuleResolver } from './rule-resolver.js';
import type { Binding, ClusterRole, PolicyRule, RbacKind } from './types.js';
import { messageOf } from '../../api/thrown.js';

export interface RbacWrite {
  kind: RbacKind;
  /** The object's namespace ('' for the cluster-scoped kinds). */
  namespace: string;
  /**
   * The name the request addressed (Kubernetes' requestInfo.Name), which `escalate` is authorized
   * against: '' for a create by POST, so an `escalate` grant restricted by resourceNames covers
   * updates (and PUT or apply creates) of those names, never a POST create. `bind` is authorized
   * against the roleRef's name instead, as Kubernetes' BindingAuthorized.
   */
  requestName: string;
  user: UserInfo;
  /** A Role, ClusterRole, RoleBinding or ClusterRoleBinding, as `kind` says. */
  object: object;
  /** The stored object, for an update. */
  oldObject?: object;
}

type Role = ClusterRole;

const FULL_AUTHORITY: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

const hasAggregationRule = (r: Role | undefined) => (r?.aggregationRule?.clusterRoleSelectors?.length ?? 0) > 0;

/** Metadata a garbage collector (or a finalizer's owner) changes; an update touching only these is never an escalation. */
const GC_FIELDS = ['ownerReferences', 'finalizers', 'managedFields', 'resourceVersion', 'generation'];

function onlyGcFieldsChange(obj: object, old: object | undefined): boolean {
  if (!old) return false;
  const strip = (o: object) => {
    const { metadata, ...rest } = o as { metadata?: Record<string, unknown> };
    const meta = { ...metadata };
    for (const f of GC_FIELDS) delete meta[f];
    return JSON.stringify({ ...rest, metadata: meta });
  };
  return strip(obj) === strip(old);
}

export class EscalationCheck {
  constructor(
    private readonly authorizer: Authorizer,
    private readonly resolver: RuleResolver,
    /** rbac.authorization.<domain>. */
    private readonly rbacGroup: string,
  ) {}

  /** The refusal of a write of one of the four RBAC kinds, or undefined. */
  async refusal(w: RbacWrite): Promise<string | undefined> {
    if (w.user.groups.includes(SYSTEM_PRIVILEGED_GROUP)) return undefined;
    if (w.kind === 'Role' || w.kind === 'ClusterRole') return this.roleRefusal(w);
    return this.bindingRefusal(w);
  }

  private async allowed(user: UserInfo, verb: string, resource: string, namespace: string, name: string): Promise<boolean> {
    const a = {
      user,
      verb,
      resourceRequest: true,
      apiGroup: this.rbacGroup,
      apiVersion: '*',
      resource,
      subresource: '',
      namespace,
      name,
      path: '',
    };
    try {
      return (await this.authorizer.authorize(a)).decision === 'Allow';
    } catch {
      return false;
    }
  }

  private async roleRefusal(w: RbacWrite): Promise<string | undefined> {
    const resource = w.kind === 'Role' ? 'roles' : 'clusterroles';
    if (await this.allowed(w.user, 'escalate', resource, w.namespace, w.requestName)) return undefined;
    if (onlyGcFieldsChange(w.object, w.oldObject)) return undefined;
    const role = w.object as Role;
    const missing = this.notHeld(w.user, w.namespace, role.rules ?? []);
    if (missing) return missing;
    if (w.kind === 'ClusterRole' && (hasAggregationRule(role) || hasAggregationRule(w.oldObject as Role | undefined))) {
      if (this.notHeld(w.user, w.namespace, FULL_AUTHORITY)) return 'must have cluster-admin privileges to use the aggregationRule';
    }
    return undefined;
  }

  private async bindingRefusal(w: RbacWrite): Promise<string | undefined> {
    if (onlyGcFieldsChange(w.object, w.oldObject)) return undefined;
    const ref = (w.object as Binding).roleRef;
    const resource = ref.kind === 'Role' ? 'roles' : ref.kind === 'ClusterRole' ? 'clusterroles' : undefined;
    if (resource && (await this.allowed(w.user, 'bind', resource, w.namespace, ref.name ?? ''))) return undefined;
    let rules: PolicyRule[];
    try {
      rules = this.resolver.roleReferenceRules(ref, w.namespace);
    } catch (err) {
      return messageOf(err);
    }
    return this.notHeld(w.user, w.namespace, rules);
  }

  /** ConfirmNoEscalation: undefined when the user holds `rules` in `namespace`, else the message listing what is missing. */
  private notHeld(user: UserInfo, namespace: string, rules: PolicyRule[]): string | undefined {
    const owned = this.resolver.rulesFor(user, namespace);
    const missing = uncoveredRules(owned.rules, rules);
    if (missing.length === 0) return undefined;
    const lines = [...new Set(compactRules(missing).map(compactString))].sort();
    let msg = `user "${user.name}" (groups=${goQuotedList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
    if (owned.errors.length > 0) msg += `; resolution errors: [${owned.errors.map((e) => e.message).join(' ')}]`;
    return msg;
  }
}
