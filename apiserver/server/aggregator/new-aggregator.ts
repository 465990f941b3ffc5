/**
 * The aggregation layer of one API server, wired: the APIService informer and cache, the proxy to
 * extension servers (front-proxy certificate: the flags' files, or one generated under --cert-dir),
 * the availability controller, the local APIServices' registration, the merged discovery groups and
 * the authentication ConfigMap extension servers read.
 */
import { readFileSync } from 'node:fs';
import type { APIService, APIServiceCondition, Endpoints, Service } from '../../api/generated/types.js';
import type { KindObject } from '../../api/object.js';
import { asApiObject, asKind, deepCopy } from '../../api/object.js';
import type { GroupVersions, ResourceTable } from '../../api/resource-table.js';
import type { ResourceDef } from '../../api/resource.js';
import * as status from '../../api/status.js';
import { ensureCA, ensureClientCert } from '../../component-base/certs/certs.js';
import type { Logger } from '../../component-base/logs/logger.js';
import type { IdentityHeaderNames } from '../../frontdoor/identity.js';
import type { GenericStore } from '../../registry/generic/store.js';
import { SYSTEM_USER } from '../bootstrap-namespaces.js';
import type { Handler } from '../filters/handler.js';
import type { ServerOptions } from '../options.js';
import { startStoreInformer } from '../store-informer.js';
import { isAvailable, newApiServiceCache } from './api-services.js';
import { setCondition, startAvailableController } from './available-controller.js';
import { startLocalApiServices } from './local-api-services.js';
import { mergedGroups } from './merged-groups.js';
import { AGGREGATOR_GROUP, builtInPriority, CUSTOM_RESOURCE_PRIORITY } from './priorities.js';
import { newAggregatorProxy } from './proxy.js';
import type { ServiceReader } from './resolve-endpoint.js';
import { withAggregation } from './with-aggregation.js';
import { startRemoteDocuments } from './remote-documents.js';
import type { VersionDiscovery } from '../../endpoints/discovery-aggregated.js';
import type { OpenApiV2 } from '../../endpoints/openapi-v2.js';
import { newMergedOpenApiV2 } from '../../endpoints/openapi-v2-merge.js';
import { AUTHENTICATION_CONFIGMAP, type AuthenticationFacts, authenticationConfigMap } from './authentication-configmap.js';

export interface Aggregator {
  filter(next: Handler): Handler;
  /** The groups of /apis and /apis/<group>: the served ones merged with the APIServices'. */
  groups(local: readonly GroupVersions[]): GroupVersions[];
  /** The OpenAPI v3 index's paths with each available remote APIService's document (served by its extension server). */
  openapiV3Paths(local: Record<string, unknown>): Record<string, unknown>;
  /** A remote APIService's group version in the aggregated discovery document, as its extension server serves it. */
  remoteDiscovery(group: string, version: string): VersionDiscovery | undefined;
  /** The served OpenAPI v2 document merged with the extension servers' ones. */
  openapiV2(local: OpenApiV2): OpenApiV2;
  stop(): void;
}

export interface AggregatorDeps {
  options: Pick<ServerOptions, 'aggregator' | 'certDir' | 'requestHeader' | 'requestTimeoutMs' | 'clientCAFile'>;
  /** The served table. */
  table: ResourceTable;
  /** Every declared resource (the stores' keys): APIServices are kept even when their group is not served. */
  declared: ResourceTable;
  /** The built-in kinds' served groups. */
  builtInGroups: ReadonlySet<string>;
  stores: Map<ResourceDef, GenericStore>;
  /** Resolves once the CRDs stored at start are served. */
  crdSynced: Promise<void>;
  /** Registers a readyz post-start hook; its function marks it done. */
  addPostStartHook(name: string): () => void;
  logger: Logger;
}

