/** Requests and objects shared by the apply and patch tests: Services (keyed ports), Pods (keyed containers, atomic args), ConfigMaps (granular data). */
import type { TestClient, Response } from '../../support/http-client.js';

export const APPLY = 'application/apply-patch+yaml';
export const MERGE = 'application/merge-patch+json';
export const STRATEGIC = 'application/strategic-merge-patch+json';
export const JSON_PATCH = 'application/json-patch+json';

export const path = (ns: string, plural: string, name = '', sub = '') =>
  `/api/v1/namespaces/${ns}/${plural}${name ? `/${name}` : ''}${sub ? `/${sub}` : ''}`;

/** PATCH with a body (JSON-encoded unless it is a string) and a content type. */
export function patch(
  c: TestClient,
  url: string,
  body: unknown,
  contentType: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return c.request('PATCH', url, typeof body === 'string' ? { raw: body, contentType, headers } : { body, contentType, headers });
}

/** A server-side apply by `manager` (query extras after it, e.g. `&force=true`). */
export function apply(c: TestClient, url: string, body: unknown, manager: string, extra = ''): Promise<Response> {
  return patch(c, `${url}?fieldManager=${manager}${extra}`, body, APPLY);
}

export function service(name: string, spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name, ...metadata }, spec };
}

export function pod(name: string, containers: Record<string, unknown>[], metadata: Record<string, unknown> = {}) {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, ...metadata }, spec: { containers } };
}

export function configMap(name: string, data: Record<string, string>, metadata: Record<string, unknown> = {}) {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...metadata }, data };
}

/** The managedFields of an object as `manager/operation[/subresource]` → fieldsV1. */
export function owners(obj: { metadata: { managedFields?: Record<string, unknown>[] } }): Record<string, unknown> {
  return Object.fromEntries(
    (obj.metadata.managedFields ?? []).map((e) => [`${e.manager}/${e.operation}${e.subresource ? `/${e.subresource}` : ''}`, e.fieldsV1]),
  );
}
