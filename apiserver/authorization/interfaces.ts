/**
 * The authorization contract: an authorizer decides whether a user may do what a request asks.
 */
import type { UserInfo } from '../authentication/interfaces.js';

/** What a request asks to do (Kubernetes' authorizer.Attributes). */
export interface Attributes {
  user: UserInfo;
  /** get, list, watch, create, update, patch, delete, deletecollection; for non-resource requests the lower-cased HTTP method. */
  verb: string;
  /** True for requests to API resources, false for other paths such as /healthz. */
  resourceRequest: boolean;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  /** The request path (meaningful for non-resource requests). */
  path: string;
}

/** Allow and Deny are final; NoOpinion lets the next authorizer decide. */
export type Decision = 'Allow' | 'Deny' | 'NoOpinion';

/** An authorizer's answer and why. */
export interface AuthorizationResult {
  decision: Decision;
  reason: string;
}

/** Decides on requests. Rejects only when it could not decide (an internal error, → 500). */
export interface Authorizer {
  authorize(a: Attributes): Promise<AuthorizationResult>;
}

/** The values --authorization-mode accepts. */
export const AUTHORIZATION_MODES = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'] as const;

/** One --authorization-mode value. */
export type AuthorizationMode = (typeof AUTHORIZATION_MODES)[number];

/** Rules on resources a user holds (a SelfSubjectRulesReview's resourceRules). */
export interface ResourceRuleInfo {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames?: string[];
}

/** Rules on non-resource URLs a user holds. */
export interface NonResourceRuleInfo {
  verbs: string[];
  nonResourceURLs: string[];
}

/** What a mode can say about all a user may do in a namespace; `incomplete` when it cannot list it all. */
export interface RulesResult {
  resourceRules: ResourceRuleInfo[];
  nonResourceRules: NonResourceRuleInfo[];
  incomplete: boolean;
  /** Errors met while resolving; the rules found still hold. */
  errors: string[];
}

/** Lists the rules of a user (Kubernetes' authorizer.RuleResolver). */
export interface RuleResolver {
  rulesFor(user: UserInfo, namespace: string): RulesResult;
}
