/**
 * Whether one set of rules covers another (Kubernetes' rbac validation Covers / BreakdownRule /
 * CompactRules / CompactString): the rules of a role are broken down into one verb on one resource
 * (or URL) each, and every piece must be held by some owner rule.
 */
import type { PolicyRule } from './types.js';
import { ALL } from './rule-matching.js';

/** One rule per group × resource × verb (× name), and per URL × verb. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs ?? []) {
        const names = rule.resourceNames ?? [];
        if (names.length > 0) {
          for (const name of names) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        } else out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

const hasAll = (set: string[] = [], wanted: string[] = []) => wanted.every((w) => set.includes(w));

function resourceCoversAll(owned: string[] = [], wanted: string[] = []): boolean {
  if (owned.includes(ALL) || hasAll(owned, wanted)) return true;
  return wanted.every((path) => {
    if (owned.includes(path)) return true;
    const slash = path.indexOf('/');
    return slash >= 0 && owned.includes(`*/${path.slice(slash + 1)}`);
  });
}

const urlCovers = (owner: string, sub: string) => owner === sub || (owner.endsWith('*') && sub.startsWith(owner.replace(/\*+$/, '')));

function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = (owner.verbs ?? []).includes(ALL) || hasAll(owner.verbs, sub.verbs);
  const groups = (owner.apiGroups ?? []).includes(ALL) || hasAll(owner.apiGroups, sub.apiGroups);
  const resources = resourceCoversAll(owner.resources, sub.resources);
  const urls = (sub.nonResourceURLs ?? []).every((u) => (owner.nonResourceURLs ?? []).some((o) => urlCovers(o, u)));
  const ownerNames = owner.resourceNames ?? [];
  const subNames = sub.resourceNames ?? [];
  const names = subNames.length === 0 ? ownerNames.length === 0 : ownerNames.length === 0 || hasAll(ownerNames, subNames);
  return verbs && groups && resources && urls && names;
}

/** The pieces of `servant` no rule of `owner` covers (empty: covered). */
export function uncoveredRules(owner: PolicyRule[], servant: PolicyRule[]): PolicyRule[] {
  return servant.flatMap(breakdownRule).filter((sub) => !owner.some((o) => ruleCovers(o, sub)));
}

/** Joins the verbs of simple rules (one group, one resource, at most one name) on the same thing. */
export function compactRules(rules: PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const names = rule.resourceNames ?? [];
    const isSimple =
      names.length <= 1 &&
      (rule.nonResourceURLs ?? []).length === 0 &&
      (rule.apiGroups ?? []).length === 1 &&
      (rule.resources ?? []).length === 1;
    if (!isSimple) {
      compacted.push(rule);
      continue;
    }
    const key = JSON.stringify([rule.apiGroups![0], rule.resources![0], names.length > 0, names[0] ?? '']);
    const existing = simple.get(key);
    if (existing) existing.verbs = [...(existing.verbs ?? []), ...(rule.verbs ?? [])];
    else simple.set(key, { ...rule, verbs: [...(rule.verbs ?? [])] });
  }
  return [...compacted, ...simple.values()];
}

/** Go's %q of a []string: `["a" "b"]`. */
export const goQuotedList = (list: string[]) => `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;

/** `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get"]}`, the form escalation errors list. */
export function compactString(rule: PolicyRule): string {
  const parts: string[] = [];
  if (rule.apiGroups?.length) parts.push(`APIGroups:${goQuotedList(rule.apiGroups)}`);
  if (rule.resources?.length) parts.push(`Resources:${goQuotedList(rule.resources)}`);
  if (rule.nonResourceURLs?.length) parts.push(`NonResourceURLs:${goQuotedList(rule.nonResourceURLs)}`);
  if (rule.resourceNames?.length) parts.push(`ResourceNames:${goQuotedList(rule.resourceNames)}`);
  if (rule.verbs?.length) parts.push(`Verbs:${goQuotedList(rule.verbs)}`);
  return `{${parts.join(', ')}}`;
}
