/**
 * Builds the authorizer kube-apiserver style: the privileged-group authorizer first, then one
 * authorizer per --authorization-mode, in the order given.
 */
import { newAlwaysAllowAuthorizer } from './always-allow.js';
import { newAlwaysDenyAuthorizer } from './always-deny.js';
import type { AuthorizationMode, Authorizer, RuleResolver } from './interfaces.js';
import { newPrivilegedGroupsAuthorizer } from './privileged-groups.js';
import { newRbacAuthorizer, type RbacAuthorizer } from './rbac.js';
import type { RbacLister } from './rbac/lister.js';
import { newNodeAuthorizer, type NodeAuthorizerConfig } from './node.js';
import { newAbacAuthorizer, type AbacPolicySpec } from './abac.js';
import { newWebhookAuthorizer, type WebhookConfig } from './webhook.js';
import { newUnionAuthorizer, newUnionRuleResolver } from './union.js';

/** What the modes read; the server keeps it current from the store's watch. */
export interface AuthorizerDeps {
  /** The RBAC objects (RBAC mode). */
  rbac?: RbacLister;
  /** rbac.authorization.<domain>. */
  rbacGroup?: string;
  /** The Node mode's graph and rules. */
  node?: NodeAuthorizerConfig;
  /** The ABAC mode's policies (--authorization-policy-file). */
  abacPolicies?: AbacPolicySpec[];
  /** The Webhook mode's service. */
  webhook?: WebhookConfig;
}

/** The union of the modes, and the RBAC authorizer when RBAC is one of them (access reviews, escalation checks use it). */
export interface BuiltAuthorizer {
  authorizer: Authorizer;
  /** The rules of a user across the modes (SelfSubjectRulesReview). */
  ruleResolver: RuleResolver;
  rbac?: RbacAuthorizer;
}

/** The request authorizer for the given modes. */
export function newAuthorizer(modes: AuthorizationMode[], deps: AuthorizerDeps = {}): BuiltAuthorizer {
  let rbac: RbacAuthorizer | undefined;
  const build = (mode: AuthorizationMode): Authorizer & RuleResolver => {
    switch (mode) {
      case 'AlwaysAllow':
        return newAlwaysAllowAuthorizer();
      case 'AlwaysDeny':
        return newAlwaysDenyAuthorizer();
      case 'ABAC':
        if (!deps.abacPolicies) throw new Error('ABAC authorization needs --authorization-policy-file');
        return newAbacAuthorizer(deps.abacPolicies);
      case 'Webhook':
        if (!deps.webhook) throw new Error('Webhook authorization needs --authorization-webhook-config-file');
        return newWebhookAuthorizer(deps.webhook);
      case 'Node':
        if (!deps.node) throw new Error('Node authorization needs the node graph');
        return newNodeAuthorizer(deps.node);
      case 'RBAC':
        if (!deps.rbac || !deps.rbacGroup) throw new Error('RBAC authorization needs the RBAC objects');
        rbac = newRbacAuthorizer(deps.rbac, deps.rbacGroup);
        return rbac;
    }
  };
  const modeAuthorizers = modes.map(build);
  return {
    authorizer: newUnionAuthorizer([newPrivilegedGroupsAuthorizer(), ...modeAuthorizers]),
    ruleResolver: newUnionRuleResolver(modeAuthorizers),
    rbac,
  };
}
