/**
 * One orch-controller-manager: a client from the kubeconfig, /healthz and /metrics on its own port,
 * leader election on a Lease (unless disabled), and — only while leading — the shared informers and
 * the enabled controllers. Losing the lease stops the controllers and ends the run with 'lost' (the
 * command then exits non-zero, as kube-controller-manager does, and is restarted).
 */
import { setMaxListeners } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { type ApiDomain, newApiDomain } from '../../apiserver/api/domain.js';
import { newHealthChecks } from '../../apiserver/component-base/health/health-checks.js';
import { newLogger, type Logger } from '../../apiserver/component-base/logs/logger.js';
import { ApiClient } from '../client/api-client.js';
import { discoverResources } from '../client/discovery.js';
import { InformerFactory } from '../informers/informer-factory.js';
import { LeaderElector } from '../leaderelection/leader-elector.js';
import { LeaseLock } from '../leaderelection/lease-lock.js';
import { WorkQueue } from '../workqueue/work-queue.js';
import { ApiEventRecorder, type EventRecorder } from '../events/event-recorder.js';
import { CronJobController } from '../cronjob/cronjob-controller.js';
import { DaemonSetController } from '../daemonset/daemonset-controller.js';
import { DeploymentController } from '../deployment/deployment-controller.js';
import { DisruptionController } from '../disruption/disruption-controller.js';
import { EndpointsController } from '../endpoints/endpoints-controller.js';
import { EndpointSliceController } from '../endpointslice/endpointslice-controller.js';
import { EndpointSliceMirroringController } from '../endpointslicemirroring/endpointslice-mirroring-controller.js';
import { GarbageCollector } from '../garbagecollector/garbage-collector.js';
import { JobController } from '../job/job-controller.js';
import { NamespaceController } from '../namespace/namespace-controller.js';
import { NodeLifecycleController } from '../nodelifecycle/node-lifecycle-controller.js';
import { PvBinderController } from '../volumebinder/pv-binder-controller.js';
import { PvProtectionController } from '../pvprotection/pv-protection-controller.js';
import { PvcProtectionController } from '../pvcprotection/pvc-protection-controller.js';
import { PodGcController } from '../podgc/pod-gc-controller.js';
import { ReplicaSetController } from '../replicaset/replicaset-controller.js';
import { REPLICATION_CONTROLLER_KIND } from '../replicaset/replicated-kind.js';
import { ResourceQuotaController } from '../resourcequota/resource-quota-controller.js';
import { RootCaCertPublisher } from '../rootcacertpublisher/publisher.js';
import { builtInSigners } from '../../apiserver/api/certificates/signers.js';
import { BootstrapSigner } from '../bootstrap/bootstrap-signer.js';
import { TokenCleaner } from '../bootstrap/token-cleaner.js';
import { CsrCleaner } from '../csrcleaner/csr-cleaner.js';
import { CsrApprovingController } from '../csrapproving/csr-approving-controller.js';
import { CaProvider } from '../csrsigning/ca-provider.js';
import { CsrSigningController } from '../csrsigning/csr-signing-controller.js';
import { parseSigningKey, type SigningKey } from '../../apiserver/api/serviceaccount/signing-key.js';
import { LegacyTokenCleaner } from '../serviceaccount/legacy-token-cleaner.js';
import { TokensController } from '../serviceaccount/tokens-controller.js';
import { ServiceAccountsController } from '../serviceaccount/serviceaccounts-controller.js';
import { StatefulSetController } from '../statefulset/statefulset-controller.js';
import { TtlController } from '../ttl/ttl-controller.js';
import { TtlAfterFinishedController } from '../ttlafterfinished/ttl-after-finished-controller.js';
import { ClusterRoleAggregationController } from '../clusterroleaggregation/aggregation-controller.js';
import type { Controller, ControllerContext } from './controller-context.js';
import { enabledControllers } from './controller-names.js';
import { newControllerManagerMetrics } from './metrics.js';
import type { ControllerManagerOptions } from './options.js';
import { serveHealthAndMetrics } from './serving.js';

