/**
 * Whether one policy rule allows a request (Kubernetes' rbac/v1 evaluation helpers): `*` matches any
 * verb, group, resource or URL; `*\/sub` any resource's subresource; resourceNames narrow to names;
 * a non-resource URL ending in `*` matches every path it prefixes.
 */
import type { Attributes } from '../interfaces.js';
import type { PolicyRule } from './types.js';

export const ALL = '*';

export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return (rule.verbs ?? []).some((v) => v === ALL || v === verb);
}

export function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return (rule.apiGroups ?? []).some((g) => g === ALL || g === group);
}

/** `combined` is `resource` or `resource/subresource`. */
export function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  return (rule.resources ?? []).some(
    (r) =>
      r === ALL ||
      r === combined ||
      (subresource !== '' && r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)),
  );
}

export function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  return (rule.nonResourceURLs ?? []).some((u) => u === ALL || u === path || (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))));
}

/** RuleAllows: the rule grants what the attributes ask. */
export function ruleAllows(a: Attributes, rule: PolicyRule): boolean {
  if (!a.resourceRequest) return verbMatches(rule, a.verb) && nonResourceURLMatches(rule, a.path);
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  return (
    verbMatches(rule, a.verb) &&
    apiGroupMatches(rule, a.apiGroup) &&
    resourceMatches(rule, combined, a.subresource) &&
    resourceNameMatches(rule, a.name)
  );
}
