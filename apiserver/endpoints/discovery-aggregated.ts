/**
 * Aggregated discovery (apidiscovery v2beta1, served by Kubernetes 1.28 by default): /api and /apis
 * answer ONE APIGroupDiscoveryList, every group's versions with their resources, when the Accept header
 * asks for it (`application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList`); any other
 * Accept gets the legacy documents. The answer carries an ETag (the SHA-512 of the list), a 304 for
 * If-None-Match, `Vary: Accept` and `Cache-Control: public`, as kube-apiserver's.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GroupVersions, ResourceTable } from '../api/resource-table.js';
import type { ResourceDef } from '../api/resource.js';
import * as status from '../api/status.js';
import { type ApiResource, apiResourceList } from './discovery.js';
import { parseAccept } from './negotiation.js';
import { documentETag } from './document-etag.js';

export const AGGREGATED_DISCOVERY_VERSION = 'v2beta1';
export const AGGREGATED_DISCOVERY_KIND = 'APIGroupDiscoveryList';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface SubresourceDiscovery {
  subresource: string;
  responseKind?: GroupVersionKind;
  acceptedTypes?: GroupVersionKind[];
  verbs: string[];
}

export interface ResourceDiscovery {
  resource: string;
  responseKind?: GroupVersionKind;
  scope: 'Cluster' | 'Namespaced';
  singularResource: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: SubresourceDiscovery[];
}

export interface VersionDiscovery {
  version: string;
  resources?: ResourceDiscovery[];
  /** "Current", or "Stale" when an extension server's discovery could not be fetched (the last known is kept). */
  freshness?: 'Current' | 'Stale';
}

export interface GroupDiscovery {
  metadata: { name?: string; creationTimestamp: null };
  versions: VersionDiscovery[];
}

/**
 * A legacy APIResourceList's resources in the aggregated shape, as Kubernetes converts them: each
 * resource with its kind (group and version as the legacy entry names them), its subresources under
 * it (a subresource without its parent gets an empty parent); a subresource whose scope differs from
 * its parent's is an error.
 */
export function toResourceDiscovery(list: readonly ApiResource[]): ResourceDiscovery[] {
  const out: ResourceDiscovery[] = [];
  const parents = new Map<string, ResourceDiscovery>();
  const scopeOf = (r: ApiResource) => (r.namespaced ? 'Namespaced' : 'Cluster');
  for (const r of list) {
    if (r.name.includes('/')) continue;
    const d: ResourceDiscovery = {
      resource: r.name,
      responseKind: { group: r.group ?? '', version: r.version ?? '', kind: r.kind },
      scope: scopeOf(r),
      singularResource: r.singularName ?? '',
      verbs: [...(r.verbs ?? [])],
    };
    if (r.shortNames?.length) d.shortNames = [...r.shortNames];
    if (r.categories?.length) d.categories = [...r.categories];
    out.push(d);
    parents.set(r.name, d);
  }
  for (const r of list) {
    const slash = r.name.indexOf('/');
    if (slash < 0) continue;
    const parentName = r.name.slice(0, slash);
    let parent = parents.get(parentName);
    if (!parent) {
      parent = {
        resource: parentName,
        responseKind: { group: '', version: '', kind: '' },
        scope: scopeOf(r),
        singularResource: '',
        verbs: [],
      };
      out.push(parent);
      parents.set(parentName, parent);
    }
    if (parent.scope !== scopeOf(r)) throw new Error(`parent ${parentName} and subresource ${r.name} scopes differ`);
    (parent.subresources ??= []).push({
      subresource: r.name.slice(slash + 1),
      responseKind: r.kind ? { group: r.group ?? '', version: r.version ?? '', kind: r.kind } : { group: '', version: '', kind: '' },
      verbs: [...(r.verbs ?? [])],
    });
  }
  return out;
}

/**
 * One served group version in the aggregated shape. Built-in resources name their kind only (as
 * kube-apiserver's installer); custom resources, and their status subresource, their full group,
 * version and kind (as apiextensions-apiserver's discovery controller).
 */
export function localVersionDiscovery(table: ResourceTable, group: string, version: string): VersionDiscovery | undefined {
  const list = apiResourceList(table, group, version);
  if (!list) return undefined;
  const resources = toResourceDiscovery(list.resources);
  const custom = new Set(
    table
      .inGroupVersion(group, version)
      .filter((d) => d.unstructured)
      .map((d) => d.plural),
  );
  for (const r of resources) {
    if (!custom.has(r.resource)) continue;
    for (const k of [r.responseKind, ...(r.subresources ?? []).map((s) => s.responseKind)]) {
      if (k && k.group === '' && k.version === '') Object.assign(k, { group, version });
    }
  }
  return { version, resources, freshness: 'Current' };
}

