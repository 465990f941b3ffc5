/**
 * One orch-apiserver: storage, the resource table and its stores, admission, authentication,
 * authorization, the handler chain on HTTPS, health checks, compaction, and graceful shutdown.
 */
import { WatchesPerUser } from '../endpoints/handlers/watches-per-user.js';
import { createServer, type Server } from 'node:https';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Storage } from '../storage/interfaces.js';
import { newEtcdStorage } from '../storage/etcd3/index.js';
import { newSqliteStorage } from '../storage/sqlite/index.js';
import { startCompactor } from '../storage/compactor.js';
import { newApiDomain } from '../api/domain.js';
import { newResourceTable, restrictTable } from '../api/resource-table.js';
import { servedResources } from '../api/runtime-config.js';
import { allResources } from '../registry/resources/index.js';
import type { KindDeclaration } from '../registry/generic/kind-declaration.js';
import { definitions } from '../api/generated/definitions.js';
import { newProtobufCodec } from '../runtime/protobuf/codec.js';
import { GenericStore } from '../registry/generic/store.js';
import type { ResourceDef } from '../api/resource.js';
import { newStores } from '../registry/generic/new-stores.js';
import { newStoreHookEnv } from '../registry/generic/store-hooks.js';
import { newServiceAllocators, SERVICE_ALLOCATORS } from '../registry/core/service/allocator/service-allocators.js';
import { COMPONENT_PROBES } from '../registry/core/componentstatus/components.js';
import { SERVICE_ENDPOINTS_CLEANUP } from '../registry/core/service/endpoints-cleanup.js';
import { newEndpointsCleanup } from './endpoints-cleanup.js';
import { localComponents, newComponentProbes } from './component-probes.js';
import { newUpgradeListener } from './upgrade-listener.js';
import { ensureDefaultService } from '../registry/core/service/default-service.js';
import { adoptServiceRanges } from '../registry/core/service/adopt-ranges.js';
import { Cacher } from '../storage/cacher/cacher.js';
import { newAdmissionFromOptions } from '../admission/new-admission.js';
import { newAdmissionAccess } from './admission-access.js';
import { newServerAuthentication } from './authentication.js';
import { newObjectGetter } from './object-getter.js';
import { newSecretLabeler } from './secret-labeler.js';
import { newAuthorizer } from '../authorization/new-authorizer.js';
import { PolicyCache } from '../authorization/rbac/policy-cache.js';
import { NodeGraph } from '../authorization/node/graph.js';
import { parsePolicyFile } from '../authorization/abac.js';
import { nodeRules } from '../authorization/rbac/bootstrap/cluster-roles.js';
import { policyGroups } from '../authorization/rbac/bootstrap/groups.js';
import { startNodeGraphInformers } from './node-graph-informers.js';
import { RuleResolver } from '../authorization/rbac/rule-resolver.js';
import { EscalationCheck } from '../authorization/rbac/escalation.js';
import { newRbacEscalation } from '../admission/plugins/rbac-escalation.js';
import { startRbacInformers } from './rbac-informers.js';
import type { ServerOptions } from './options.js';
import { newLogger, type Logger } from '../component-base/logs/logger.js';
import { ensureCA, ensureServingCert, defaultServingHosts } from '../component-base/certs/certs.js';
import { newHealthChecks } from '../component-base/health/health-checks.js';
import { newInFlight } from './filters/with-in-flight-tracking.js';
import { newMaxInFlightLimit } from './filters/with-max-in-flight-limit.js';
import { instrumentStorage } from '../storage/instrumented-storage.js';
import { newStorageMetricSources } from './storage-metrics.js';
import { newServerAudit } from './audit.js';
import { newMetrics } from './metrics.js';
import { buildHandlerChain, serverClasses } from './chain.js';
import { newOpenApiSpecs } from '../endpoints/openapi-specs.js';
import type { Schema } from '../api/schema.js';
import { startCustomResources } from './custom-resources.js';
import { newConversionWebhook } from './conversion-webhook.js';
import { ensureSystemNamespaces, SYSTEM_USER } from './bootstrap-namespaces.js';
import { reconcileDefaultPolicy } from './bootstrap-rbac.js';
import { newReviewKinds } from './review-kinds.js';
import { ensureSystemPriorityClasses } from './bootstrap-priority-classes.js';
import { ensureFlowControlBootstrap } from './bootstrap-flowcontrol.js';

