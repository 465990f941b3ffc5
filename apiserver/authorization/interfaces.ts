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
export const AUTHORIZATION_MODES = ['AlwaysAllow', 'AlwaysDeny', 'RBAC'] as const;

/** One --authorization-mode value. */
export type AuthorizationMode = (typeof AUTHORIZATION_MODES)[number];
