/**
 * --authorization-mode=ABAC with --authorization-policy-file (Kubernetes' ABAC authorizer): one JSON
 * policy per line, `{"apiVersion": "abac.authorization.<prefix>/v1beta1", "kind": "Policy",
 * "spec": {...}}` (<prefix> kubernetes.io, or the API domain's label prefix) or a v0 one; blank lines and
 * `#` comments are skipped. A policy matches its user and/or group (`*` for any); a readonly one
 * only get/list/watch; then either a resource request in its namespace, resource and apiGroup
 * (each `*` for any) or a non-resource path (exact, `*`, or a prefix ending in `*`). Any match
 * allows; nothing matching is no opinion.
 */
import { configTypeProblem, versionOf } from '../api/config-versions.js';
import type { ApiDomain } from '../api/domain.js';
import type { UserInfo } from '../api/user-info.js';
import type { Attributes, Authorizer, RuleResolver, RulesResult } from './interfaces.js';
import { messageOf } from '../api/thrown.js';

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

/** A v0 (unversioned) policy as v1beta1's spec, as Kubernetes converts it. */
function fromV0(p: { user?: string; group?: string; readonly?: boolean; resource?: string; namespace?: string }): AbacPolicySpec {
  const out: AbacPolicySpec = { apiGroup: '*', namespace: p.namespace || '*', resource: p.resource || '*' };
  if (p.user) out.user = p.user;
  if (p.group) out.group = p.group;
  if (p.readonly) out.readonly = true;
  // Unset user and group, or either `*`, is every authenticated subject.
  if ((!p.user && !p.group) || p.user === '*' || p.group === '*') {
    out.group = ALL_AUTHENTICATED;
    delete out.user;
  }
  if (!p.namespace && !p.resource) out.nonResourcePath = '*';
  return out;
}

const ALL_AUTHENTICATED = 'system:authenticated';

/**
 * The policies of a policy file's text. A line is a Policy of abac.authorization.kubernetes.io/v1beta1
 * (`spec`) or /v0 (fields at the top), or an unversioned v0 policy without apiVersion and kind; the
 * domain's name of the group (abac.authorization.orch.io) is accepted too.
 */
export function parsePolicyFile(text: string, domain: ApiDomain, file = 'policy file'): AbacPolicySpec[] {
  const policies: AbacPolicySpec[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    let doc: { apiVersion?: unknown; kind?: unknown; spec?: unknown };
    try {
      doc = JSON.parse(line);
    } catch (err) {
      throw new PolicyFileError(`${file} line ${i + 1}: ${messageOf(err)}`);
    }
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new PolicyFileError(`${file} line ${i + 1}: not an object`);
    const wrongType = configTypeProblem('AbacPolicy', doc, domain, { allowUntyped: true });
    if (wrongType) throw new PolicyFileError(`${file} line ${i + 1}: ${wrongType}`);
    if (typeof doc.apiVersion === 'string' && versionOf(doc.apiVersion) === 'v1beta1') {
      if (typeof doc.spec !== 'object' || doc.spec === null)
        throw new PolicyFileError(`${file} line ${i + 1}: a v1beta1 Policy needs a spec`);
      policies.push(doc.spec as AbacPolicySpec);
    } else policies.push(fromV0(doc as Parameters<typeof fromV0>[0]));
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