/** Settings that are not flags (tests). */
export interface RunSettings {
  logger?: Logger;
  /** Kubernetes waits 5s after seeing a namespace deletion before acting on it. */
  namespaceDeletionGracePeriodMs?: number;
  /** How often the garbage collector reads discovery again (30s). */
  gcSyncPeriodMs?: number;
  /** How long a Node may stay silent before it is Unknown (40s), and how often Nodes are looked at (5s). */
  nodeMonitorGracePeriodMs?: number;
  nodeMonitorPeriodMs?: number;
}

export interface RunningControllerManager {
  /** The /healthz and /metrics port. */
  port: number;
  identity: string;
  isLeader(): boolean;
  /** Resolves 'lost' when leadership was lost, 'stopped' after stop(). */
  done: Promise<'lost' | 'stopped'>;
  stop(): Promise<void>;
}

/**
 * The CA of each built-in signer the flags configure, by the signer's name under the domain; each is
 * read once here, so unreadable or mismatched files stop the start.
 */
function signingCas(domain: ApiDomain, opts: ControllerManagerOptions): Map<string, CaProvider> {
  const names = builtInSigners(domain);
  const cas = new Map<string, CaProvider>();
  for (const [signer, files] of Object.entries(opts.csrSigning.cas)) {
    if (!files) continue;
    const provider = new CaProvider(files);
    try {
      provider.current();
    } catch (err) {
      throw new Error(`certificatesigningrequest-signing-controller: ${files.certFile}: ${(err as Error).message}`);
    }
    cas.set(names[signer as keyof typeof names], provider);
  }
  return cas;
}

/** The key of --service-account-private-key-file; throws naming the file. */
function serviceAccountSigningKey(file: string): SigningKey {
  return parseSigningKey(readFileSync(file, 'utf8'), file);
}

