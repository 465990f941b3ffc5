/**
 * The handler chain, assembled in ONE function as Kubernetes' DefaultBuildHandlerChain: each filter
 * (one file in filters/) wraps the handler after it, so a request passes through them as plain
 * function calls, outermost first: status errors → request info → metrics → in-flight tracking →
 * (failed-authentication audit) → the console's static files → authentication → (audit) → impersonation → priority and fairness
 * (or, without it, max in flight) → authorization → aggregation (remote APIServices) → router. Express
 * hosts the composed chain as its one middleware.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import type { RequestAuthenticator } from '../authentication/interfaces.js';
import type { Authorizer } from '../authorization/interfaces.js';
import type { Logger } from '../component-base/logs/logger.js';
import type { InFlight } from './filters/with-in-flight-tracking.js';
import type { MaxInFlightLimit } from './filters/with-max-in-flight-limit.js';
import type { Metrics } from './metrics.js';
import type { Handler } from './filters/handler.js';
import { withRequestInfo } from './filters/with-request-info.js';
import { withAuthentication } from './filters/with-authentication.js';
import { withAuthorization } from './filters/with-authorization.js';
import { withImpersonation } from './filters/with-impersonation.js';
import { withAudit, withFailedAuthenticationAudit } from './filters/with-audit.js';
import type { ServerAudit } from './audit.js';
import { withStatusErrors } from './filters/with-status-errors.js';
import { newRouter, type RouteDeps } from './routes.js';
import type { Aggregator } from './aggregator/new-aggregator.js';
import { type ConsoleAssets, withConsole } from './console/serve-console.js';

export interface ChainDeps extends RouteDeps {
  authenticator: RequestAuthenticator;
  authorizer: Authorizer;
  inFlight: InFlight;
  inFlightLimit: MaxInFlightLimit;
  metrics: Metrics;
  logger: Logger;
  /** API Priority and Fairness; absent (--enable-priority-and-fairness=false): the in-flight limits. */
  priorityAndFairness?: { filter(handler: Handler): Handler };
  /** Absent: nothing is audited, and the chain has no audit filter. */
  audit?: ServerAudit;
  /** Absent: no aggregation layer (every group version is local). */
  aggregator?: Aggregator;
  /** The web console's files (--console); absent: /console/ is a 404 as any unknown path. */
  console?: ConsoleAssets;
}

export function buildHandlerChain(deps: ChainDeps): express.Express {
  const { audit } = deps;
  let handler: Handler = newRouter(deps);
  if (deps.aggregator) handler = deps.aggregator.filter(handler);
  handler = withAuthorization(handler, deps.authorizer, deps.api.table.domain.group('authorization.k8s.io'));
  handler = deps.priorityAndFairness ? deps.priorityAndFairness.filter(handler) : deps.inFlightLimit.filter(handler);
  handler = withImpersonation(handler, deps.authorizer, deps.api.table.domain);
  if (audit) handler = withAudit(handler, audit.policy, audit.backend, audit.apiVersion);
  handler = withAuthentication(handler, deps.authenticator, deps.logger);
  if (audit) handler = withFailedAuthenticationAudit(handler, audit.policy, audit.backend, audit.apiVersion);
  // Outside authentication, as /healthz for the anonymous: static files only, no data.
  if (deps.console) handler = withConsole(handler, deps.console);
  handler = deps.inFlight.filter(handler);
  handler = deps.metrics.filter(handler);
  handler = withRequestInfo(handler);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(withStatusErrors(handler, deps.logger, deps.api.protobuf));
  return app;
}

/**
 * The request and response classes for the server hosting `app`, made the prototypes express gives
 * every request and response (app.request, app.response; express' own methods stay behind them):
 * express' per-request Object.setPrototypeOf then finds them in place and changes nothing — a
 * prototype switch per request gave every request and response a fresh hidden class, slowing every
 * later property access on them. Subclasses, not plain constructor functions, so V8 sizes the objects
 * for the properties their base constructors set.
 */
export function serverClasses(app: express.Express): { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse } {
  class Request extends IncomingMessage {}
  class Response extends ServerResponse {}
  for (const [cls, current, key] of [
    [Request, app.request, 'request'],
    [Response, app.response, 'response'],
  ] as const) {
    Object.setPrototypeOf(cls.prototype, Object.getPrototypeOf(current));
    Object.defineProperty(cls.prototype, 'app', { configurable: true, enumerable: true, writable: true, value: app });
    Object.assign(app, { [key]: cls.prototype });
  }
  return { IncomingMessage: Request, ServerResponse: Response as typeof ServerResponse };
}
