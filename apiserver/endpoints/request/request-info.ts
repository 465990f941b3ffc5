/**
 * Request info: the path and method of a request parsed once into verb, group, version, resource,
 * subresource, namespace and name (Kubernetes' RequestInfoFactory, 1.28), and its query. Read everywhere through
 * requestInfoFrom(req). A path that cannot be parsed is a 400, never a crash.
 */
import * as status from '../../api/status.js';
import { validatePathSegmentName } from '../../api/validation/names.js';
import { queryBool } from '../../runtime/query-params.js';
import { parseFieldSelector } from '../../runtime/selectors/field-selector.js';
import { newRequestSlot } from './request-slot.js';

export interface RequestInfo {
  isResourceRequest: boolean;
  path: string;
  /**
   * get, list, watch, create, update, patch, delete, deletecollection, proxy; '' for another method
   * on a resource; the lower-case method for non-resource requests.
   */
  verb: string;
  apiPrefix: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  /** The name in the path. */
  name: string;
  /**
   * The name a list or watch is restricted to by `fieldSelector=metadata.name=NAME` (Kubernetes
   * puts it in RequestInfo.Name, so RBAC's resourceNames apply to it); '' otherwise.
   */
  selectedName: string;
  /** Path segments after the resource that do not fit the pattern (a 404). */
  extraParts: string[];
  /** The query parameters, parsed once with the path. */
  query: URLSearchParams;
}

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize', 'history']);
/** Verbs written as the first path segment after the version. */
const SPECIAL_VERBS = new Set(['proxy', 'watch']);
/** Special verbs whose third segment is part of the proxied path, not a subresource. */
const SPECIAL_VERBS_NO_SUBRESOURCES = new Set(['proxy']);

const METHOD_VERBS: Record<string, string> = { POST: 'create', GET: 'get', HEAD: 'get', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };

/** `watch=` of a list, read as the list handler reads it. */
function watchRequested(query: URLSearchParams): boolean {
  return queryBool(query, 'watch') ?? false;
}

/** The name a field selector requires exactly, when it is a valid path segment. */
function selectedName(query: URLSearchParams): string {
  const selector = query.get('fieldSelector');
  if (!selector) return '';
  let name: string | undefined;
  try {
    name = parseFieldSelector(selector).requiresExactMatch('metadata.name');
  } catch {
    return ''; // an invalid selector is the list handler's 400 to give
  }
  return name !== undefined && validatePathSegmentName(name, false).length === 0 ? name : '';
}

/** The path split into decoded segments (Go's URL.Path is decoded); a bad escape is a 400. */
function splitPath(path: string): string[] {
  const parts = path.split('/').filter((p) => p !== '');
  if (!path.includes('%')) return parts;
  try {
    return parts.map((p) => decodeURIComponent(p));
  } catch {
    throw status.badRequest(`invalid URL escape in path ${JSON.stringify(path)}`);
  }
}

/** A path the URL parser returns as it is: no escapes, backslashes or characters it would encode. */
const PLAIN_PATH = /^\/(?!\/)[\w\-.~!$&'()*+,;=:@/]*$/;
/** A `.` or `..` segment, which the URL parser resolves. */
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;

/**
 * The request target's path and query as the WHATWG URL parser gives them. A plain path (nearly every
 * request) is split off by hand, which yields the same: the parser would leave it as it is, and the
 * query parameters decode the same from the raw query as from the parser's re-encoded one.
 */
export function splitRequestUrl(rawUrl: string): { path: string; query: URLSearchParams } {
  const q = rawUrl.indexOf('?');
  const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
  if (PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path) && !rawUrl.includes('#')) {
    return { path, query: new URLSearchParams(q < 0 ? '' : rawUrl.slice(q + 1)) };
  }
  let url: URL;
  try {
    url = new URL(rawUrl, 'http://x');
  } catch {
    throw status.badRequest(`malformed request URI ${JSON.stringify(rawUrl)}`);
  }
  return { path: url.pathname, query: url.searchParams };
}

export function parseRequestInfo(method: string, rawUrl: string): RequestInfo {
  const { path, query } = splitRequestUrl(rawUrl);
  const info: RequestInfo = {
    isResourceRequest: false,
    path,
    verb: method.toLowerCase(),
    apiPrefix: '',
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    selectedName: '',
    extraParts: [],
    query,
  };
  let parts = splitPath(path);
  if (parts.length < 2 || (parts[0] !== 'api' && parts[0] !== 'apis')) return info;
  info.apiPrefix = parts[0];
  parts = parts.slice(1);
  if (info.apiPrefix === 'apis') {
    if (parts.length < 2) return info;
    info.apiGroup = parts[0];
    parts = parts.slice(1);
  }
  info.apiVersion = parts[0];
  parts = parts.slice(1);
  if (parts.length === 0) return info;
  info.isResourceRequest = true;
  if (SPECIAL_VERBS.has(parts[0])) {
    if (parts.length < 2) throw status.badRequest(`unable to determine kind and namespace from url ${JSON.stringify(path)}`);
    info.verb = parts[0];
    parts = parts.slice(1);
  } else {
    info.verb = METHOD_VERBS[method] ?? '';
  }
  if (parts[0] === 'namespaces' && parts.length > 1) {
    info.namespace = parts[1];
    if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2])) parts = parts.slice(2);
  }
  info.resource = parts[0] ?? '';
  info.name = parts[1] ?? '';
  if (!SPECIAL_VERBS_NO_SUBRESOURCES.has(info.verb)) {
    info.subresource = parts[2] ?? '';
    info.extraParts = parts.slice(3);
  } else {
    info.extraParts = parts.slice(2);
  }
  if (!info.name && info.verb === 'get') {
    info.verb = watchRequested(query) ? 'watch' : 'list';
    info.selectedName = selectedName(query);
  }
  if (!info.name && info.verb === 'delete') info.verb = 'deletecollection';
  return info;
}

const slot = newRequestSlot<RequestInfo>('request info', 'request-info');

/** Set once by the request-info filter. */
export const setRequestInfo = slot.set;
/** The parsed facts of the request. */
export const requestInfoFrom = slot.get;