/** Builds the enabled controllers over one context. */
function newControllers(
  names: string[],
  shared: ControllerContext,
  clientFor: (controller: string) => ApiClient,
  recorderFor: (client: ApiClient, reportingController: string) => EventRecorder,
  opts: ControllerManagerOptions,
  settings: RunSettings,
): Map<string, Controller> {
  const all = new Map<string, Controller>();
  const signingKey = opts.serviceAccountKeyFile ? serviceAccountSigningKey(opts.serviceAccountKeyFile) : undefined;
  for (const name of names) {
    const client = clientFor(name);
    // Each controller writes its events with its own identity.
    const ctx: ControllerContext = { ...shared, client, recorder: (reporting) => recorderFor(client, reporting) };
    switch (name) {
      case 'clusterrole-aggregation-controller':
        all.set(name, new ClusterRoleAggregationController(ctx));
        break;
      case 'cronjob-controller':
        all.set(name, new CronJobController(ctx));
        break;
      case 'daemonset-controller':
        all.set(name, new DaemonSetController(ctx));
        break;
      case 'deployment-controller':
        all.set(name, new DeploymentController(ctx));
        break;
      case 'disruption-controller':
        all.set(name, new DisruptionController(ctx));
        break;
      case 'endpoints-controller':
        all.set(name, new EndpointsController(ctx));
        break;
      case 'endpointslice-controller':
        all.set(name, new EndpointSliceController(ctx));
        break;
      case 'endpointslice-mirroring-controller':
        all.set(name, new EndpointSliceMirroringController(ctx));
        break;
      case 'garbage-collector-controller':
        all.set(name, new GarbageCollector(ctx, { workers: opts.concurrentGcSyncs, syncPeriodMs: settings.gcSyncPeriodMs }));
        break;
      case 'job-controller':
        all.set(name, new JobController(ctx));
        break;
      case 'namespace-controller':
        all.set(
          name,
          new NamespaceController(ctx, {
            workers: opts.concurrentNamespaceSyncs,
            resyncPeriodMs: opts.namespaceSyncPeriodMs,
            deletionGracePeriodMs: settings.namespaceDeletionGracePeriodMs,
          }),
        );
        break;
      case 'node-lifecycle-controller':
        all.set(
          name,
          new NodeLifecycleController(ctx, {
            gracePeriodMs: settings.nodeMonitorGracePeriodMs,
            periodMs: settings.nodeMonitorPeriodMs,
            rates: opts.nodeEviction,
          }),
        );
        break;
      case 'persistentvolume-binder-controller':
        all.set(name, new PvBinderController(ctx));
        break;
      case 'persistentvolume-protection-controller':
        all.set(name, new PvProtectionController(ctx));
        break;
      case 'persistentvolumeclaim-protection-controller':
        all.set(name, new PvcProtectionController(ctx));
        break;
      case 'pod-garbage-collector-controller':
        all.set(name, new PodGcController(ctx));
        break;
      case 'replicaset-controller':
        all.set(name, new ReplicaSetController(ctx));
        break;
      case 'replicationcontroller-controller':
        all.set(name, new ReplicaSetController(ctx, { kind: REPLICATION_CONTROLLER_KIND }));
        break;
      case 'resourcequota-controller':
        all.set(name, new ResourceQuotaController(ctx));
        break;
      case 'root-ca-certificate-publisher-controller':
        all.set(name, new RootCaCertPublisher(ctx, ctx.rootCaPem!));
        break;
      case 'bootstrap-signer-controller':
        all.set(name, new BootstrapSigner(ctx, ctx.rootCaPem!));
        break;
      case 'certificatesigningrequest-cleaner-controller':
        all.set(name, new CsrCleaner(ctx));
        break;
      case 'serviceaccount-token-controller':
        if (!signingKey) ctx.logger.info('serviceaccount-token-controller is disabled because there is no private key');
        else all.set(name, new TokensController(ctx, { signingKey, rootCaPem: ctx.rootCaPem ?? '' }));
        break;
      case 'legacy-serviceaccount-token-cleaner-controller':
        all.set(name, new LegacyTokenCleaner(ctx, { cleanUpPeriodMs: opts.legacyTokenCleanUpPeriodMs }));
        break;
      case 'token-cleaner-controller':
        all.set(name, new TokenCleaner(ctx));
        break;
      case 'certificatesigningrequest-approving-controller':
        all.set(name, new CsrApprovingController(ctx));
        break;
      case 'certificatesigningrequest-signing-controller': {
        const cas = signingCas(ctx.domain, opts);
        if (cas.size === 0) ctx.logger.info('skipping CSR signer controller because no csr cert/key was specified');
        else all.set(name, new CsrSigningController(ctx, { cas, durationMs: opts.csrSigning.durationMs }));
        break;
      }
      case 'serviceaccount-controller':
        all.set(name, new ServiceAccountsController(ctx));
        break;
      case 'statefulset-controller':
        all.set(name, new StatefulSetController(ctx));
        break;
      case 'ttl-controller':
        all.set(name, new TtlController(ctx));
        break;
      case 'ttl-after-finished-controller':
        all.set(name, new TtlAfterFinishedController(ctx));
        break;
    }
  }
  return all;
}

