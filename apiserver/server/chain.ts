/**
 * The handler chain, assembled in ONE function, outermost first. Each filter is one file in
 * filters/; the error filter at the end turns anything thrown into a Status answer.
 */
import express from 'express';
import type { RequestAuthenticator } from '../authentication/interfaces.js';
import type { Authorizer } from '../authorization/interfaces.js';
import type { Logger } from '../component-base/logs/logger.js';
import type { InFlight } from './filters/with-in-flight-tracking.js';
import type { MaxInFlightLimit } from './filters/with-max-in-flight-limit.js';
import type { Metrics } from './metrics.js';
import { withRequestInfo } from './filters/with-request-info.js';
import { withAuthentication } from './filters/with-authentication.js';
import { withAuthorization } from './filters/with-authorization.js';
import { withImpersonation } from './filters/with-impersonation.js';
import { withAudit, withFailedAuthenticationAudit } from './filters/with-audit.js';
import type { ServerAudit } from './audit.js';
import { withStatusErrors } from './filters/with-status-errors.js';
import { newRouter, type RouteDeps } from './routes.js';

export interface ChainDeps extends RouteDeps {
  authenticator: RequestAuthenticator;
  authorizer: Authorizer;
  inFlight: InFlight;
  inFlightLimit: MaxInFlightLimit;
  metrics: Metrics;
  logger: Logger;
  /** Absent: nothing is audited, and the chain has no audit filter. */
  audit?: ServerAudit;
}

export function buildHandlerChain(deps: ChainDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(withRequestInfo());
  app.use(deps.metrics.middleware());
  app.use(deps.inFlight.middleware());
  if (deps.audit) app.use(withFailedAuthenticationAudit(deps.audit.policy, deps.audit.backend, deps.audit.apiVersion));
  app.use(withAuthentication(deps.authenticator, deps.logger));
  if (deps.audit) app.use(withAudit(deps.audit.policy, deps.audit.backend, deps.audit.apiVersion));
  app.use(withImpersonation(deps.authorizer, deps.api.table.domain));
  app.use(deps.inFlightLimit.middleware());
  app.use(withAuthorization(deps.authorizer, deps.api.table.domain.group('authorization.k8s.io')));
  app.use(newRouter(deps));
  app.use(withStatusErrors(deps.logger, deps.api.protobuf));
  return app;
}
