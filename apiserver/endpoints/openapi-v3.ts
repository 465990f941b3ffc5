/**
 * OpenAPI v3, generated from the resource table and the schemas: /openapi/v3 lists one document per
 * group version (`api/v1`, `apis/<group>/<version>`), each with the REST paths of its resources and
 * the component schemas they use.
 *
 * Extension names follow the API domain (`x-orch-…`; `x-kubernetes-…` when answering as k8s.io).
 * Operations also carry `x-kubernetes-group-version-kind`, the name kubectl looks up to find the
 * operations of a kind (its field-validation probe), so stock clients work with either domain.
 */
import { createHash } from 'node:crypto';
import type { ResourceTable } from '../api/resource-table.js';
import type { ApiDomain } from '../api/domain.js';
import type { ResourceDef } from '../api/resource.js';
import type { Definitions } from '../api/schema.js';
import { apiVersionOf } from '../api/object.js';
import { OBJECT_REVISION_LIST_SCHEMA } from '../api/history-definitions.js';
import { PATCH_CONTENT_TYPES } from './handlers/patch.js';
import {
  CLIENT_GVK,
  gvPath,
  operationGvk,
  operationSchema,
  operationIdentity,
  publishSchema,
  resourcePaths,
  type Json,
  type PathOptions,
  type QueryParam,
  type ResourceOperation,
} from './openapi-common.js';

const SCHEMAS = '#/components/schemas/';

function queryParam(p: QueryParam): Json {
  return { name: p.name, in: 'query', schema: { type: p.type, uniqueItems: true } };
}

function pathParam(name: string): Json {
  return { name, in: 'path', required: true, schema: { type: 'string', uniqueItems: true } };
}

function referencedSchemas(roots: string[], defs: Definitions): string[] {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length) {
    const name = queue.pop()!;
    if (seen.has(name) || !defs[name]) continue;
    seen.add(name);
    JSON.stringify(defs[name], (k, v) => {
      if (k === '$ref' && typeof v === 'string') queue.push(v.replace('#/definitions/', ''));
      return v;
    });
  }
  return [...seen].sort();
}

function requestBody(schema: string, body: 'object' | 'patch'): Json {
  const content =
    body === 'object'
      ? { '*/*': { schema: { $ref: `${SCHEMAS}${schema}` } } }
      : Object.fromEntries(PATCH_CONTENT_TYPES.map((t) => [t, { schema: { type: 'object' } }]));
  return { content, required: true };
}

function operation(def: ResourceDef, op: ResourceOperation, domain: ApiDomain): Json {
  const schema = operationSchema(def, op);
  const ok = { description: 'OK', content: { 'application/json': { schema: { $ref: `${SCHEMAS}${schema}` } } } };
  return {
    ...operationIdentity(def, op),
    responses: { '200': ok },
    [CLIENT_GVK]: operationGvk(def, op, domain),
    'x-kubernetes-action': op.action,
    parameters: op.query.map(queryParam),
    ...(op.body ? { requestBody: requestBody(schema, op.body) } : {}),
  };
}

function paths(def: ResourceDef, domain: ApiDomain, options: PathOptions): Record<string, Json> {
  return Object.fromEntries(
    resourcePaths(def, options).map((p) => [
      p.path,
      { parameters: p.pathParams.map(pathParam), ...Object.fromEntries(p.operations.map((op) => [op.method, operation(def, op, domain)])) },
    ]),
  );
}

export interface OpenApiV3 {
  /** The index: { paths: { "api/v1": { serverRelativeURL } } }. */
  index(): Json;
  /** The document of one group version path ("api/v1", "apis/storage.orch.io/v1"), or undefined. */
  document(path: string): string | undefined;
}

export function newOpenApiV3(table: ResourceTable, defs: Definitions, options: PathOptions = {}): OpenApiV3 {
  const docs = new Map<string, { text: string; hash: string }>();
  for (const g of table.groups()) {
    for (const version of g.versions) {
      const resources = table.inGroupVersion(g.group, version);
      const schemas: Json = {};
      for (const name of referencedSchemas(
        [
          ...resources.flatMap((r) => [r.schema, ...Object.values(r.createSubresources ?? {}).map((sub) => sub.schema)]),
          ...(options.history ? [OBJECT_REVISION_LIST_SCHEMA] : []),
        ],
        defs,
      )) {
        schemas[name] = publishSchema(defs[name], table.domain, SCHEMAS);
      }
      const doc = {
        openapi: '3.0.0',
        info: { title: 'orch', version: apiVersionOf(g.group, version) },
        paths: Object.assign({}, ...resources.map((r) => paths(r, table.domain, options))),
        components: { schemas },
      };
      const text = JSON.stringify(doc);
      docs.set(gvPath(g.group, version), { text, hash: createHash('sha512').update(text).digest('hex').toUpperCase() });
    }
  }
  return {
    index: () => ({
      paths: Object.fromEntries([...docs].map(([path, d]) => [path, { serverRelativeURL: `/openapi/v3/${path}?hash=${d.hash}` }])),
    }),
    document: (path) => docs.get(path)?.text,
  };
}
