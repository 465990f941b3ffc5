/**
 * The access reviews (authorization.k8s.io/v1, served under the API domain): SubjectAccessReview and
 * LocalSubjectAccessReview ask the authorizer about any user, SelfSubjectAccessReview about the
 * caller, SelfSubjectRulesReview lists the caller's rules in a namespace. Validation and messages are
 * Kubernetes'; nothing is stored, the answer is the object with its status filled in.
 */
import type { ApiObject } from '../../api/object.js';
import * as status from '../../api/status.js';
import { type FieldError, invalid } from '../../api/field-errors.js';
import type { UserInfo } from '../../authentication/interfaces.js';
import type { Attributes, Authorizer, RuleResolver } from '../interfaces.js';
import { messageOf } from '../../api/thrown.js';

export type ReviewKind = 'SubjectAccessReview' | 'LocalSubjectAccessReview' | 'SelfSubjectAccessReview' | 'SelfSubjectRulesReview';

interface ResourceAttributes {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
}

interface ReviewSpec {
  resourceAttributes?: ResourceAttributes;
  nonResourceAttributes?: { path?: string; verb?: string };
  user?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
  uid?: string;
  namespace?: string;
}

/** Who asks, and the namespace of the request path. */
export interface ReviewRequest {
  user: UserInfo;
  namespace: string;
}

/** What the reviews consult. */
export interface ReviewEnv {
  authorizer: Authorizer;
  ruleResolver: RuleResolver;
  /** authorization.<domain>: the group of the review kinds. */
  group: string;
}

function specErrors(spec: ReviewSpec, withSubject: boolean): FieldError[] {
  const errors: FieldError[] = [];
  if (spec.resourceAttributes && spec.nonResourceAttributes) {
    errors.push(
      invalid('spec.nonResourceAttributes', spec.nonResourceAttributes, 'cannot be specified in combination with resourceAttributes'),
    );
  }
  if (!spec.resourceAttributes && !spec.nonResourceAttributes) {
    errors.push(invalid('spec.resourceAttributes', 'null', 'exactly one of nonResourceAttributes or resourceAttributes must be specified'));
  }
  if (withSubject && !spec.user && !(spec.groups?.length ?? 0)) {
    errors.push(invalid('spec.user', spec.user ?? '', 'at least one of user or group must be specified'));
  }
  return errors;
}

/** The metadata a review may carry: none, or (LocalSubjectAccessReview) only its namespace. */
function metadataErrors(obj: ApiObject, allowNamespace: boolean): FieldError[] {
  const { managedFields: _m, namespace: _n, ...rest } = obj.metadata as Record<string, unknown>;
  const extra = Object.values(rest).some((v) => v !== undefined && v !== '') || (!allowNamespace && !!obj.metadata.namespace);
  if (!extra) return [];
  return [invalid('metadata', obj.metadata, allowNamespace ? 'must be empty except for namespace' : 'must be empty')];
}

/** AuthorizationAttributesFrom: the attributes a review spec asks about. */
function attributesFrom(spec: ReviewSpec, user: UserInfo): Attributes {
  const r = spec.resourceAttributes;
  if (r) {
    return {
      user,
      verb: r.verb ?? '',
      resourceRequest: true,
      apiGroup: r.group ?? '',
      apiVersion: r.version ?? '',
      resource: r.resource ?? '',
      subresource: r.subresource ?? '',
      namespace: r.namespace ?? '',
      name: r.name ?? '',
      path: '',
    };
  }
  const n = spec.nonResourceAttributes ?? {};
  return {
    user,
    verb: n.verb ?? '',
    resourceRequest: false,
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    namespace: '',
    name: '',
    path: n.path ?? '',
  };
}

async function decide(env: ReviewEnv, a: Attributes) {
  try {
    const { decision, reason } = await env.authorizer.authorize(a);
    return { allowed: decision === 'Allow', ...(decision === 'Deny' ? { denied: true } : {}), ...(reason ? { reason } : {}) };
  } catch (err) {
    return { allowed: false, evaluationError: messageOf(err) };
  }
}

/** Answers one review; a bad one is a 400 or 422 Status. */
export async function review(env: ReviewEnv, kind: ReviewKind, obj: ApiObject, req: ReviewRequest): Promise<ApiObject> {
  const spec = (obj.spec ?? {}) as ReviewSpec;
  const gk = { group: env.group, kind };
  switch (kind) {
    case 'SubjectAccessReview': {
      const errors = [...specErrors(spec, true), ...metadataErrors(obj, false)];
      if (errors.length) throw status.invalid(gk, '', errors);
      const subject: UserInfo = { name: spec.user ?? '', uid: spec.uid, groups: spec.groups ?? [], extra: spec.extra };
      return { ...obj, status: await decide(env, attributesFrom(spec, subject)) };
    }
    case 'LocalSubjectAccessReview': {
      if (!obj.metadata.namespace) obj.metadata.namespace = req.namespace;
      const errors = [...specErrors(spec, true), ...metadataErrors(obj, true)];
      if (spec.resourceAttributes && (spec.resourceAttributes.namespace ?? '') !== obj.metadata.namespace) {
        errors.push(invalid('spec.resourceAttributes.namespace', spec.resourceAttributes.namespace ?? '', 'must match metadata.namespace'));
      }
      if (spec.nonResourceAttributes)
        errors.push(invalid('spec.nonResourceAttributes', spec.nonResourceAttributes, 'disallowed on this kind of request'));
      if (errors.length) throw status.invalid(gk, '', errors);
      if (!req.namespace) throw status.badRequest(`namespace is required on this type: ${req.namespace}`);
      if (req.namespace !== obj.metadata.namespace)
        throw status.badRequest(`spec.resourceAttributes.namespace must match namespace: ${req.namespace}`);
      const subject: UserInfo = { name: spec.user ?? '', uid: spec.uid, groups: spec.groups ?? [], extra: spec.extra };
      return { ...obj, status: await decide(env, attributesFrom(spec, subject)) };
    }
    case 'SelfSubjectAccessReview': {
      const errors = [...specErrors(spec, false), ...metadataErrors(obj, false)];
      if (errors.length) throw status.invalid(gk, '', errors);
      return { ...obj, status: await decide(env, attributesFrom(spec, req.user)) };
    }
    case 'SelfSubjectRulesReview': {
      if (!spec.namespace) throw status.badRequest('no namespace on request');
      const rules = env.ruleResolver.rulesFor(req.user, spec.namespace);
      const result: Record<string, unknown> = {
        resourceRules: rules.resourceRules,
        nonResourceRules: rules.nonResourceRules,
        incomplete: rules.incomplete,
      };
      if (rules.errors.length) result.evaluationError = rules.errors.length === 1 ? rules.errors[0] : `[${rules.errors.join(', ')}]`;
      return { apiVersion: obj.apiVersion, kind: obj.kind, metadata: { creationTimestamp: null } as never, spec: {}, status: result };
    }
  }
}