/** The document: the groups in the order given, each version from `version()` (left out when it has nothing). */
export function groupDiscoveryList(
  groups: readonly GroupVersions[],
  version: (group: string, version: string) => VersionDiscovery | undefined,
  apiVersion: string,
) {
  const items: GroupDiscovery[] = [];
  for (const g of groups) {
    const versions = g.versions.map((v) => version(g.group, v)).filter((v): v is VersionDiscovery => v !== undefined);
    if (versions.length === 0) continue;
    items.push({ metadata: g.group === '' ? { creationTimestamp: null } : { name: g.group, creationTimestamp: null }, versions });
  }
  return { kind: AGGREGATED_DISCOVERY_KIND, apiVersion, metadata: {}, items };
}

/**
 * The apidiscovery group to answer in when the Accept header's first range we can serve asks for the
 * aggregated document (in one of `groups`: the domain's and Kubernetes' own name), else undefined (the
 * legacy document), as Kubernetes negotiates it: a range asking for another view or version is skipped,
 * a plain range (`application/json`, `*\/*`) means the legacy document. JSON only (no protobuf form).
 */
export function aggregatedDiscoveryGroup(accept: string | undefined, groups: readonly string[]): string | undefined {
  for (const r of parseAccept(accept)) {
    const json = r.type === '*' || (r.type === 'application' && (r.subtype === '*' || r.subtype === 'json'));
    if (!r.params.as) {
      if (json || r.type === 'application') return undefined;
      continue;
    }
    if (
      json &&
      r.params.as === AGGREGATED_DISCOVERY_KIND &&
      r.params.v === AGGREGATED_DISCOVERY_VERSION &&
      groups.includes(r.params.g ?? '')
    ) {
      return r.params.g;
    }
  }
  return undefined;
}

export interface DiscoveryBody {
  body: string;
  etag: string;
}

/**
 * The documents as served, built again only when something in them changed: a group version's local
 * part when its resource definitions are other objects (a CRD changed), the text and its ETag when a
 * group, a version or a version's entry (local or remote) is another object than last time.
 */
export function newAggregatedDiscovery(
  table: ResourceTable,
  remote: (group: string, version: string) => VersionDiscovery | undefined = () => undefined,
) {
  const local = new Map<string, { defs: readonly ResourceDef[]; version: VersionDiscovery | undefined }>();
  const localVersion = (group: string, version: string): VersionDiscovery | undefined => {
    const defs = table.inGroupVersion(group, version);
    const key = `${group}/${version}`;
    const hit = local.get(key);
    if (hit && hit.defs.length === defs.length && hit.defs.every((d, i) => d === defs[i])) return hit.version;
    const v = localVersionDiscovery(table, group, version);
    local.set(key, { defs, version: v });
    return v;
  };
  const last = new Map<string, { parts: unknown[]; served: DiscoveryBody }>();
  return {
    /** The document of `groups` in `apiVersion`; `key` names the endpoint ("/api", "/apis"). */
    document(key: string, groups: readonly GroupVersions[], apiVersion: string): DiscoveryBody {
      const parts: unknown[] = [];
      for (const g of groups) {
        parts.push(g.group);
        for (const v of g.versions) parts.push(remote(g.group, v) ?? localVersion(g.group, v));
      }
      const cacheKey = `${key} ${apiVersion}`;
      const hit = last.get(cacheKey);
      if (hit && hit.parts.length === parts.length && hit.parts.every((p, i) => p === parts[i])) return hit.served;
      const body = JSON.stringify(groupDiscoveryList(groups, (g, v) => remote(g, v) ?? localVersion(g, v), apiVersion));
      const served = { body, etag: documentETag(body) };
      last.set(cacheKey, { parts, served });
      return served;
    },
  };
}

/** Answers a document in `group`'s apidiscovery version, or 304 when If-None-Match names its ETag. */
export function serveAggregatedDiscovery(req: IncomingMessage, res: ServerResponse, group: string, doc: DiscoveryBody): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') throw status.methodNotAllowed();
  res.setHeader('ETag', doc.etag);
  res.setHeader('Vary', 'Accept');
  res.setHeader('Cache-Control', 'public');
  if (req.headers['if-none-match'] === doc.etag) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.setHeader('Content-Type', `application/json;g=${group};v=${AGGREGATED_DISCOVERY_VERSION};as=${AGGREGATED_DISCOVERY_KIND}`);
  res.setHeader('Content-Length', Buffer.byteLength(doc.body));
  res.statusCode = 200;
  res.end(req.method === 'HEAD' ? undefined : doc.body);
}
