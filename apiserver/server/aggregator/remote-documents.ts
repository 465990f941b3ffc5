/**
 * The documents the aggregator downloads from extension servers (kube-aggregator's discovery manager
 * and OpenAPI v2 aggregation controller), refreshed when an APIService changes (its availability
 * included) and every minute:
 * - discovery of each remote APIService's group version: the server's aggregated /apis when it serves
 *   one (with If-None-Match on the last ETag), else its legacy /apis/<group>/<version>; while the
 *   APIService is not Available or the download fails, the last known version marked "Stale";
 * - each extension server's /openapi/v2 (JSON, with If-None-Match), kept while its APIServices last.
 */
import type { APIService } from '../../api/generated/types.js';
import type { Logger } from '../../component-base/logs/logger.js';
import {
  AGGREGATED_DISCOVERY_KIND,
  AGGREGATED_DISCOVERY_VERSION,
  type GroupDiscovery,
  toResourceDiscovery,
  type VersionDiscovery,
} from '../../endpoints/discovery-aggregated.js';
import type { ApiResource } from '../../endpoints/discovery.js';
import { type ApiServiceCache, isAvailable } from './api-services.js';
import { type ExtensionGetDeps, extensionGet } from './extension-get.js';

export interface RemoteDocumentsDeps extends ExtensionGetDeps {
  cache: ApiServiceCache;
  logger: Logger;
  resyncMs?: number;
  timeoutMs?: number;
  /** Called when an extension server's OpenAPI v2 document changed (appeared, changed or went). */
  onOpenApiChange?: () => void;
}

export interface RemoteDocuments {
  /** The discovery of a remote APIService's group version, once it was tried. */
  discovery(group: string, version: string): VersionDiscovery | undefined;
  /** The extension servers' OpenAPI v2 documents, parsed, in the order of their services' keys. */
  openapiV2(): unknown[];
  /** Resolves when every sync started so far is done (tests). */
  idle(): Promise<void>;
  stop(): void;
}

/** client-go's Accept for the aggregated document, then the legacy one. */
const ACCEPT_AGGREGATED = `application/json;g=apidiscovery.k8s.io;v=${AGGREGATED_DISCOVERY_VERSION};as=${AGGREGATED_DISCOVERY_KIND},application/json`;
const TIMEOUT_MS = 5_000;
const RESYNC_MS = 60_000;

interface ServiceDocs {
  discoveryETag?: string;
  /** The aggregated document's versions by "<group>/<version>", when the server serves one. */
  aggregated?: Map<string, VersionDiscovery>;
  openapiETag?: string;
  openapi?: unknown;
}

function serviceKey(s: APIService): string {
  const svc = s.spec?.service;
  return `${svc?.namespace ?? ''}/${svc?.name ?? ''}:${svc?.port ?? 443}`;
}