/** The front-proxy client certificate: the flags' files, or <cert-dir>/front-proxy-client.crt signed by front-proxy-ca.crt. */
export function frontProxyClient(options: AggregatorDeps['options']): { cert: string; key: string; ca?: string } {
  const { proxyClientCertFile, proxyClientKeyFile } = options.aggregator;
  if (proxyClientCertFile && proxyClientKeyFile) {
    return { cert: readFileSync(proxyClientCertFile, 'utf8'), key: readFileSync(proxyClientKeyFile, 'utf8') };
  }
  const ca = ensureCA(options.certDir, 'front-proxy-ca');
  const pair = ensureClientCert(options.certDir, 'front-proxy-client', ca, { cn: FRONT_PROXY_CLIENT_CN });
  return { cert: pair.certPem, key: pair.keyPem, ca: ca.certPem };
}

/** The CN of the generated front-proxy client certificate (kubeadm's). */
export const FRONT_PROXY_CLIENT_CN = 'front-proxy-client';

/** What extension servers are told to trust: the --requestheader-* flags, else the generated front-proxy CA. */
function authenticationFacts(
  options: AggregatorDeps['options'],
  names: IdentityHeaderNames,
  generatedCA?: string,
): AuthenticationFacts | undefined {
  const clientCA = options.clientCAFile ? readFileSync(options.clientCAFile, 'utf8') : undefined;
  const rh = options.requestHeader;
  if (rh) return { clientCA, requestHeaderCA: readFileSync(rh.clientCAFile, 'utf8'), allowedNames: rh.allowedNames, names };
  return generatedCA ? { clientCA, requestHeaderCA: generatedCA, allowedNames: [FRONT_PROXY_CLIENT_CN], names } : undefined;
}

/** The identity header names extension servers read: the first of each --requestheader-*-headers, or Kubernetes' usual ones. */
export function headerNames(requestHeader: ServerOptions['requestHeader']): IdentityHeaderNames {
  return {
    usernameHeader: requestHeader?.usernameHeaders[0] ?? 'X-Remote-User',
    groupHeader: requestHeader?.groupHeaders[0] ?? 'X-Remote-Group',
    extraHeaderPrefix: requestHeader?.extraHeaderPrefixes[0] ?? 'X-Remote-Extra-',
  };
}

