/**
 * Request info: the path and method of a request parsed once into verb, group, version, resource,
 * subresource, namespace and name (Kubernetes' RequestInfoFactory). Read everywhere through
 * requestInfoFrom(req).
 */
import { newRequestSlot } from './request-slot.js';

export interface RequestInfo {
  isResourceRequest: boolean;
  path: string;
  /** get, list, watch, create, update, patch, delete, deletecollection; or the lower-case method for non-resource requests. */
  verb: string;
  apiPrefix: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  /** Path segments after the resource that do not fit the pattern (a 404). */
  extraParts: string[];
}

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

function methodVerb(method: string): string {
  switch (method) {
    case 'POST':
      return 'create';
    case 'GET':
    case 'HEAD':
      return 'get';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return 'delete';
    default:
      return method.toLowerCase();
  }
}

function isWatchQuery(value: string | null): boolean {
  return value === '1' || value === 'true';
}

export function parseRequestInfo(method: string, rawUrl: string): RequestInfo {
  const url = new URL(rawUrl, 'http://x');
  const path = url.pathname;
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
    extraParts: [],
  };
  let parts = path
    .replace(/^\/+|\/+$/g, '')
    .split('/')
    .filter((p) => p !== '');
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
  info.verb = methodVerb(method);
  let watchPath = false;
  if (parts[0] === 'watch') {
    watchPath = true;
    parts = parts.slice(1);
  }
  if (parts[0] === 'namespaces' && parts.length > 1) {
    info.namespace = parts[1];
    if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2])) parts = parts.slice(2);
  }
  info.resource = parts[0] ?? '';
  info.name = parts[1] ?? '';
  info.subresource = parts[2] ?? '';
  info.extraParts = parts.slice(3);
  if (info.verb === 'get' && !info.name) info.verb = 'list';
  if (info.verb === 'delete' && !info.name) info.verb = 'deletecollection';
  if (watchPath || ((info.verb === 'list' || info.verb === 'get') && isWatchQuery(url.searchParams.get('watch')))) {
    info.verb = 'watch';
  }
  return info;
}

const slot = newRequestSlot<RequestInfo>('request info', 'request-info');

/** Set once by the request-info filter. */
export const setRequestInfo = slot.set;
/** The parsed facts of the request. */
export const requestInfoFrom = slot.get;
