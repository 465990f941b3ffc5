/**
 * The authorization filter: the request's attributes go to the authorizer; anything but Allow is a
 * 403 with Kubernetes' message ("User X cannot VERB resource …", or "… path …" for non-resource
 * requests), a failed decision a 500.
 */
import type { UserInfo } from '../../authentication/interfaces.js';
import type { Attributes, Authorizer } from '../../authorization/interfaces.js';
import { type RequestInfo, requestInfoFrom } from '../../endpoints/request/request-info.js';
import * as status from '../../api/status.js';
import { userFrom } from '../../endpoints/request/request-user.js';
import { auditFrom } from '../../endpoints/request/request-audit.js';
import type { Handler } from './handler.js';

/** The authorizer's view of a request (Kubernetes' GetAuthorizerAttributes). */
export function requestAttributes(info: RequestInfo, user: UserInfo): Attributes {
  return {
    user,
    verb: info.verb,
    resourceRequest: info.isResourceRequest,
    apiGroup: info.apiGroup,
    apiVersion: info.apiVersion,
    resource: info.resource,
    subresource: info.subresource,
    namespace: info.namespace,
    name: info.name || info.selectedName,
    path: info.path,
  };
}

/** What a user was refused, as Kubernetes words it. */
export function forbiddenMessage(a: Attributes): string {
  if (!a.resourceRequest) return `User "${a.user.name}" cannot ${a.verb} path "${a.path}"`;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const scope = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
  return `User "${a.user.name}" cannot ${a.verb} resource "${resource}" in API group "${a.apiGroup}" ${scope}`;
}

/** The 403 Status of a refused request: `<resource>.<group> "<name>" is forbidden: <message>[: <reason>]`. */
export function forbiddenError(a: Attributes, reason: string): status.ApiError {
  const message = reason ? `${forbiddenMessage(a)}: ${reason}` : forbiddenMessage(a);
  return status.forbidden({ group: a.apiGroup, resource: a.resourceRequest ? a.resource : '' }, a.name, message);
}

/**
 * Allowed, or 403 with Kubernetes' "User X cannot VERB resource …" message. An audited request is
 * annotated `<authorization group>/decision` (allow or forbid) and `/reason`, as Kubernetes does.
 */
export function withAuthorization(handler: Handler, authorizer: Authorizer, authorizationGroup: string): Handler {
  return async (req, res) => {
    const attributes = requestAttributes(requestInfoFrom(req), userFrom(req));
    const { decision, reason } = await authorizer.authorize(attributes);
    const audit = auditFrom(req);
    if (audit) {
      audit.annotations[`${authorizationGroup}/decision`] = decision === 'Allow' ? 'allow' : 'forbid';
      audit.annotations[`${authorizationGroup}/reason`] = reason;
    }
    if (decision === 'Allow') return handler(req, res);
    throw forbiddenError(attributes, reason);
  };
}
