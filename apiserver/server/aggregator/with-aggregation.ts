/**
 * The aggregation filter, after authorization: a request under a remote APIService's group version
 * goes to its extension server, and so does its OpenAPI v3 document (/openapi/v3/apis/<group>/<version>);
 * everything else (local APIServices included) goes on to orch's routes.
 */
import { requestInfoFrom } from '../../endpoints/request/request-info.js';
import type { Handler } from '../filters/handler.js';
import type { ApiServiceCache } from './api-services.js';
import type { AggregatorProxy } from './proxy.js';

export function withAggregation(handler: Handler, cache: ApiServiceCache, proxy: AggregatorProxy): Handler {
  return (req, res) => {
    const info = requestInfoFrom(req);
    const doc = /^\/openapi\/v3\/apis\/([^/]+)\/([^/]+)$/.exec(info.path);
    const documented = doc && cache.remote(doc[1], doc[2]);
    if (documented) return proxy.serve(req, res, documented);
    if (info.apiVersion && (info.apiPrefix === 'apis' || info.apiPrefix === 'api')) {
      const remote = cache.remote(info.apiPrefix === 'api' ? '' : info.apiGroup, info.apiVersion);
      if (remote) return proxy.serve(req, res, remote);
    }
    return handler(req, res);
  };
}
