/**
 * OpenAPI v2 (swagger 2.0) at /openapi/v2: ONE document with the REST paths of every served resource
 * and every schema, as JSON or as gnostic's protobuf — the form kubectl (up to 1.28; later ones when
 * the v3 documents cannot answer) downloads to build its client-side schema model before validating
 * `create -f` / `apply -f`, and that `kubectl explain` reads when told to use OpenAPI v2.
 *
 * Paths and schemas are those of the v3 documents (openapi-common.ts), in swagger 2.0 shapes (custom
 * resources' schemas reduced as Kubernetes publishes them in v2: openapi-v2-custom.ts); schema
 * references stay `#/definitions/<name>`. Both encodings are built on first use and kept: they never
 * change while the server runs.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResourceTable } from '../api/resource-table.js';
import type { ApiDomain } from '../api/domain.js';
import type { ResourceDef } from '../api/resource.js';
import type { Definitions } from '../api/schema.js';
import * as status from '../api/status.js';
import { PATCH_CONTENT_TYPES } from './handlers/patch.js';
import { PROTOBUF_MEDIA_TYPES, parseAccept } from './negotiation.js';
import { versionInfo } from './version.js';
import { encodeGnosticDocument } from './openapi-v2-gnostic.js';
import { documentETag } from './document-etag.js';
import { customSchemaV2 } from './openapi-v2-custom.js';
import {
  CLIENT_GVK,
  operationGvk,
  operationSchema,
  operationIdentity,
  publishSchema,
  resourcePaths,
  type Json,
  type PathOptions,
  type ResourceOperation,
  type ResourcePath,
} from './openapi-common.js';

/**
 * The media type of the protobuf encoding. client-go asks for the older spelling with `@`, which Go's
 * mime parser rejects in a Content-Type, so the answer names the dotted one, as kube-apiserver does.
 */
export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
const PROTOBUF_TYPES = [OPENAPI_V2_PROTOBUF, 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf'];

const DEFINITIONS = '#/definitions/';

export type OpenApiV2Encoding = 'json' | 'protobuf';

export interface OpenApiV2 {
  /** The document as JSON text. */
  json(): string;
  /** The document as the protobuf message openapi.v2.Document. */
  protobuf(): Buffer;
  /** The ETag of an encoding: the quoted SHA-512 of its bytes, as kube-apiserver sends it. */
  etag(encoding: OpenApiV2Encoding): string;
}

/** What every operation answers in, as kube-apiserver lists it (Kubernetes' protobuf media type). */
const PRODUCES = ['application/json', 'application/yaml', PROTOBUF_MEDIA_TYPES[0]];

function operation(def: ResourceDef, op: ResourceOperation, domain: ApiDomain): Json {
  const ref = { $ref: `${DEFINITIONS}${operationSchema(def, op)}` };
  const body = op.body && { name: 'body', in: 'body', required: true, schema: op.body === 'object' ? ref : { type: 'object' } };
  return {
    ...operationIdentity(def, op),
    consumes: op.body === 'patch' ? PATCH_CONTENT_TYPES : ['*/*'],
    produces: PRODUCES,
    schemes: ['https'],
    parameters: [...(body ? [body] : []), ...op.query.map((p) => ({ name: p.name, in: 'query', type: p.type, uniqueItems: true }))],
    responses: { '200': { description: 'OK', schema: ref } },
    [CLIENT_GVK]: operationGvk(def, op, domain),
    'x-kubernetes-action': op.action,
  };
}

function pathItem(def: ResourceDef, p: ResourcePath, domain: ApiDomain): Json {
  const params = p.pathParams.map((name) => ({ name, in: 'path', required: true, type: 'string', uniqueItems: true }));
  return {
    ...(params.length ? { parameters: params } : {}),
    ...Object.fromEntries(p.operations.map((op) => [op.method, operation(def, op, domain)])),
  };
}

/** The definition names of the custom resources' schemas, which v2 publishes reduced (openapi-v2-custom.ts). */
function customDefinitions(table: ResourceTable): Set<string> {
  const names = new Set<string>();
  for (const def of table.all()) {
    const ref = def.unstructured ? def.schemaRef.$ref : undefined;
    if (typeof ref === 'string' && ref.startsWith(DEFINITIONS)) names.add(ref.slice(DEFINITIONS.length));
  }
  return names;
}

function document(table: ResourceTable, defs: Definitions, options: PathOptions): Json {
  const custom = customDefinitions(table);
  return {
    swagger: '2.0',
    info: { title: 'orch', version: versionInfo().gitVersion },
    paths: Object.fromEntries(
      table.all().flatMap((def) => resourcePaths(def, options).map((p) => [p.path, pathItem(def, p, table.domain)])),
    ),
    definitions: Object.fromEntries(
      Object.keys(defs)
        .sort()
        .map((name) => [
          name,
          publishSchema(custom.has(name) ? customSchemaV2(defs[name] as Json) : defs[name], table.domain, DEFINITIONS),
        ]),
    ),
  };
}

/** The document of every resource in the table and every schema in defs. */
export function newOpenApiV2(table: ResourceTable, defs: Definitions, options: PathOptions = {}): OpenApiV2 {
  let doc: Json | undefined;
  let json: string | undefined;
  let pb: Buffer | undefined;
  const etags = new Map<OpenApiV2Encoding, string>();
  const api: OpenApiV2 = {
    json: () => (json ??= JSON.stringify((doc ??= document(table, defs, options)))),
    protobuf: () => (pb ??= encodeGnosticDocument((doc ??= document(table, defs, options)))),
    etag(encoding) {
      let tag = etags.get(encoding);
      if (!tag) {
        etags.set(encoding, (tag = documentETag(encoding === 'json' ? api.json() : api.protobuf())));
      }
      return tag;
    },
  };
  return api;
}

/** Protobuf when the Accept header ranks it before JSON (or any type); JSON otherwise. */
function encodingFor(accept: string | undefined): OpenApiV2Encoding {
  for (const r of parseAccept(accept)) {
    if (PROTOBUF_TYPES.includes(`${r.type}/${r.subtype}`)) return 'protobuf';
    if (r.type === '*' || (r.type === 'application' && (r.subtype === '*' || r.subtype === 'json'))) return 'json';
  }
  return 'json';
}

/** Answers GET/HEAD /openapi/v2 in the negotiated encoding, with its ETag; 304 when If-None-Match has it. */
export function serveOpenApiV2(req: IncomingMessage, res: ServerResponse, api: OpenApiV2): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') throw status.methodNotAllowed();
  const encoding = encodingFor(req.headers.accept);
  const etag = api.etag(encoding);
  res.setHeader('ETag', etag);
  res.setHeader('Vary', 'Accept');
  res.setHeader('Cache-Control', 'no-cache, private');
  const known = (req.headers['if-none-match'] ?? '').split(',').map((t) => t.trim().replace(/^W\//, ''));
  if (known.includes(etag) || known.includes('*')) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.setHeader('Content-Type', encoding === 'json' ? 'application/json' : OPENAPI_V2_PROTOBUF);
  const body = encoding === 'json' ? api.json() : api.protobuf();
  res.end(req.method === 'HEAD' ? undefined : body);
}