export async function runControllerManager(opts: ControllerManagerOptions, settings: RunSettings = {}): Promise<RunningControllerManager> {
  const logger = settings.logger ?? newLogger({ logLevel: opts.logLevel });
  for (const warning of opts.featureGateWarnings) logger.warn(warning);
  const domain = newApiDomain(opts.apiDomain);
  const names = enabledControllers(opts.controllers);
  const client = ApiClient.fromKubeconfig(opts.kubeconfig, { domain, userAgent: 'orch-controller-manager' });
  // Controllers with a kubeconfig of their own call the API as themselves (least privilege).
  const controllerClients = new Map<string, ApiClient>();
  for (const name of opts.controllerKubeconfigDir ? names : []) {
    const file = join(opts.controllerKubeconfigDir, `${name}.kubeconfig`);
    if (existsSync(file))
      controllerClients.set(name, ApiClient.fromKubeconfig(file, { domain, userAgent: `orch-controller-manager/${name}` }));
  }
  const rootCaPem = opts.rootCaFile ? readFileSync(opts.rootCaFile, 'utf8') : client.config.cluster.caPem;
  for (const needsCa of ['root-ca-certificate-publisher-controller', 'bootstrap-signer-controller']) {
    if (names.includes(needsCa) && !rootCaPem) {
      throw new Error(`${needsCa}: no root CA: pass --root-ca-file or use a kubeconfig with certificate-authority data`);
    }
  }
  if (names.includes('certificatesigningrequest-signing-controller')) signingCas(domain, opts);
  if (names.includes('serviceaccount-token-controller') && opts.serviceAccountKeyFile) serviceAccountSigningKey(opts.serviceAccountKeyFile);
  const identity = `${hostname()}_${randomUUID()}`;
  const metrics = newControllerManagerMetrics();
  const health = newHealthChecks();
  const serving = await serveHealthAndMetrics({
    bindAddress: opts.bindAddress,
    port: opts.securePort,
    certDir: opts.certDir,
    health,
    metrics,
  });
  logger.info('serving securely', { address: opts.bindAddress, port: serving.port, controllers: names });

  /** Runs informers and controllers until `signal` aborts. */
  const runControllers = async (signal: AbortSignal): Promise<void> => {
    // Every controller, informer and wait listens for the one signal.
    setMaxListeners(0, signal);
    const resyncPeriodMs = opts.minResyncPeriodMs * (1 + Math.random());
    const informers = new InformerFactory(client, { resyncPeriodMs, logger });
    const ctx: ControllerContext = {
      client,
      informers,
      domain,
      logger,
      rootCaPem,
      discover: () => discoverResources(client),
      recorder: (controller) => new ApiEventRecorder({ client, domain, controller, instance: identity, logger }),
      newQueue: (name, queueOpts) => new WorkQueue({ ...queueOpts, metrics: metrics.queue(name) }),
    };
    const recorderFor = (c: ApiClient, controller: string) =>
      new ApiEventRecorder({ client: c, domain, controller, instance: identity, logger });
    const controllers = newControllers(names, ctx, (name) => controllerClients.get(name) ?? client, recorderFor, opts, settings);
    informers.start();
    await Promise.all(
      [...controllers].map(async ([name, controller]) => {
        logger.info('started controller', { controller: name });
        try {
          await controller.run(signal);
        } catch (err) {
          logger.error('controller failed', { controller: name, error: (err as Error).message });
        }
      }),
    );
    await informers.stop();
  };

  const stop = new AbortController();
  let elector: LeaderElector | undefined;
  let done: Promise<'lost' | 'stopped'>;
  if (!opts.leaderElect) {
    done = runControllers(stop.signal).then(() => 'stopped' as const);
  } else {
    const leaseName = opts.leaseName || `${domain.systemNamespace.replace(/-system$/, '')}-controller-manager`;
    const lock = new LeaseLock(client, domain, opts.leaseNamespace || domain.systemNamespace, leaseName, identity);
    let running: Promise<void> = Promise.resolve();
    elector = new LeaderElector({
      lock,
      leaseDurationMs: opts.leaseDurationMs,
      renewDeadlineMs: opts.renewDeadlineMs,
      retryPeriodMs: opts.retryPeriodMs,
      releaseOnCancel: true,
      logger,
      callbacks: {
        onStartedLeading: (signal) => {
          metrics.setLeading(leaseName, true);
          running = runControllers(signal);
        },
        onStoppedLeading: () => metrics.setLeading(leaseName, false),
        onNewLeader: (leader) => logger.info('new leader elected', { lease: lock.describe(), leader, me: leader === identity }),
      },
    });
    metrics.setLeading(leaseName, false);
    done = elector.run(stop.signal).then(async () => {
      await running;
      if (stop.signal.aborted) return 'stopped';
      logger.error('leaderelection lost', { lease: lock.describe(), identity });
      return 'lost';
    });
  }

  return {
    port: serving.port,
    identity,
    isLeader: () => (elector ? elector.isLeader() : true),
    done,
    async stop() {
      stop.abort();
      await done;
      await serving.close();
      client.close();
      for (const c of controllerClients.values()) c.close();
    },
  };
}
