/**
 * --authorization-mode=ABAC with --authorization-policy-file (Kubernetes' ABAC authorizer): one JSON
 * policy per line, `{"apiVersion": "abac.authorization.<prefix>/v1beta1", "kind": "Policy",
 * "spec": {...}}` (<prefix> as the API domain's labels: kubernetes.io, orch.io); blank lines and
 * `#` comments are skipped. A policy matches its user and/or group (`*` for any); a readonly one
 * only get/list/watch; then either a resource request in its namespace, resource and apiGroup
 * (each `*` for any) or a non-resource path (exact, `*`, or a prefix ending in `*`). Any match
 * allows; nothing matching is no opinion.
 */
import type { UserInfo } from '../api/user-info.js';
import type { Attributes, Authorizer, RuleResolver, RulesResult } from './interfaces.js';

export interface AbacPolicySpec {
  user?: string;
  group?: string;
  readonly?: boolean;
  apiGroup?: string;
  resource?: string;
  namespace?: string;
  nonResourcePath?: string;
}

/** A bad policy file: which line, and why. */
export class PolicyFileError extends Error {
  override name = 'PolicyFileError';
}

/** The policies of a policy file's text; `labelPrefix` names the accepted apiVersion. */
export function parsePolicyFile(text: string, labelPrefix: string, file = 'policy file'): AbacPolicySpec[] {
  const apiVersion = `abac.authorization.${labelPrefix}/v1beta1`;
  const policies: AbacPolicySpec[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    let doc: { apiVersion?: unknown; kind?: unknown; spec?: unknown };
    try {
      doc = JSON.parse(line);
    } catch (err) {
      throw new PolicyFileError(`${file} line ${i + 1}: ${(err as Error).message}`);
    }
    if (doc.apiVersion !== apiVersion || doc.kind !== 'Policy' || typeof doc.spec !== 'object' || doc.spec === null) {
      throw new PolicyFileError(`${file} line ${i + 1}: not a ${apiVersion} Policy`);
    }
    policies.push(doc.spec as AbacPolicySpec);
  });
  return policies;
}

const READ_ONLY = new Set(['get', 'list', 'watch']);

function subjectMatches(p: AbacPolicySpec, user: UserInfo): boolean {
  let matched = false;
  if (p.user) {
    if (p.user === '*') matched = true;
    else if (p.user === user.name) matched = true;
    else return false;
  }
  if (p.group) {
    if (p.group === '*') matched = true;
    else if (user.groups.includes(p.group)) matched = true;
    else return false;
  }
  return matched;
}

function resourceMatches(p: AbacPolicySpec, a: Attributes): boolean {
  if (!a.resourceRequest) return false;
  const any = (v: string | undefined, actual: string) => v === '*' || (v ?? '') === actual;
  return any(p.namespace, a.namespace) && any(p.resource, a.resource) && any(p.apiGroup, a.apiGroup);
}

function nonResourceMatches(p: AbacPolicySpec, a: Attributes): boolean {
  if (a.resourceRequest) return false;
  const path = p.nonResourcePath ?? '';
  return path === '*' || path === a.path || (path.endsWith('*') && a.path.startsWith(path.replace(/\*+$/, '')));
}

/** Whether one policy allows the request. */
export function policyMatches(p: AbacPolicySpec, a: Attributes): boolean {
  if (!subjectMatches(p, a.user)) return false;
  if (!READ_ONLY.has(a.verb) && p.readonly) return false;
  return resourceMatches(p, a) || nonResourceMatches(p, a);
}

export function newAbacAuthorizer(policies: AbacPolicySpec[]): Authorizer & RuleResolver {
  return {
    async authorize(a) {
      return policies.some((p) => policyMatches(p, a))
        ? { decision: 'Allow', reason: '' }
        : { decision: 'NoOpinion', reason: 'No policy matched.' };
    },
    rulesFor(user, namespace) {
      const out: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false, errors: [] };
      for (const p of policies) {
        if (!subjectMatches(p, user)) continue;
        const verbs = p.readonly ? ['get', 'list', 'watch'] : ['*'];
        if (p.resource && (p.namespace === '*' || p.namespace === namespace)) {
          out.resourceRules.push({ verbs, apiGroups: [p.apiGroup ?? ''], resources: [p.resource] });
        }
        if (p.nonResourcePath) out.nonResourceRules.push({ verbs, nonResourceURLs: [p.nonResourcePath] });
      }
      return out;
    },
  };
}
