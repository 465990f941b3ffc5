/**
 * Which webhooks a write goes to: rules (operations, apiGroups, apiVersions, resources with `*`, `*\/*`
 * and subresources, scope), namespaceSelector (the namespace's labels; a Namespace's own labels; cluster
 * objects always match), objectSelector (the new or the old object's labels). matchPolicy Equivalent
 * also tries the resource's equivalents (another group/version serving the same objects).
 */
import type { ApiObject } from '../../api/object.js';
import type { ResourceDef } from '../../api/resource.js';
import type { RuleWithOperations, Webhook } from '../../registry/admissionregistration/types.js';
import { labelSelectorFromObject } from '../../runtime/selectors/label-selector.js';
import type { AdmissionAttributes } from '../interfaces.js';

export interface Target {
  group: string;
  version: string;
  resource: string;
  subresource: string;
  namespaced: boolean;
}

export function targetOf(def: ResourceDef, subresource: string): Target {
  return { group: def.group, version: def.version, resource: def.plural, subresource, namespaced: def.namespaced };
}

const has = (list: string[] | undefined, v: string) => (list ?? []).some((x) => x === '*' || x === v);

function resourceMatches(patterns: string[] | undefined, t: Target): boolean {
  return (patterns ?? []).some((p) => {
    if (p === '*/*') return true;
    const [res, sub] = p.includes('/') ? p.split('/', 2) : [p, undefined];
    if (sub === undefined) return t.subresource === '' && (res === '*' || res === t.resource);
    return (res === '*' || res === t.resource) && (sub === '*' || sub === t.subresource);
  });
}

function scopeMatches(scope: string | undefined, t: Target): boolean {
  if (!scope || scope === '*') return true;
  const clusterScoped = !t.namespaced;
  return scope === 'Cluster' ? clusterScoped : !clusterScoped;
}

export function ruleMatches(rule: RuleWithOperations, operation: string, t: Target): boolean {
  return (
    has(rule.operations, operation) &&
    has(rule.apiGroups, t.group) &&
    has(rule.apiVersions, t.version) &&
    resourceMatches(rule.resources, t) &&
    scopeMatches(rule.scope, t)
  );
}

export function rulesMatch(hook: Webhook, operation: string, t: Target): boolean {
  return (hook.rules ?? []).some((r) => ruleMatches(r, operation, t));
}

export function objectSelectorMatches(hook: Webhook, a: Pick<AdmissionAttributes, 'object' | 'oldObject'>): boolean {
  const sel = labelSelectorFromObject(hook.objectSelector);
  const labels = (o?: ApiObject) => o?.metadata.labels ?? {};
  return [a.object, a.oldObject].some((o) => o !== undefined && sel.matches(labels(o))) || (!a.object && !a.oldObject && sel.matches({}));
}

/** The namespace labels a namespaceSelector is matched with, or undefined when it always matches. */
export function namespaceSelectorMatches(hook: Webhook, namespaceLabels: Record<string, string> | undefined): boolean {
  if (namespaceLabels === undefined) return true;
  return labelSelectorFromObject(hook.namespaceSelector).matches(namespaceLabels);
}