export interface RunningServer {
  port: number;
  close(): Promise<void>;
}

/** The store the options name: etcd, or the embedded SQLite file in the data dir. */
export function newStorage(options: ServerOptions, logger: ReturnType<typeof newLogger>): Storage {
  if (options.storageBackend === 'etcd3') return newEtcdStorage({ endpoints: options.etcdServers, logger });
  mkdirSync(options.dataDir, { recursive: true });
  return newSqliteStorage({ path: join(options.dataDir, 'state.db') });
}

/** The serving certificate: the given files, or one generated (once) under --cert-dir. */
export function servingCert(options: ServerOptions): { cert: string; key: string } {
  if (options.tlsCertFile && options.tlsPrivateKeyFile) {
    return { cert: readFileSync(options.tlsCertFile, 'utf8'), key: readFileSync(options.tlsPrivateKeyFile, 'utf8') };
  }
  const ca = ensureCA(options.certDir);
  const pair = ensureServingCert(options.certDir, ca, defaultServingHosts());
  return { cert: pair.certPem, key: pair.keyPem };
}

async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms}ms`)), ms)));
  try {
    return await Promise.race([p, t]);
  } finally {
    clearTimeout(timer);
  }
}

/** What a worker process (--workers) gets from its supervisor instead of making it itself. */
export interface WorkerEnvironment {
  /** The store (on the embedded store: the supervisor's, which owns the file). */
  storage?: Storage;
  /** /metrics: every worker's metrics, summed by the supervisor. */
  clusterMetrics?: () => Promise<string>;
  /**
   * Accept connections only once the authorizers' informers and the served CRDs have synced. Workers
   * share one port with no load balancer reading /readyz in front of them: a worker restarted next to
   * a serving one would otherwise answer its share of the requests with an empty RBAC cache (403) or
   * without the custom resources (404).
   */
  serveOnceSynced?: boolean;
  /**
   * Serves `server` on connections handed over by the supervisor instead of listening itself;
   * resolves with the port the supervisor listens on (server/workers.ts).
   */
  serve?: (server: Server) => Promise<number>;
}

/** How long a worker waits for its informers before it serves anyway (its /readyz then says what is missing). */
const SERVE_SYNC_TIMEOUT_MS = 60_000;

/**
 * Runs the API server; `logger` defaults to JSON lines on stderr at the level of --v (tests pass their
 * own); a worker process passes what its supervisor provides; `resources` defaults to every built-in
 * kind (tests may declare more, e.g. a deprecated version).
 */
export async function runServer(
  options: ServerOptions,
  logger: Logger = newLogger(options),
  worker: WorkerEnvironment = {},
  resources: readonly KindDeclaration[] = allResources,
): Promise<RunningServer> {
  const domain = newApiDomain(options.apiDomain);
  for (const warning of options.featureGateWarnings) logger.warn(warning);
  // The metrics come first: storage reports to them; what they read of the server exists once it is wired.
  let stores: Map<ResourceDef, GenericStore> | undefined;
  const storageSources = newStorageMetricSources(options.etcdPrefix, () => stores!);
  const inFlightLimit = newMaxInFlightLimit({ readOnly: options.maxRequestsInflight, mutating: options.maxMutatingRequestsInflight });
  const metrics = newMetrics({
    showHiddenForVersion: options.showHiddenMetricsForVersion,
    served: (info) => served.lookup(info.apiGroup, info.apiVersion, info.resource) !== undefined,
    inFlight: inFlightLimit.watermark,
    storedObjects: () => storageSources.count(storage),
    clusterMetrics: worker.clusterMetrics,
  });
  const storage = instrumentStorage(worker.storage ?? newStorage(options, logger), metrics.storage(storageSources.typeOf));
  // --watch-cache=false or a zero --default-watch-cache-size: every read goes to the store.
  const cacher =
    options.watchCache && options.defaultWatchCacheSize > 0
      ? new Cacher({
          storage,
          prefix: options.etcdPrefix,
          windowSize: options.defaultWatchCacheSize,
          consistentReads: options.featureGates.enabled('ConsistentListFromCache'),
          logger,
        })
      : undefined;
  const compactor = startCompactor(storage, {
    intervalMs: options.etcdCompactionIntervalMs,
    retentionMs: options.historyRetentionMs,
    maxRevisions: options.historyRetentionMaxRevisions,
    logger,
  });
  const table = newResourceTable(domain, resources);
  // Every declared resource has its store (the server's own bootstrap and admission use them); only these are served.
  const served = restrictTable(table, servedResources(table.all(), options.runtimeConfig));

  const namespaceDef = table.lookup('', 'v1', 'namespaces')!;
  // RBAC decides from memory: the four RBAC kinds kept by their stores' watches (started below).
  const rbacGroup = domain.group('rbac.authorization.k8s.io');
  const policy = new PolicyCache();
  const graph = new NodeGraph();
  const authorization = newAuthorizer(options.authorizationModes, {
    rbac: policy,
    rbacGroup,
    node: {
      graph,
      nodeRules: nodeRules(policyGroups(domain)),
      storageGroup: domain.group('storage.k8s.io'),
      coordinationGroup: domain.group('coordination.k8s.io'),
      nodeLeaseNamespace: domain.nodeLeaseNamespace,
    },
    abacPolicies: options.authorizationPolicyFile
      ? parsePolicyFile(readFileSync(options.authorizationPolicyFile, 'utf8'), domain, options.authorizationPolicyFile)
      : undefined,
    webhook: options.authorizationWebhookConfigFile
      ? {
          configFile: options.authorizationWebhookConfigFile,
          version: options.authorizationWebhookVersion,
          authorizedTtlMs: options.authorizationWebhookCacheAuthorizedTtlMs,
          unauthorizedTtlMs: options.authorizationWebhookCacheUnauthorizedTtlMs,
        }
      : undefined,
  });
  const escalation = new EscalationCheck(authorization.authorizer, new RuleResolver(policy, rbacGroup), rbacGroup);
  // Custom resources add their schemas to the generated ones at run time.
  const defs: Record<string, Schema> = { ...definitions };
  // Admission plugins read and write other objects through the stores, which exist once admission does.
  const access = newAdmissionAccess(table, domain, () => stores!);
  const authorizer = authorization.authorizer;
  // RBAC's escalation check runs before the configurable plugins, as Kubernetes runs it in the RBAC strategies.
  const admission = newAdmissionFromOptions(
    options.admission,
    {
      domain,
      reader: access.reader,
      writer: access.writer,
      authorizer,
      flags: options.admissionFlags,
      watch: access.watch,
      equivalents: access.equivalents,
      metrics: metrics.admission,
      resourcesOfKind: (group, kind) => table.all().filter((d) => d.group === group && d.kind === kind && !d.conversion),
      definitions: defs,
    },
    [newRbacEscalation(rbacGroup, (write) => escalation.refusal(write))],
  );
  const serviceNetwork = { clusterIPRanges: options.serviceClusterIPRanges, nodePortRange: options.serviceNodePortRange };
  const serviceAllocators = newServiceAllocators(storage, options.etcdPrefix, serviceNetwork, logger);
  const hookEnv = newStoreHookEnv([
    { dependency: SERVICE_ALLOCATORS, value: serviceAllocators },
    { dependency: COMPONENT_PROBES, value: newComponentProbes(storage, localComponents(options.controllerManagerPort)) },
    { dependency: SERVICE_ENDPOINTS_CLEANUP, value: newEndpointsCleanup(() => stores?.get(table.lookup('', 'v1', 'endpoints')!)) },
  ]);
  // Authenticators read ServiceAccounts, Secrets and Pods through the stores; the stores serve what they answer.
  const authentication = newServerAuthentication(
    options,
    domain,
    newObjectGetter(table, () => stores!),
    logger,
    newSecretLabeler(table, () => stores!, logger),
  );
  const answers = new Map([
    ...authentication.answers,
    ...newReviewKinds({ ...authorization, group: domain.group('authorization.k8s.io') }),
  ]);
  const storeConfig = {
    storage,
    storagePrefix: options.etcdPrefix,
    domain,
    admission,
    cacher,
    eventTtlSeconds: Math.ceil(options.eventTtlMs / 1000),
    ledger: options.historyRetentionMs > 0,
  };
  stores = newStores(table, resources, { ...storeConfig, hookEnv, answers });
  // OpenAPI publishes what is served (--runtime-config), custom resources included.
  const openapi = newOpenApiSpecs(served, defs);
  const namespaces = stores.get(namespaceDef)!;
  const services = stores.get(table.lookup('', 'v1', 'services')!)!;
  const defaultServiceIP = serviceAllocators.clusterIPs(serviceAllocators.families[0])!.firstAddress;

  const health = newHealthChecks({
    livezGracePeriodMs: options.livezGracePeriodMs,
    // While starting (post-start hooks not done) or draining, /readyz failing is its job: verbose, as kube-apiserver's V(2).
    onFailure: (endpoint, failures) =>
      logger.log(failures.every((f) => f.pending) ? 'verbose' : 'warn', 'health check failed', { endpoint, failures }),
  });
  health.add(
    options.storageBackend === 'etcd3' ? 'etcd' : 'storage',
    () => withTimeout(storage.currentRevision(), 2000, 'storage').then(() => {}),
    ['healthz', 'livez', 'readyz'],
  );
  const bootstrapDone = health.addPostStartHook('bootstrap-controller');
  const rbacBootstrapped = health.addPostStartHook('rbac/bootstrap-roles');

  // Ready once the RBAC informers have listed.
  const rbacInformers = options.authorizationModes.includes('RBAC') ? startRbacInformers(policy, table, stores, { logger }) : undefined;
  if (rbacInformers) {
    const rbacSynced = health.addPostStartHook('rbac/informers-synced');
    void rbacInformers.synced.then(rbacSynced);
  }
  // The Node authorizer's graph, from the Pods and claims; ready once listed.
  const nodeInformers = options.authorizationModes.includes('Node') ? startNodeGraphInformers(graph, table, stores, { logger }) : undefined;
  if (nodeInformers) {
    const nodeSynced = health.addPostStartHook('node-authorizer/graph-synced');
    void nodeInformers.synced.then(nodeSynced);
  }

  // Established CustomResourceDefinitions are served as they are stored; ready once those stored at start are.
  const customResources = startCustomResources({
    table,
    definitions: defs,
    stores,
    newStore: (def) => new GenericStore({ ...storeConfig, def }),
    crdStore: stores.get(table.lookup(domain.group('apiextensions.k8s.io'), 'v1', 'customresourcedefinitions')!)!,
    openapi,
    cacher,
    logger,
    converter: newConversionWebhook({ domain, reader: access.reader }),
  });
  const crdSynced = health.addPostStartHook('apiextensions/crd-informer-synced');
  void customResources.synced.then(crdSynced);
  const inFlight = newInFlight();
  const audit = newServerAudit(options.audit, domain, logger);
  let server: Server | undefined;
  /** The port a worker's supervisor listens on (the worker's own server does not listen). */
  let servedPort: number | undefined;
  const app = buildHandlerChain({
    api: {
      table: served,
      stores,
      definitions: defs,
      // Built-in kinds only: custom resources have no protobuf messages (406, as Kubernetes).
      protobuf: newProtobufCodec(domain, definitions),
      maxRequestBytes: options.maxRequestBytes,
      minRequestTimeoutSeconds: options.minRequestTimeoutSeconds,
      connect: {
        port: options.kubeletPort,
        preferredAddressTypes: options.kubeletPreferredAddressTypes,
        clientCert: options.kubeletClientCertificate && readFileSync(options.kubeletClientCertificate, 'utf8'),
        clientKey: options.kubeletClientKey && readFileSync(options.kubeletClientKey, 'utf8'),
        ca: options.kubeletCertificateAuthority && readFileSync(options.kubeletCertificateAuthority, 'utf8'),
        dialTimeoutMs: options.kubeletTimeoutMs,
      },
      metrics: metrics.endpoints,
      logger,
      watchesPerUser: options.maxWatchesPerUser > 0 ? new WatchesPerUser(options.maxWatchesPerUser) : undefined,
      listChunking: options.featureGates.enabled('APIListChunking'),
    },
    openapi: openapi.v3,
    openapiV2: openapi.v2,
    health,
    metrics,
    inFlight,
    inFlightLimit,
    audit,
    logger,
    authenticator: authentication.authenticator,
    authorizer: authorization.authorizer,
    serverAddress: () =>
      `${options.bindAddress === '0.0.0.0' ? '127.0.0.1' : options.bindAddress}:${(server?.address() as AddressInfo | null)?.port ?? servedPort ?? options.securePort}`,
  });

  const { cert, key } = servingCert(options);
  // The CAs client certificates are asked for: users' and the authenticating proxy's.
  const clientCAs = [options.clientCAFile, options.requestHeader?.clientCAFile]
    .filter((f) => f !== undefined)
    .map((f) => readFileSync(f, 'utf8'));
  const clientCA = clientCAs.length > 0 ? clientCAs.join('\n') : undefined;
  // Headers up to Go's DefaultMaxHeaderBytes, so an oversized credential is a 401 from authentication, not a 431.
  server = createServer(
    { cert, key, ca: clientCA, requestCert: !!clientCA, rejectUnauthorized: false, maxHeaderSize: 1 << 20, ...serverClasses(app) },
    app,
  );
  server.on('upgrade', newUpgradeListener(app));
  server.keepAliveTimeout = 65_000;
  if (worker.serveOnceSynced) {
    const synced = Promise.all([rbacInformers?.synced, nodeInformers?.synced, customResources.synced]);
    await withTimeout(synced, SERVE_SYNC_TIMEOUT_MS, 'informer sync').catch((err: unknown) =>
      logger.warn('serving before the informers synced', { err: String(err) }),
    );
  }
  if (worker.serve) servedPort = await worker.serve(server);
  else {
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(options.securePort, options.bindAddress, () => resolve());
    });
  }
  const port = servedPort ?? (server.address() as AddressInfo).port;
  logger.info('serving securely', { address: options.bindAddress, port, storage: options.storageBackend, domain: domain.domain });

  let bootstrapping = true;
  const bootstrap = (async () => {
    for (let delay = 100; bootstrapping; delay = Math.min(delay * 2, 5000)) {
      try {
        await ensureSystemNamespaces(namespaces, domain);
        await ensureSystemPriorityClasses(stores.get(table.lookup(domain.group('scheduling.k8s.io'), 'v1', 'priorityclasses')!)!, domain);
        const flowcontrol = (plural: string) =>
          stores!.get(table.lookup(domain.group('flowcontrol.apiserver.k8s.io'), 'v1beta3', plural)!)!;
        await ensureFlowControlBootstrap(flowcontrol('prioritylevelconfigurations'), flowcontrol('flowschemas'), domain);
        await adoptServiceRanges(serviceAllocators, services);
        await ensureDefaultService(services, domain, defaultServiceIP, port, SYSTEM_USER);
        bootstrapDone();
        await reconcileDefaultPolicy(domain, table, stores);
        rbacBootstrapped();
        return;
      } catch (err) {
        logger.warn('bootstrap of system namespaces, the default service or the RBAC policy failed, retrying', { err: String(err) });
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  })();

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      logger.info('shutting down', { delayMs: options.shutdownDelayMs });
      health.startShutdown();
      bootstrapping = false;
      if (options.shutdownDelayMs > 0) await new Promise((r) => setTimeout(r, options.shutdownDelayMs));
      const closed = new Promise<void>((r) => server!.close(() => r()));
      server!.closeIdleConnections();
      inFlight.closeLongRunning();
      access.close();
      await inFlight.drained(options.requestTimeoutMs);
      server!.closeAllConnections();
      await closed;
      await bootstrap;
      customResources.stop();
      rbacInformers?.stop();
      nodeInformers?.stop();
      await compactor.stop();
      await cacher?.close();
      await storage.close();
      await audit?.backend.shutdown();
      logger.info('stopped');
    })());
  return { port, close };
}
