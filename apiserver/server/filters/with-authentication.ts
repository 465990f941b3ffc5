import type { NextFunction, Request, Response } from 'express';
import type { RequestAuthenticator } from '../../authentication/interfaces.js';
import { AuthenticationError } from '../../authentication/interfaces.js';
import * as status from '../../api/status.js';
import { setUser } from '../../endpoints/request/request-user.js';
import type { Logger } from '../../component-base/logs/logger.js';

/**
 * Who sent the request, or a 401 Status. The credential is removed from the request once it is
 * checked, so nothing later (proxies, logs) sees it; why a credential was rejected is never sent
 * back, as in Kubernetes, but logged (at -v=2) — the reasons authenticators give never hold the
 * credential itself.
 */
export function withAuthentication(authenticator: RequestAuthenticator, logger: Logger) {
  return async (req: Request, _res: Response, next: NextFunction) => {
    let user;
    try {
      user = await authenticator.authenticate(req);
    } catch (err) {
      if (err instanceof AuthenticationError) {
        logger.verbose('unable to authenticate the request', { path: req.path, reason: err.message });
        throw status.unauthorized();
      }
      throw err;
    }
    if (!user) throw status.unauthorized();
    delete req.headers.authorization;
    setUser(req, user);
    next();
  };
}
