/**
 * One orch-apiserver, built in named steps: the resource table, the metered store, authorization,
 * admission, authentication, the stores, health and informers, the handler chain on HTTPS, the
 * bootstrap loop and graceful shutdown. Each step is a file named by what it builds.
 */
import { WatchesPerUser } from '../endpoints/handlers/watches-per-user.js';
import { readFileSync } from 'node:fs';
import { newApiDomain } from '../api/domain.js';
import { newResourceTable, restrictTable } from '../api/resource-table.js';
import { servedResources } from '../api/runtime-config.js';
import { allResources } from '../registry/resources/index.js';
import type { KindDeclaration } from '../registry/generic/kind-declaration.js';
import { definitions } from '../api/generated/definitions.js';
import { historyDefinitions } from '../api/history-definitions.js';
import { newProtobufCodec } from '../runtime/protobuf/codec.js';
import type { Schema } from '../api/schema.js';
import { newServerAuthentication } from './authentication.js';
import { newObjectGetter } from './object-getter.js';
import { newSecretLabeler } from './secret-labeler.js';
import type { ServerOptions } from './options.js';
import { newLogger, type Logger } from '../component-base/logs/logger.js';
import { newInFlight } from './filters/with-in-flight-tracking.js';
import { newServerAudit } from './audit.js';
import { buildHandlerChain } from './chain.js';
import { loadConsoleAssets } from './console/serve-console.js';
import { newOpenApiSpecs } from '../endpoints/openapi-specs.js';
import { newReviewKinds } from './review-kinds.js';
import { LateStores } from './late-stores.js';
import { newMeteredStorage } from './metered-storage.js';
import { newServerAuthorization } from './server-authorization.js';
import { newServerAdmission } from './server-admission.js';
import { newServerStores } from './server-stores.js';
import { newServerHealth } from './server-health.js';
import { newBootstrap } from './bootstrap-loop.js';
import { startServerInformers } from './server-informers.js';
import { newHttpsServer, ServedAddress, serveHttps } from './https-server.js';
import { newServerShutdown } from './server-shutdown.js';
import type { WorkerEnvironment } from './worker-environment.js';
import { newAggregator } from './aggregator/new-aggregator.js';
import { newClusterStatus } from './cluster-status.js';
import { flowControlFromOptions } from './flowcontrol/start-flow-control.js';
import { type IdentityLease, identityLabel, startIdentityLease } from './identity-lease.js';
import { storeLookup } from './store-lookup.js';

export interface RunningServer {
  port: number;
  close(): Promise<void>;
}

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
  const table = newResourceTable(domain, resources);
  // Every declared resource has its store (the server's own bootstrap and admission use them); only these are served.
  const served = restrictTable(table, servedResources(table.all(), options.runtimeConfig));
  // Admission, authentication and the storage metrics read the stores, which are built with them.
  const late = new LateStores();
  const metered = newMeteredStorage(options, domain, logger, worker, served, late);
  const { metrics, storage, cacher } = metered;
  const authz = newServerAuthorization(options, domain);
  // Custom resources add their schemas to the generated ones at run time.
  const defs: Record<string, Schema> = { ...definitions, ...historyDefinitions };
  const { admission, access } = newServerAdmission(options, domain, table, late, authz, metrics, defs);
  const authentication = newServerAuthentication(
    options,
    domain,
    newObjectGetter(table, late.get),
    logger,
    newSecretLabeler(table, late.get, logger),
  );
  const answers = new Map([
    ...authentication.answers,
    ...newReviewKinds({ ...authz.authorization, group: domain.group('authorization.k8s.io') }),
  ]);
  const { stores, storeConfig, serviceAllocators } = newServerStores(
    { options, domain, table, resources, storage, cacher, admission, answers, logger, authorizer: authz.authorization.authorizer },
    late,
  );
  // OpenAPI publishes what is served (--runtime-config), custom resources included, and with the
  // revision ledger on every kind's history subresource.
  const openapi = newOpenApiSpecs(served, defs, { history: options.historyRetentionMs > 0 });

  const health = newServerHealth(options, storage, logger);
  const bootstrap = newBootstrap(health);
  // kube-apiserver's two identity hooks: done once the controller and its collector run.
  const identityHooks = options.featureGates.enabled('APIServerIdentity')
    ? ['identity-lease-controller', 'identity-lease-garbage-collector'].map((h) =>
        health.addPostStartHook(`start-${identityLabel(domain).value}-${h}`),
      )
    : [];
  const informers = startServerInformers({
    options,
    domain,
    table,
    stores,
    storeConfig,
    authz,
    definitions: defs,
    openapi,
    cacher,
    access,
    health,
    logger,
  });
  // The aggregation layer: APIServices, remote ones proxied to their extension servers.
  const builtInGroups = new Set(resources.map((r) => domain.group(r.kubernetesGroup)));
  const aggregator = newAggregator({
    options,
    table: served,
    declared: table,
    builtInGroups,
    stores,
    crdSynced: informers.customResources.synced,
    addPostStartHook: (name) => health.addPostStartHook(name),
    logger,
  });
  const inFlight = newInFlight();
  const flowControl = flowControlFromOptions(
    options,
    { table, stores, storage, metrics: metrics.factory, logger },
    worker.serve ? options.workers : 1,
  );
  let identity: IdentityLease | undefined;
  const clusterStatus = newClusterStatus(options, domain, worker.serve ? options.workers : 1, () =>
    identity ? { lease: identity.name, holderIdentity: identity.holderIdentity } : undefined,
  );
  const audit = newServerAudit(options.audit, domain, logger);
  const address = new ServedAddress(options);
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
      watchList: options.featureGates.enabled('WatchList'),
    },
    openapi: openapi.v3,
    openapiV2: aggregator.openapiV2(openapi.v2),
    health,
    metrics,
    inFlight,
    inFlightLimit: metered.inFlightLimit,
    priorityAndFairness: flowControl,
    flowControlDump: flowControl?.serveDump,
    clusterStatus,
    audit,
    aggregator,
    discoveryGroups: aggregator.groups,
    remoteDiscovery: aggregator.remoteDiscovery,
    openapiV3Paths: aggregator.openapiV3Paths,
    logger,
    authenticator: authentication.authenticator,
    authorizer: authz.authorization.authorizer,
    serverAddress: address.hostPort,
    console: options.console ? loadConsoleAssets() : undefined,
  });

  const server = newHttpsServer(options, app);
  const port = await serveHttps(server, address, options, worker, () => Promise.all([informers.synced(), flowControl?.synced]), logger);
  logger.info('serving securely', { address: options.bindAddress, port, storage: options.storageBackend, domain: domain.domain });
  bootstrap.start({ domain, table, stores, serviceAllocators, logger }, port);
  identity =
    identityHooks.length > 0
      ? startIdentityLease({
          domain,
          leases: storeLookup(table, () => stores).store('coordination.k8s.io', 'v1', 'leases'),
          port,
          slot: worker.slot,
          logger,
        })
      : undefined;
  for (const done of identityHooks) done();
  const close = newServerShutdown({
    options,
    logger,
    health,
    bootstrap,
    identity,
    server,
    inFlight,
    access,
    informers,
    aggregator,
    flowControl,
    clusterStatus,
    storage: metered,
    audit,
  });
  return { port, close };
}
