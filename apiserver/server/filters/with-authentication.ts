import type { RequestAuthenticator } from '../../authentication/interfaces.js';
import { AuthenticationError } from '../../authentication/interfaces.js';
import * as status from '../../api/status.js';
import { setUser } from '../../endpoints/request/request-user.js';
import { requestInfoFrom } from '../../endpoints/request/request-info.js';
import type { Logger } from '../../component-base/logs/logger.js';
import type { Handler } from './handler.js';

/**
 * Who sent the request, or a 401 Status. The credential is removed from the request once it is
 * checked, so nothing later (proxies, logs) sees it; why a credential was rejected is never sent
 * back, as in Kubernetes, but logged (at -v=2) — the reasons authenticators give never hold the
 * credential itself.
 */
export function withAuthentication(handler: Handler, authenticator: RequestAuthenticator, logger: Logger): Handler {
  return async (req, res) => {
    let user;
    try {
      user = await authenticator.authenticate(req);
    } catch (err) {
      if (err instanceof AuthenticationError) {
        logger.verbose('unable to authenticate the request', { path: requestInfoFrom(req).path, reason: err.message });
        throw status.unauthorized();
      }
      throw err;
    }
    if (!user) throw status.unauthorized();
    delete req.headers.authorization;
    setUser(req, user);
    return handler(req, res);
  };
}
