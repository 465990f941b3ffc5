/**
 * --authorization-mode=RBAC: allowed when a rule of a role bound to the user allows the request
 * (rules are only additive, so RBAC never denies: no matching rule is no opinion). Served from the
 * in-memory RBAC objects (rbac/lister.ts), never from storage.
 */
import type { Attributes, Authorizer, NonResourceRuleInfo, ResourceRuleInfo, RuleResolver as ModeRuleResolver } from './interfaces.js';
import type { RbacLister } from './rbac/lister.js';
import { ruleAllows } from './rbac/rule-matching.js';
import { RuleResolver } from './rbac/rule-resolver.js';

export interface RbacAuthorizer extends Authorizer, ModeRuleResolver {
  readonly resolver: RuleResolver;
}

/** The RBAC authorizer over `lister`; `rbacGroup` is rbac.authorization.<domain>. */
export function newRbacAuthorizer(lister: RbacLister, rbacGroup: string): RbacAuthorizer {
  const resolver = new RuleResolver(lister, rbacGroup);
  return {
    resolver,
    async authorize(a: Attributes) {
      let allowedBy: string | undefined;
      const errors: string[] = [];
      resolver.visitRulesFor(a.user, a.namespace, (source, rule, err) => {
        if (rule && ruleAllows(a, rule)) {
          allowedBy = source?.() ?? '';
          return false;
        }
        if (err) errors.push(err.message);
        return true;
      });
      if (allowedBy !== undefined) return { decision: 'Allow', reason: `RBAC: allowed by ${allowedBy}` };
      const reason = errors.length === 0 ? '' : `RBAC: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}`;
      return { decision: 'NoOpinion', reason };
    },
    rulesFor(user, namespace) {
      const { rules, errors } = resolver.rulesFor(user, namespace);
      const resourceRules: ResourceRuleInfo[] = [];
      const nonResourceRules: NonResourceRuleInfo[] = [];
      for (const r of rules) {
        if (r.resources?.length) {
          const info: ResourceRuleInfo = { verbs: r.verbs ?? [], apiGroups: r.apiGroups ?? [], resources: r.resources };
          if (r.resourceNames?.length) info.resourceNames = r.resourceNames;
          resourceRules.push(info);
        }
        if (r.nonResourceURLs?.length) nonResourceRules.push({ verbs: r.verbs ?? [], nonResourceURLs: r.nonResourceURLs });
      }
      return { resourceRules, nonResourceRules, incomplete: false, errors: errors.map((e) => e.message) };
    },
  };
}
