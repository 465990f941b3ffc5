/** Routes a resource request (already parsed into RequestInfo) to the handler of its verb. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as status from '../api/status.js';
import type { ResourceDef, Verb } from '../api/resource.js';
import { requestInfoFrom, type RequestInfo } from './request/request-info.js';
import { mediaType, negotiateOutput } from './negotiation.js';
import { warningHeaders } from './responses.js';
import { userFrom } from './request/request-user.js';
import { auditFrom } from './request/request-audit.js';
import type { ApiContext, RequestScope } from './handlers/scope.js';
import { parseDryRun, parsePretty, writeQueryOptions } from './handlers/query.js';
import { handleGet, handleList } from './handlers/get.js';
import { handleCreate } from './handlers/create.js';
import { handleUpdate } from './handlers/update.js';
import { handlePatch } from './handlers/patch.js';
import { handleDelete, handleDeleteCollection } from './handlers/delete.js';
import { handleWatch } from './handlers/watch.js';
import { handleSubresourceView } from './handlers/subresource-view.js';
import { handleAction } from './handlers/action.js';
import { handleConnect } from './handlers/connect.js';
import { handleHistory } from './handlers/history.js';
import { HISTORY_SUBRESOURCE } from '../registry/generic/history-view.js';

const HANDLERS: Record<Verb, (s: RequestScope) => Promise<void>> = {
  get: handleGet,
  list: handleList,
  watch: handleWatch,
  create: handleCreate,
  update: handleUpdate,
  patch: handlePatch,
  delete: handleDelete,
  deletecollection: handleDeleteCollection,
};

/** Verbs a subresource answers (status, finalize: read and replace). */
const SUBRESOURCE_VERBS: readonly string[] = ['get', 'update', 'patch'];

export const NOT_FOUND_MESSAGE = 'the server could not find the requested resource';

export function newResourceHandler(api: ApiContext) {
  return async function handleResource(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const info = requestInfoFrom(req);
    const def = api.table.lookup(info.apiGroup, info.apiVersion, info.resource);
    const store = def && api.stores.get(def);
    if (!def || !store) throw notFoundPath();
    // A kind or subresource the server only answers: served when an answer is wired, POSTed to its
    // collection (a kind) or its parent object (a subresource).
    const answered = info.subresource ? def.createSubresources?.[info.subresource] : undefined;
    if (answered ? !store.hasAction(info.subresource) || !info.name : def.ephemeral && (!store.createAction || info.name)) {
      throw notFoundPath();
    }
    const history = info.subresource === HISTORY_SUBRESOURCE && !def.subresources?.history && store.ledger && !def.ephemeral;
    if (info.subresource && !answered && !history && !def.subresources?.[info.subresource]) throw notFoundPath();
    // Only a proxy subresource has a path after it.
    if (info.extraParts.length && !def.subresources?.[info.subresource]?.connect) throw notFoundPath();
    // /api/v1/namespaces/x parses with namespace x; for the cluster-scoped kinds that is their name.
    const namespace = def.namespaced ? info.namespace : '';
    if (!def.namespaced && info.namespace && info.resource !== 'namespaces') throw notFoundPath();
    if (def.namespaced && !namespace && info.name) throw notFoundPath();
    const verb = info.verb as Verb;
    const sub = info.subresource ? def.subresources?.[info.subresource] : undefined;
    const allowed = answered ? verb === 'create' : sub ? (sub.verbs ?? SUBRESOURCE_VERBS).includes(verb) : def.verbs.includes(verb);
    if (!HANDLERS[verb] || !allowed) throw status.methodNotAllowed();
    if (verb === 'watch' && req.method !== 'GET' && req.method !== 'HEAD') throw status.methodNotAllowed();
    if (def.namespaced && !namespace && verb !== 'list' && verb !== 'watch') throw status.methodNotAllowed();
    // A collection has no PUT or PATCH route (405, as Kubernetes' router answers).
    if (!info.name && (verb === 'update' || verb === 'patch')) throw status.methodNotAllowed();
    const query = info.query;
    // The ephemeral kinds (the reviews) have no Table form: as=Table is 406, as Kubernetes answers them.
    // A history listing (an ObjectRevisionList: orch's kind) has neither a protobuf form nor views.
    const revisions = history && !query.has('resourceVersion');
    const output = negotiateOutput(
      req.headers.accept,
      revisions ? [] : api.table.domain.viewGroups,
      () => !revisions && api.protobuf.has(def.apiVersion, def.kind),
      !def.ephemeral,
    );
    const scope: RequestScope = {
      api,
      def,
      store,
      info,
      query,
      req,
      res,
      encoding: output.encoding,
      output,
      pretty: parsePretty(query),
      ctx: { namespace, requestName: info.name, user: userFrom(req), dryRun: parseDryRun(query.getAll('dryRun')), now: new Date() },
      warnings: def.deprecationWarning ? [def.deprecationWarning] : [],
    };
    // Admission's warnings join the decoder's in the one list the response sends.
    scope.ctx.warnings = scope.warnings;
    scope.ctx.auditAnnotations = auditFrom(req)?.annotations;
    if (req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH') scope.ctx.operationOptions = writeQueryOptions(query);
    if (req.method === 'PUT' || req.method === 'PATCH') scope.ctx.ledgerOperation = ledgerOperationOf(req);
    if (def.deprecationWarning) reportDeprecated(api, def, info, scope.ctx.auditAnnotations);
    try {
      if (history) await handleHistory(scope);
      else if (sub?.connect) await handleConnect(scope, sub.connect.kind, api.connect);
      else if (answered) await handleAction(scope, { ...answered, group: api.table.domain.group(answered.kubernetesGroup) });
      else if (sub?.action) await handleAction(scope, sub.action);
      else if (!sub && verb === 'create' && store.createAction) await handleAction(scope, def);
      else if (sub?.view) await handleSubresourceView(scope, sub.view);
      else await HANDLERS[verb](scope);
    } catch (err) {
      // An error answer carries the warnings gathered so far, as Kubernetes' do.
      if (scope.warnings.length && !res.headersSent) res.setHeader('Warning', warningHeaders(scope.warnings));
      throw err;
    }
  };
}

/**
 * A deprecated version was requested: the metric apiserver_requested_deprecated_apis, and the audit
 * annotations `<domain>/deprecated` and `<domain>/removed-release` (Kubernetes' k8s.io/… ones).
 */
function reportDeprecated(api: ApiContext, def: ResourceDef, info: RequestInfo, annotations: Record<string, string> | undefined): void {
  api.metrics?.deprecatedApiRequested({
    group: def.group,
    version: def.version,
    resource: def.plural,
    subresource: info.subresource,
    removedRelease: def.removedRelease ?? '',
  });
  if (!annotations) return;
  const domain = api.table.domain.domain;
  annotations[`${domain}/deprecated`] = 'true';
  if (def.removedRelease) annotations[`${domain}/removed-release`] = def.removedRelease;
}

export function notFoundPath(): status.ApiError {
  const e = status.notFound({ group: '', resource: '' }, '');
  e.status.message = NOT_FOUND_MESSAGE;
  e.status.details = {};
  return e;
}

/** What the revision ledger records a PUT or PATCH as. */
function ledgerOperationOf(req: IncomingMessage): 'update' | 'patch' | 'apply' {
  if (req.method === 'PUT') return 'update';
  return mediaType(req.headers['content-type']).startsWith('application/apply-patch') ? 'apply' : 'patch';
}