export function newAggregator(d: AggregatorDeps): Aggregator {
  const { table, stores, logger } = d;
  const domain = table.domain;
  const store = (group: string, version: string, plural: string) => stores.get(d.declared.lookup(group, version, plural)!)!;
  const apiServicesDef = d.declared.lookup(domain.group(AGGREGATOR_GROUP), 'v1', 'apiservices');
  // A server declaring no APIService kind (tests serving a few kinds) has no aggregation layer.
  if (!apiServicesDef) {
    return {
      filter: (next) => next,
      groups: (local) => [...local],
      openapiV3Paths: (local) => local,
      remoteDiscovery: () => undefined,
      openapiV2: (local) => local,
      stop() {},
    };
  }
  const apiServices = stores.get(apiServicesDef)!;
  const ctx = (namespace = '') => ({ namespace, user: SYSTEM_USER, dryRun: false, now: new Date() });
  const cachedGet = async <T extends KindObject>(s: GenericStore, namespace: string, name: string): Promise<T | undefined> => {
    try {
      return asKind<T>(await s.get(ctx(namespace), name, { resourceVersion: '0' }));
    } catch (err) {
      if (status.isApiError(err, 'NotFound')) return undefined;
      throw err;
    }
  };
  const reader: ServiceReader = {
    service: (ns, name) => cachedGet<Service>(store('', 'v1', 'services'), ns, name),
    endpoints: (ns, name) => cachedGet<Endpoints>(store('', 'v1', 'endpoints'), ns, name),
  };
  const names = headerNames(d.options.requestHeader);
  const client = frontProxyClient(d.options);
  const proxy = newAggregatorProxy({
    clientCert: client.cert,
    clientKey: client.key,
    headerNames: names,
    reader,
    endpointRouting: d.options.aggregator.enableAggregatorRouting,
    requestTimeoutMs: d.options.requestTimeoutMs,
  });
  const cache = newApiServiceCache();
  const informer = startStoreInformer(apiServices, cache, { logger });
  const writeCondition = async (name: string, condition: APIServiceCondition) => {
    await apiServices.update(
      ctx(),
      name,
      (old) => {
        if (!old) throw status.notFound(apiServices.groupResource, name);
        const next = deepCopy(asKind<APIService>(old));
        setCondition(next, condition);
        return asApiObject(next);
      },
      { subresource: 'status' },
    );
  };
  const available = startAvailableController({
    cache,
    reader,
    endpointRouting: d.options.aggregator.enableAggregatorRouting,
    tls: proxy.tls,
    headerNames: names,
    writeCondition,
    logger,
  });
  let openapiGeneration = 0;
  const documents = startRemoteDocuments({
    cache,
    reader,
    endpointRouting: d.options.aggregator.enableAggregatorRouting,
    tls: proxy.tls,
    headerNames: names,
    logger,
    onOpenApiChange: () => void openapiGeneration++,
  });
  let local: { stop(): void } | undefined;
  let stopped = false;
  let publishRetry: NodeJS.Timeout | undefined;
  const facts = authenticationFacts(d.options, names, client.ca);
  // Ready only once extension servers can read it (and nothing writes it after a client saw ready), as kube-apiserver's hook.
  const published = d.addPostStartHook('start-cluster-authentication-info-controller');
  const publish = async (): Promise<void> => {
    if (!facts) published();
    if (!facts || stopped) return;
    const desired = authenticationConfigMap(domain.systemNamespace, facts);
    try {
      await store('', 'v1', 'configmaps').update(
        ctx(domain.systemNamespace),
        AUTHENTICATION_CONFIGMAP,
        (old) => {
          if (old && JSON.stringify(old.data) === JSON.stringify(desired.data)) return old;
          return old ? { ...old, data: desired.data } : desired;
        },
        { allowCreate: true },
      );
      published();
    } catch (err) {
      // The system namespace is made by the bootstrap, which may not have run yet.
      logger.verbose("publishing the extension servers' authentication ConfigMap failed, retrying", { err: String(err) });
      publishRetry = setTimeout(() => void publish(), 1000);
      publishRetry.unref();
    }
  };
  void publish();
  void informer.synced.then(() => {
    if (stopped) return;
    local = startLocalApiServices({
      table,
      builtInGroups: d.builtInGroups,
      cache,
      create: async (obj) => {
        try {
          await apiServices.create(ctx(), obj);
        } catch (err) {
          if (!status.isApiError(err, 'AlreadyExists')) throw err;
        }
      },
      delete: async (name) => {
        try {
          await apiServices.delete(ctx(), name);
        } catch (err) {
          if (!status.isApiError(err, 'NotFound')) throw err;
        }
      },
      synced: d.crdSynced,
      logger,
    });
  });
  const priorityOf = (group: string, version: string) => {
    if (!d.builtInGroups.has(group)) return CUSTOM_RESOURCE_PRIORITY;
    return builtInPriority(table.all().find((x) => x.group === group)?.kubernetesGroup ?? group, version);
  };
  return {
    filter: (next) => withAggregation(next, cache, proxy),
    groups: (localGroups) => mergedGroups(localGroups, cache.all(), priorityOf, domain.group(AGGREGATOR_GROUP)),
    openapiV3Paths(localPaths) {
      const paths = { ...localPaths };
      for (const s of cache.all()) {
        if (!s.spec?.service || !isAvailable(s)) continue;
        const path = `apis/${s.spec.group}/${s.spec.version}`;
        paths[path] = { serverRelativeURL: `/openapi/v3/${path}` };
      }
      return paths;
    },
    remoteDiscovery: documents.discovery,
    openapiV2: (localV2) =>
      newMergedOpenApiV2(
        localV2,
        documents.openapiV2,
        () => openapiGeneration,
        (index, reason) => logger.info("an extension server's OpenAPI v2 document is left out of /openapi/v2", { index, reason }),
      ),
    stop() {
      stopped = true;
      documents.stop();
      clearTimeout(publishRetry);
      local?.stop();
      available.stop();
      informer.stop();
      proxy.close();
    },
  };
}
