/**
 * What the OpenAPI v2 and v3 documents share: the domain's extension names, publishing a schema under
 * them, and the REST operations of a resource in a neutral form that each document version renders.
 */
import type { ApiDomain } from '../api/domain.js';
import { OBJECT_REVISION_LIST_KIND } from '../api/history-definitions.js';
import type { CreateSubresource, ResourceDef } from '../api/resource.js';

export type Json = Record<string, unknown>;

/** The extension stock clients (kubectl) read to find the operations and the schema of a kind. */
export const CLIENT_GVK = 'x-kubernetes-group-version-kind';

const CLIENT_PREFIX = 'x-kubernetes-';
/**
 * Strategic-merge-patch markers, which stock clients also read under their Kubernetes names: kubectl's
 * client-side apply computes its patches from them (without them it would send whole merged lists,
 * which the server merges item by item, so removed items would stay).
 */
const CLIENT_PATCH_MARKERS = ['patch-strategy', 'patch-merge-key'];

const SOURCE_PREFIX = 'x-orch-';
const DEFINITIONS = '#/definitions/';

/** The prefix of published extension names: `x-kubernetes-` when answering as k8s.io, else `x-orch-`. */
export function extensionPrefix(domain: ApiDomain): string {
  return domain.extensionPrefix;
}

/** The path of a group version below the server root: "api/v1" or "apis/<group>/<version>". */
export function gvPath(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

/**
 * A schema as published: `#/definitions/<name>` references point to `refPrefix + <name>`, `x-orch-…`
 * extensions take the domain's prefix, group-version-kind extensions carry full group names and are
 * also published as CLIENT_GVK, and the patch markers are also published under their client names.
 */
export function publishSchema(node: unknown, domain: ApiDomain, refPrefix: string): unknown {
  if (Array.isArray(node)) return node.map((n) => publishSchema(n, domain, refPrefix));
  if (typeof node !== 'object' || node === null) return node;
  const prefix = extensionPrefix(domain);
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (k === '$ref' && typeof v === 'string') out.$ref = v.replace(DEFINITIONS, refPrefix);
    else if (k === `${SOURCE_PREFIX}group-version-kind`) {
      const gvks = (v as Json[]).map((g) => ({ ...g, group: domain.group(String(g.group)) }));
      out[`${prefix}group-version-kind`] = gvks;
      out[CLIENT_GVK] = gvks;
    } else if (k.startsWith(SOURCE_PREFIX)) {
      const name = k.slice(SOURCE_PREFIX.length);
      out[`${prefix}${name}`] = publishSchema(v, domain, refPrefix);
      if (CLIENT_PATCH_MARKERS.includes(name)) out[`${CLIENT_PREFIX}${name}`] = v;
    } else out[k] = publishSchema(v, domain, refPrefix);
  }
  return out;
}

/** A query parameter of an operation. */
export interface QueryParam {
  name: string;
  type: 'string' | 'integer' | 'boolean';
}

/** One REST operation of a resource. */
export interface ResourceOperation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** The `x-kubernetes-action`; with the kind it also makes the operation id. */
  action: 'list' | 'post' | 'deletecollection' | 'get' | 'put' | 'patch' | 'delete';
  query: readonly QueryParam[];
  /** The request body: an object of the resource's schema, or a patch document. */
  body?: 'object' | 'patch';
  /** Set on the operations of a subresource path. */
  subresource?: string;
  /** Set when the operation reads and writes another kind (serviceaccounts/token: TokenRequest). */
  kind?: CreateSubresource;
}

/** A path of a resource with its path parameters (in order) and operations (in document order). */
export interface ResourcePath {
  path: string;
  pathParams: readonly string[];
  operations: readonly ResourceOperation[];
}

const str = (name: string): QueryParam => ({ name, type: 'string' });
const WRITE = ['dryRun', 'fieldManager', 'fieldValidation', 'pretty'].map(str);
/** PATCH takes the write parameters and, for apply, force. */
const PATCH_QUERY: QueryParam[] = [...WRITE, { name: 'force', type: 'boolean' }];
const LIST: QueryParam[] = [
  { name: 'allowWatchBookmarks', type: 'boolean' },
  str('continue'),
  str('fieldSelector'),
  str('labelSelector'),
  { name: 'limit', type: 'integer' },
  str('resourceVersion'),
  str('resourceVersionMatch'),
  { name: 'timeoutSeconds', type: 'integer' },
  { name: 'watch', type: 'boolean' },
  str('pretty'),
];
const GET: ResourceOperation = { method: 'get', action: 'get', query: [str('pretty')] };
const PUT: ResourceOperation = { method: 'put', action: 'put', query: WRITE, body: 'object' };

/** The verb each operation needs the resource (or subresource) to serve. */
const OPERATION_NEEDS: Record<ResourceOperation['action'], string> = {
  list: 'list',
  post: 'create',
  deletecollection: 'deletecollection',
  get: 'get',
  put: 'update',
  patch: 'patch',
  delete: 'delete',
};

/** What the documents describe beyond the resource table. */
export interface PathOptions {
  /** The revision ledger is on: every kind that keeps one has a `history` subresource. */
  history?: boolean;
}

