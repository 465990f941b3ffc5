/**
 * Whether a write is in a policy's matchConstraints or a binding's matchResources (Kubernetes'
 * validatingadmissionpolicy/matching): namespace and object selectors, then a resource rule that
 * matches (resourceNames too) and no excludeResourceRule that does; with matchPolicy Equivalent the
 * resource's equivalents in other groups or versions are tried. The rule, selector and scope checks are
 * the webhooks' (webhook/matching.ts). The answer names the resource and kind it matched as.
 */
import type { ApiObject } from '../../api/object.js';
import type { MatchResources, NamedRuleWithOperations } from '../../registry/admissionregistration/policy-types.js';
import type { AdmissionAttributes, Equivalent, PluginEnv } from '../interfaces.js';
import { namespaceSelectorMatches, objectSelectorMatches, ruleMatches, type Target, targetOf } from '../webhook/matching.js';

export interface Matched {
  target: Target;
  kind: string;
  /** The object in the matched resource's form. */
  convert(obj: ApiObject): ApiObject;
}

const same = (o: ApiObject) => o;

/** A rule with its resourceNames: an empty list names every object; a create by POST has no name to match. */
function namedRuleMatches(rule: NamedRuleWithOperations, a: AdmissionAttributes, t: Target): boolean {
  if (!ruleMatches(rule, a.operation, t)) return false;
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(a.name);
}

/** The resource a list of rules matches the write as (its own, or with Equivalent an equivalent's), or undefined. */
function rulesMatchAs(
  env: Pick<PluginEnv, 'equivalents'>,
  rules: NamedRuleWithOperations[],
  matchPolicy: string | undefined,
  a: AdmissionAttributes,
): Matched | undefined {
  const own = targetOf(a.resource, a.subresource);
  if (rules.some((r) => namedRuleMatches(r, a, own))) return { target: own, kind: a.resource.kind, convert: same };
  if (matchPolicy !== 'Equivalent') return undefined;
  const equivalents = env.equivalents(a.resource);
  for (const r of rules) {
    const eq: Equivalent | undefined = equivalents.find((e) => namedRuleMatches(r, a, targetOf(e.def, a.subresource)));
    if (eq) return { target: targetOf(eq.def, a.subresource), kind: eq.def.kind, convert: eq.convert };
  }
  return undefined;
}

/**
 * The resource a write matches as, or undefined. `namespaceLabels` are the write's namespace's labels
 * (undefined for cluster-scoped objects, which every namespaceSelector matches). No resourceRules (a
 * binding's matchResources may have none) match every resource.
 */
export function matchResources(
  env: Pick<PluginEnv, 'equivalents'>,
  m: MatchResources,
  a: AdmissionAttributes,
  namespaceLabels: Record<string, string> | undefined,
): Matched | undefined {
  const selectors = { namespaceSelector: m.namespaceSelector, objectSelector: m.objectSelector };
  if (!namespaceSelectorMatches(selectors, namespaceLabels) || !objectSelectorMatches(selectors, a)) return undefined;
  if (rulesMatchAs(env, m.excludeResourceRules ?? [], m.matchPolicy, a)) return undefined;
  const rules = m.resourceRules ?? [];
  if (rules.length === 0) return { target: targetOf(a.resource, a.subresource), kind: a.resource.kind, convert: same };
  return rulesMatchAs(env, rules, m.matchPolicy, a);
}