/** Whether a Content-Type names the aggregated document (the `g`, `v` and `as` parameters, any group spelling). */
function isAggregated(contentType: string | undefined): boolean {
  const params = new Map(
    (contentType ?? '')
      .split(';')
      .slice(1)
      .map((p) => p.split('=').map((x) => x.trim()) as [string, string]),
  );
  return (
    params.get('as') === AGGREGATED_DISCOVERY_KIND &&
    params.get('v') === AGGREGATED_DISCOVERY_VERSION &&
    /^apidiscovery\./.test(params.get('g') ?? '')
  );
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isObjectOrAbsent = (v: unknown) => v === undefined || isObject(v);
const isStrings = (v: unknown) => v === undefined || (Array.isArray(v) && v.every((x) => typeof x === 'string'));

/** An extension server's version entry is served as it came only when it has the shape of one (as Go would decode it). */
function isVersionDiscovery(v: unknown): v is VersionDiscovery {
  if (!isObject(v) || typeof v.version !== 'string') return false;
  if (v.resources === undefined) return true;
  return (
    Array.isArray(v.resources) &&
    v.resources.every(
      (r) =>
        isObject(r) &&
        typeof r.resource === 'string' &&
        isStrings(r.verbs) &&
        isStrings(r.shortNames) &&
        isStrings(r.categories) &&
        (r.subresources === undefined ||
          (Array.isArray(r.subresources) && r.subresources.every((x) => isObject(x) && typeof x.subresource === 'string'))),
    )
  );
}

function isApiResource(r: unknown): r is ApiResource {
  return isObject(r) && typeof r.name === 'string' && typeof r.kind === 'string' && isStrings(r.verbs);
}

export function startRemoteDocuments(d: RemoteDocumentsDeps): RemoteDocuments {
  const versions = new Map<string, VersionDiscovery>();
  const services = new Map<string, ServiceDocs>();
  const running = new Map<string, Promise<void>>();
  const dirty = new Set<string>();
  let stopped = false;
  const timeoutMs = d.timeoutMs ?? TIMEOUT_MS;

  const fetchDiscovery = async (s: APIService, docs: ServiceDocs): Promise<VersionDiscovery> => {
    const group = s.spec?.group ?? '';
    const version = s.spec?.version ?? '';
    const headers: Record<string, string> = { accept: ACCEPT_AGGREGATED };
    if (docs.discoveryETag) headers['if-none-match'] = docs.discoveryETag;
    const answer = await extensionGet(s, '/apis', headers, d, timeoutMs);
    if (answer.status === 503) throw new Error(`service ${serviceKey(s)} answered 503`);
    if (answer.status === 304 && docs.aggregated) {
      return { version, ...docs.aggregated.get(`${group}/${version}`), freshness: 'Current' };
    }
    if (answer.status === 200 && isAggregated(answer.headers['content-type'])) {
      const list = JSON.parse(answer.body.toString('utf8')) as { items?: GroupDiscovery[] };
      if (!Array.isArray(list?.items ?? [])) throw new Error('the aggregated discovery document has no list of items');
      docs.aggregated = new Map();
      for (const g of list.items ?? []) {
        if (!Array.isArray(g?.versions)) throw new Error('a group of the aggregated discovery document has no list of versions');
        for (const v of g.versions) {
          if (!isVersionDiscovery(v))
            throw new Error(`group ${JSON.stringify(g.metadata?.name)}: a version that is no APIVersionDiscovery`);
          docs.aggregated.set(`${g.metadata?.name ?? ''}/${v.version}`, v);
        }
      }
      docs.discoveryETag = typeof answer.headers.etag === 'string' ? answer.headers.etag : undefined;
      return { version, ...docs.aggregated.get(`${group}/${version}`), freshness: 'Current' };
    }
    docs.aggregated = undefined;
    docs.discoveryETag = undefined;
    const path = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
    const legacy = await extensionGet(s, path, { accept: 'application/json' }, d, timeoutMs);
    if (legacy.status !== 200) throw new Error(`failed to download legacy discovery for ${path}: ${legacy.status}`);
    const list = JSON.parse(legacy.body.toString('utf8')) as { resources?: ApiResource[] };
    if (!Array.isArray(list?.resources ?? []) || !(list.resources ?? []).every(isApiResource)) {
      throw new Error(`${path}: no APIResourceList`);
    }
    return { version, resources: toResourceDiscovery(list.resources ?? []), freshness: 'Current' };
  };

  const fetchOpenApi = async (s: APIService, docs: ServiceDocs): Promise<void> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (docs.openapiETag) headers['if-none-match'] = docs.openapiETag;
    const answer = await extensionGet(s, '/openapi/v2', headers, d, timeoutMs);
    if (answer.status === 304 && docs.openapi !== undefined) return;
    if (answer.status !== 200) {
      // A server without an OpenAPI v2 document (404) has nothing to merge.
      if (answer.status === 404 && docs.openapi !== undefined) {
        docs.openapi = undefined;
        d.onOpenApiChange?.();
      }
      return;
    }
    const doc: unknown = JSON.parse(answer.body.toString('utf8'));
    // Anything else keeps the last good document (the error is logged by the caller).
    if (!isObject(doc) || doc.swagger !== '2.0' || !isObjectOrAbsent(doc.paths) || !isObjectOrAbsent(doc.definitions)) {
      throw new Error('/openapi/v2 answered no swagger 2.0 document');
    }
    const etag = typeof answer.headers.etag === 'string' ? answer.headers.etag : undefined;
    const changed = JSON.stringify(doc) !== JSON.stringify(docs.openapi);
    docs.openapi = doc;
    docs.openapiETag = etag;
    if (changed) d.onOpenApiChange?.();
  };

  const forgetUnusedServices = () => {
    const used = new Set(
      d.cache
        .all()
        .filter((s) => s.spec?.service)
        .map(serviceKey),
    );
    for (const key of [...services.keys()]) {
      if (used.has(key)) continue;
      const had = services.get(key)?.openapi !== undefined;
      services.delete(key);
      if (had) d.onOpenApiChange?.();
    }
  };

  const syncOnce = async (name: string): Promise<void> => {
    const s = d.cache.get(name);
    if (!s?.spec?.service) {
      versions.delete(name);
      forgetUnusedServices();
      return;
    }
    const version = s.spec.version ?? '';
    const stale = (): VersionDiscovery => ({ ...(versions.get(name) ?? { version }), freshness: 'Stale' });
    if (!isAvailable(s)) {
      versions.set(name, stale());
      return;
    }
    const key = serviceKey(s);
    let docs = services.get(key);
    if (!docs) services.set(key, (docs = {}));
    try {
      versions.set(name, await fetchDiscovery(s, docs));
    } catch (err) {
      d.logger.verbose('downloading discovery from an extension server failed', { name, err: String(err) });
      versions.set(name, stale());
    }
    try {
      await fetchOpenApi(s, docs);
    } catch (err) {
      d.logger.verbose('downloading OpenAPI v2 from an extension server failed', { name, err: String(err) });
    }
  };

  const sync = (name: string): void => {
    if (stopped) return;
    if (running.has(name)) {
      dirty.add(name);
      return;
    }
    const p = syncOnce(name)
      .catch((err) => {
        d.logger.verbose('extension server documents sync failed', { name, err: String(err) });
      })
      .finally(() => {
        running.delete(name);
        if (dirty.delete(name)) sync(name);
      });
    running.set(name, p);
  };
  d.cache.onChange(sync);
  const resync = setInterval(() => {
    for (const s of d.cache.all()) if (s.spec?.service) sync(s.metadata.name ?? '');
  }, d.resyncMs ?? RESYNC_MS);
  resync.unref();

  return {
    discovery(group, version) {
      const s = d.cache.remote(group, version);
      if (!s) return undefined;
      const name = s.metadata.name ?? '';
      let v = versions.get(name);
      // Not tried yet: nothing known, kept as one object (the served document is cached by its parts).
      if (!v) versions.set(name, (v = { version, freshness: 'Stale' }));
      return v;
    },
    openapiV2: () =>
      [...services.keys()]
        .sort()
        .map((k) => services.get(k)?.openapi)
        .filter((x) => x !== undefined),
    async idle() {
      while (running.size > 0) await Promise.all(running.values());
    },
    stop() {
      stopped = true;
      clearInterval(resync);
    },
  };
}