const HISTORY_QUERY: QueryParam[] = [str('continue'), { name: 'limit', type: 'integer' }, str('resourceVersion'), str('pretty')];

/**
 * The paths of a resource: its collection, its objects and their subresources, with the operations the
 * resource serves (a read-only kind has no writes). Action subresources (pods/binding, pods/eviction)
 * take another kind's body and are left out.
 */
export function resourcePaths(def: ResourceDef, options: PathOptions = {}): ResourcePath[] {
  const base = `/${gvPath(def.group, def.version)}`;
  const collection = def.namespaced ? `${base}/namespaces/{namespace}/${def.plural}` : `${base}/${def.plural}`;
  const scope = def.namespaced ? ['namespace'] : [];
  const named = [...scope, 'name'];
  const served = (verbs: readonly string[]) => (op: ResourceOperation) => verbs.includes(OPERATION_NEEDS[op.action]);
  const create = { method: 'post', action: 'post', query: WRITE, body: 'object' } as const;
  if (def.ephemeral) return [{ path: collection, pathParams: scope, operations: [create] }];
  const all: { path: string; pathParams: string[]; operations: ResourceOperation[] }[] = [
    {
      path: collection,
      pathParams: scope,
      operations: [
        { method: 'get', action: 'list', query: LIST },
        { method: 'post', action: 'post', query: WRITE, body: 'object' },
        { method: 'delete', action: 'deletecollection', query: [...LIST, str('dryRun'), str('propagationPolicy')] },
      ],
    },
    {
      path: `${collection}/{name}`,
      pathParams: named,
      operations: [
        GET,
        PUT,
        { method: 'patch', action: 'patch', query: PATCH_QUERY, body: 'patch' },
        {
          method: 'delete',
          action: 'delete',
          query: [str('dryRun'), { name: 'gracePeriodSeconds', type: 'integer' }, str('propagationPolicy')],
        },
      ],
    },
  ];
  const paths: ResourcePath[] = all.map((p) => ({ ...p, operations: p.operations.filter(served(def.verbs)) }));
  for (const [sub, strategy] of Object.entries(def.subresources ?? {})) {
    if (strategy.action || strategy.connect) continue;
    const operations: ResourceOperation[] = [
      { ...GET, subresource: sub },
      { ...PUT, subresource: sub },
      { method: 'patch', action: 'patch', query: PATCH_QUERY, body: 'patch', subresource: sub },
    ];
    paths.push({
      path: `${collection}/{name}/${sub}`,
      pathParams: named,
      operations: operations.filter(served(strategy.verbs ?? ['get', 'update', 'patch'])),
    });
  }
  for (const sub of Object.keys(def.createSubresources ?? {})) {
    paths.push({
      path: `${collection}/{name}/${sub}`,
      pathParams: named,
      operations: [{ ...create, subresource: sub, kind: def.createSubresources![sub] }],
    });
  }
  // As the resource handler serves it: kinds that expire keep no ledger, a kind's own history wins.
  if (options.history && !def.expiresAfterEventTtl && !def.subresources?.history && def.verbs.includes('get')) {
    paths.push({
      path: `${collection}/{name}/history`,
      pathParams: named,
      operations: [{ method: 'get', action: 'get', query: HISTORY_QUERY, subresource: 'history', kind: OBJECT_REVISION_LIST_KIND }],
    });
  }
  return paths.filter((p) => p.operations.length > 0);
}

const OPERATION_VERBS: Record<string, string> = {
  list: 'list',
  post: 'create',
  deletecollection: 'deleteCollection',
  get: 'read',
  put: 'replace',
  patch: 'patch',
  delete: 'delete',
};

const camel = (s: string) =>
  s
    .split(/[.-]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

/**
 * The fields every operation starts with: its tags and a unique id in Kubernetes' style,
 * e.g. listCoreV1NamespacedConfigMap, replaceCoreV1NamespaceStatus, readStorageV1StorageClass.
 */
export function operationIdentity(def: ResourceDef, op: ResourceOperation): { tags: string[]; operationId: string } {
  const parts = def.group.split('.');
  const group = def.group === '' ? 'Core' : camel((parts.length > 2 ? parts.slice(0, -2) : parts).join('.'));
  const scope = def.namespaced ? 'Namespaced' : '';
  const id = `${OPERATION_VERBS[op.action]}${group}${camel(def.version)}${scope}${def.kind}${op.subresource ? camel(op.subresource) : ''}`;
  return { tags: [def.group || 'core'], operationId: id };
}

/** The group-version-kind an operation of the resource works on. */
export function operationGvk(def: ResourceDef, op: ResourceOperation, domain: ApiDomain): Json {
  if (op.kind) return { group: domain.group(op.kind.kubernetesGroup), version: op.kind.version, kind: op.kind.kind };
  return { group: def.group, version: def.version, kind: def.kind };
}

/** The schema an operation's body and answer have: the resource's, or the other kind's. */
export function operationSchema(def: ResourceDef, op: ResourceOperation): string {
  return op.kind?.schema ?? def.schema;
}
