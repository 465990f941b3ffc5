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
import { newApiDomain } from '../../apiserver/api/domain.js';
import { newHealthChecks } from '../../apiserver/component-base/health/health-checks.js';
import { newLogger, type Logger } from '../../apiserver/component-base/logs/logger.js';
import { ApiClient } from '../client/api-client.js';
import { discoverResources } from '../client/discovery.js';
import { InformerFactory } from '../informers/informer-factory.js';
import { LeaderElector } from '../leaderelection/leader-elector.js';
import { LeaseLock } from '../leaderelection/lease-lock.js';
import { WorkQueue } from '../workqueue/work-queue.js';
import { ApiEventRecorder, type EventRecorder } from '../events/event-recorder.js';
import type { Controller, ControllerContext } from '../controllerutil/controller-context.js';
import type { ControllerConfig, ControllerDescriptor } from '../controllerutil/controller-descriptor.js';
import { enabledControllers } from './controller-names.js';
import { KNOWN_CONTROLLERS } from './known-controllers.js';
import { newControllerManagerMetrics } from './metrics.js';
import type { ControllerManagerOptions } from './options.js';
import { serveHealthAndMetrics } from './serving.js';
import { messageOf } from '../../apiserver/api/thrown.js';

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

/** Starts the enabled controllers over one context, in list order; a controller its configuration leaves off is not started. */
async function newControllers(
  enabled: readonly ControllerDescriptor[],
  shared: ControllerContext,
  clientFor: (controller: string) => ApiClient,
  recorderFor: (client: ApiClient, reportingController: string) => EventRecorder,
  config: ControllerConfig,
): Promise<Map<string, Controller>> {
  const all = new Map<string, Controller>();
  for (const descriptor of enabled) {
    const client = clientFor(descriptor.name);
    // Each controller writes its events with its own identity.
    const ctx: ControllerContext = { ...shared, client, recorder: (reporting) => recorderFor(client, reporting) };
    const controller = await descriptor.start(ctx, config);
    if (controller) all.set(descriptor.name, controller);
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
  const enabled = KNOWN_CONTROLLERS.filter((c) => names.includes(c.name));
  const config: ControllerConfig = { ...opts, ...settings };
  for (const descriptor of enabled) descriptor.check?.({ config, domain, rootCaPem });
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
    const controllers = await newControllers(enabled, ctx, (name) => controllerClients.get(name) ?? client, recorderFor, config);
    informers.start();
    await Promise.all(
      [...controllers].map(async ([name, controller]) => {
        logger.info('started controller', { controller: name });
        try {
          await controller.run(signal);
        } catch (err) {
          logger.error('controller failed', { controller: name, error: messageOf(err) });
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
