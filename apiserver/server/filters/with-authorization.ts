import type { NextFunction, Request, Response } from 'express';
import type { Authorizer } from '../../authorization/interfaces.js';
import { requestInfoFrom } from '../../endpoints/request/request-info.js';
import * as status from '../../api/status.js';
import { userFrom } from '../../endpoints/request/request-user.js';

/** Allowed, or 403 with Kubernetes' "User X cannot VERB resource …" message. */
export function withAuthorization(authorizer: Authorizer) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    const info = requestInfoFrom(req);
    const user = userFrom(req);
    const { decision, reason } = await authorizer.authorize({
      user,
      verb: info.verb,
      resourceRequest: info.isResourceRequest,
      apiGroup: info.apiGroup,
      apiVersion: info.apiVersion,
      resource: info.resource,
      subresource: info.subresource,
      namespace: info.namespace,
      name: info.name,
      path: info.path,
    });
    if (decision === 'Allow') return next();
    const why = reason ? `: ${reason}` : '';
    if (!info.isResourceRequest) {
      const e = status.forbidden({ group: '', resource: '' }, '', '');
      e.status.message = `forbidden: User "${user.name}" cannot ${info.verb} path "${info.path}"${why}`;
      throw e;
    }
    const resource = info.subresource ? `${info.resource}/${info.subresource}` : info.resource;
    const scope = info.namespace ? ` in the namespace "${info.namespace}"` : ' at the cluster scope';
    throw status.forbidden(
      { group: info.apiGroup, resource: info.resource },
      info.name,
      `User "${user.name}" cannot ${info.verb} resource "${resource}" in API group "${info.apiGroup}"${scope}${why}`,
    );
  };
}
