/** The router behind the filters: health, version, discovery, metrics, then the REST endpoints. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestInfoFrom } from '../endpoints/request/request-info.js';
import { apiGroup, apiGroupList, apiResourceList, apiVersions } from '../endpoints/discovery.js';
import {
  aggregatedDiscoveryGroup,
  newAggregatedDiscovery,
  serveAggregatedDiscovery,
  type VersionDiscovery,
} from '../endpoints/discovery-aggregated.js';
import { versionInfo } from '../endpoints/version.js';
import { writeObject } from '../endpoints/responses.js';
import { negotiateOutput } from '../endpoints/negotiation.js';
import { newResourceHandler, notFoundPath } from '../endpoints/resource-handler.js';
import type { ApiContext } from '../endpoints/handlers/scope.js';
import * as status from '../api/status.js';
import { queryPretty } from '../runtime/query-params.js';
import type { HealthChecks } from '../component-base/health/health-checks.js';
import type { Metrics } from './metrics.js';
import type { OpenApiV3 } from '../endpoints/openapi-v3.js';
import { serveOpenApiV2, type OpenApiV2 } from '../endpoints/openapi-v2.js';
import type { Handler } from './filters/handler.js';
import type { GroupVersions } from '../api/resource-table.js';
import { CLUSTER_STATUS_PATH, type ClusterStatusSource } from './cluster-status.js';

export interface RouteDeps {
  api: ApiContext;
  openapi: OpenApiV3;
  openapiV2: OpenApiV2;
  health: HealthChecks;
  metrics: Metrics;
  serverAddress: () => string;
  /** The groups /apis lists, from the served ones (the aggregation layer merges its APIServices' in); default as served. */
  discoveryGroups?: (local: GroupVersions[]) => GroupVersions[];
  /** A remote APIService's group version in the aggregated discovery document (its extension server's), if any. */
  remoteDiscovery?: (group: string, version: string) => VersionDiscovery | undefined;
  /** The OpenAPI v3 index's paths, from the served ones (the aggregation layer adds its APIServices'); default as served. */
  openapiV3Paths?: (local: Record<string, unknown>) => Record<string, unknown>;
  /** API Priority and Fairness' /debug/api_priority_and_fairness/ dumps, when it is on. */
  flowControlDump?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** GET /debug/cluster (cluster-status.ts): the storage backend's health, the workers; absent: a 404. */
  clusterStatus?: ClusterStatusSource;
}

export function newRouter(deps: RouteDeps): Handler {
  const { api, health } = deps;
  const table = api.table;
  const resources = newResourceHandler(api);
  const groups = () => (deps.discoveryGroups ? deps.discoveryGroups(table.groups()) : table.groups());
  const answer = (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') throw status.methodNotAllowed();
    const { apiVersion, kind } = body as { apiVersion?: string; kind?: string };
    const output = negotiateOutput(req.headers.accept, table.domain.viewGroups, () => api.protobuf.has(apiVersion ?? '', kind ?? ''));
    writeObject(res, 200, body, {
      encoding: output.encoding,
      mediaType: output.mediaType,
      protobuf: api.protobuf,
      pretty: queryPretty(requestInfoFrom(req).query),
      headOnly: req.method === 'HEAD',
    });
  };
  // Aggregated discovery: /api the core group, /apis every other, each version the extension server's when remote.
  const discovery = newAggregatedDiscovery(table, deps.remoteDiscovery);
  const aggregated = (req: IncomingMessage, res: ServerResponse, path: '/api' | '/apis'): boolean => {
    const group = aggregatedDiscoveryGroup(req.headers.accept, table.domain.discoveryGroups);
    res.setHeader('Vary', 'Accept');
    if (!group) return false;
    const core = table.groups().filter((g) => g.group === '');
    const list = path === '/api' ? core : groups().filter((g) => g.group !== '');
    serveAggregatedDiscovery(req, res, group, discovery.document(path, list, `${group}/v2beta1`));
    return true;
  };
  return async (req, res) => {
    if (health.handle(req, res)) return;
    const info = requestInfoFrom(req);
    if (info.isResourceRequest) return resources(req, res);
    const path = info.path.replace(/\/+$/, '') || '/';
    if (path === '/metrics') return deps.metrics.handle(req, res);
    if (deps.flowControlDump?.(req, res)) return;
    if (path === CLUSTER_STATUS_PATH && deps.clusterStatus) return deps.clusterStatus.serve(req, res);
    if (path === '/version') return answer(req, res, versionInfo());
    if (path === '/api' || path === '/apis') {
      if (aggregated(req, res, path)) return;
      return answer(req, res, path === '/api' ? apiVersions(table, deps.serverAddress()) : apiGroupList(groups()));
    }
    if (path === '/openapi/v2') return serveOpenApiV2(req, res, deps.openapiV2);
    if (path === '/openapi/v3') {
      const index = deps.openapi.index() as { paths: Record<string, unknown> };
      return answer(req, res, deps.openapiV3Paths ? { ...index, paths: deps.openapiV3Paths(index.paths) } : index);
    }
    if (path.startsWith('/openapi/v3/')) {
      const doc = deps.openapi.document(path.slice('/openapi/v3/'.length));
      if (doc !== undefined) {
        if (req.method !== 'GET' && req.method !== 'HEAD') throw status.methodNotAllowed();
        res.setHeader('Content-Type', 'application/json');
        res.setHeader('Cache-Control', info.query.get('hash') ? 'public, immutable' : 'no-cache, private');
        res.end(req.method === 'HEAD' ? undefined : doc);
        return;
      }
    }
    if (info.apiPrefix === 'api' && info.apiVersion) {
      const doc = apiResourceList(table, '', info.apiVersion);
      if (doc) return answer(req, res, doc);
    }
    if (info.apiPrefix === 'apis' && info.apiGroup) {
      const doc = info.apiVersion ? apiResourceList(table, info.apiGroup, info.apiVersion) : undefined;
      if (doc) return answer(req, res, doc);
    }
    if (path.startsWith('/apis/') && path.split('/').length === 3) {
      const doc = apiGroup(groups(), path.split('/')[2]);
      if (doc) return answer(req, res, doc);
    }
    throw notFoundPath();
  };
}
