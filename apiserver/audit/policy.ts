/**
 * The audit policy (--audit-policy-file): rules checked in order, the first that matches a request
 * gives its level and the stages left out; no match is level None. Matching follows Kubernetes'
 * policy checker: users, user groups, verbs, then either resources (group, resource,
 * "resource/subresource", "*", "*\/sub", "resource/*", resource names) with namespaces, or
 * non-resource URLs ("/healthz", "/api*").
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { configTypeProblem } from '../api/config-versions.js';
import type { ApiDomain } from '../api/domain.js';
import { isArray, isOneOf, isPlainObject } from '../api/object.js';
import {
  LEVELS,
  STAGES,
  type AuditAttributes,
  type GroupResources,
  type Level,
  type Policy,
  type PolicyRule,
  type Stage,
} from './types.js';
import { messageOf } from '../api/thrown.js';

export interface AuditDecision {
  level: Level;
  omitStages: ReadonlySet<Stage>;
  omitManagedFields: boolean;
}

/**
 * Requests whose bodies hold credentials: never audited above Metadata, whatever the policy says
 * (Kubernetes' recommended policy logs them at Metadata): Secrets, TokenRequests and TokenReviews.
 */
const CREDENTIAL_RESOURCES: readonly { kubernetesGroup: string; resource: string; subresource?: string }[] = [
  { kubernetesGroup: '', resource: 'secrets' },
  { kubernetesGroup: '', resource: 'serviceaccounts', subresource: 'token' },
  { kubernetesGroup: 'authentication.k8s.io', resource: 'tokenreviews' },
];

export class AuditPolicy {
  private readonly credentialGroups: Map<string, { resource: string; subresource?: string }[]>;

  /** `groupOf` maps a Kubernetes group name to the served one (the API domain). */
  constructor(
    private readonly policy: Policy,
    groupOf: (kubernetesGroup: string) => string,
  ) {
    this.credentialGroups = new Map();
    for (const c of CREDENTIAL_RESOURCES) {
      const g = groupOf(c.kubernetesGroup);
      this.credentialGroups.set(g, [...(this.credentialGroups.get(g) ?? []), c]);
    }
  }

  decide(a: AuditAttributes): AuditDecision {
    const rule = this.policy.rules.find((r) => ruleMatches(r, a));
    if (!rule) return { level: 'None', omitStages: new Set(), omitManagedFields: false };
    let level = rule.level;
    if (level === 'Request' || level === 'RequestResponse') {
      const credentials = a.isResourceRequest ? this.credentialGroups.get(a.apiGroup) : undefined;
      if (credentials?.some((c) => c.resource === a.resource && (c.subresource ?? a.subresource) === a.subresource)) level = 'Metadata';
    }
    return {
      level,
      omitStages: new Set([...(this.policy.omitStages ?? []), ...(rule.omitStages ?? [])]),
      omitManagedFields: rule.omitManagedFields ?? this.policy.omitManagedFields ?? false,
    };
  }
}

function ruleMatches(r: PolicyRule, a: AuditAttributes): boolean {
  if (r.users?.length && !r.users.includes(a.user.name)) return false;
  if (r.userGroups?.length && !a.user.groups.some((g) => r.userGroups!.includes(g))) return false;
  if (r.verbs?.length && !r.verbs.includes(a.verb)) return false;
  if (r.namespaces?.length || r.resources?.length) return resourceMatches(r, a);
  if (r.nonResourceURLs?.length) return !a.isResourceRequest && r.nonResourceURLs.some((spec) => pathMatches(a.path, spec));
  return true;
}

function pathMatches(path: string, spec: string): boolean {
  if (spec === '*' || spec === path) return true;
  return spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, ''));
}

function resourceMatches(r: PolicyRule, a: AuditAttributes): boolean {
  if (!a.isResourceRequest) return false;
  if (r.namespaces?.length && !r.namespaces.includes(a.namespace)) return false;
  if (!r.resources?.length) return true;
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  return r.resources.some((gr) => groupResourceMatches(gr, a, combined));
}

function groupResourceMatches(gr: GroupResources, a: AuditAttributes, combined: string): boolean {
  if ((gr.group ?? '') !== a.apiGroup) return false;
  if (!gr.resources?.length) return true;
  if (gr.resourceNames?.length && !gr.resourceNames.includes(a.name)) return false;
  return gr.resources.some(
    (res) =>
      res === combined ||
      res === '*' ||
      (a.subresource !== '' && res.startsWith('*/') && res.slice(2) === a.subresource) ||
      (res.endsWith('/*') && res.slice(0, -2) === a.resource),
  );
}

/** Reads and checks a policy file (YAML or JSON, kind Policy of audit.k8s.io/v1 or the domain's audit group); throws naming what is wrong. */
export function loadPolicyFile(file: string, domain: ApiDomain): Policy {
  let doc: unknown;
  try {
    doc = parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`loading audit policy file: ${messageOf(err)}`);
  }
  return checkPolicy(doc, domain, file);
}

export function checkPolicy(doc: unknown, domain: ApiDomain, file = 'policy'): Policy {
  const fail = (why: string): never => {
    throw new Error(`loading audit policy file ${file}: ${why}`);
  };
  if (typeof doc !== 'object' || doc === null) return fail('not an object');
  // A list is an object too (its fields all missing: it has no rules).
  const p: Record<string, unknown> = isPlainObject(doc) ? doc : {};
  const wrongType = configTypeProblem('AuditPolicy', p, domain);
  if (wrongType) fail(wrongType);
  const rules = p.rules;
  if (!isArray(rules) || rules.length === 0) return fail('no rules: a policy with no rules audits nothing');
  const stages = (v: unknown, at: string): void => {
    if (v === undefined) return;
    if (!isArray(v)) fail(`${at}: must be a list`);
    else for (const s of v) if (!isOneOf(STAGES, s)) fail(`${at}: Unsupported value: ${JSON.stringify(s)}`);
  };
  rules.forEach((rule, i) => {
    const at = `rules[${i}]`;
    const r: Record<string, unknown> = isPlainObject(rule) ? rule : {};
    if (!isOneOf(LEVELS, r.level)) fail(`${at}.level: Unsupported value: ${JSON.stringify(r.level)}`);
    const hasResources = lengthOf(r.resources) || lengthOf(r.namespaces);
    if (hasResources && lengthOf(r.nonResourceURLs)) {
      fail(`${at}: rules cannot apply to both regular resources and non-resource URLs`);
    }
    stages(r.omitStages, `${at}.omitStages`);
  });
  stages(p.omitStages, 'omitStages');
  // Every field the checks above read was checked: the document is a Policy.
  return p as unknown as Policy;
}

/** A field's `length` as the checks read it (a list's, or a string's), 0 when it has none. */
function lengthOf(v: unknown): number {
  return typeof v === 'string' || isArray(v) ? v.length : 0;
}
