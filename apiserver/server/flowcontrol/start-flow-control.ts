/**
 * API Priority and Fairness in a running server: the configuration controller fed by the
 * FlowSchema and PriorityLevelConfiguration stores' informers (as RBAC's), FlowSchemas' Dangling
 * conditions written through their status subresource, the concurrency adjustment every 10 s, the
 * object counts the LIST estimate reads, the filter and the debug dumps. With --workers N each
 * worker process holds its own 1/N of the seats, as each of N replicas would.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FlowSchema, FlowSchemaCondition, PriorityLevelConfiguration } from '../../api/generated/types.js';
import { asApiObject, asKind, deepCopy } from '../../api/object.js';
import type { ResourceDef } from '../../api/resource.js';
import type { ResourceTable } from '../../api/resource-table.js';
import * as status from '../../api/status.js';
import type { Logger } from '../../component-base/logs/logger.js';
import type { MetricsFactory } from '../../component-base/metrics/registry.js';
import { requestInfoFrom } from '../../endpoints/request/request-info.js';
import { flowControlBootstrap } from '../../registry/flowcontrol/bootstrap-configuration.js';
import type { GenericStore } from '../../registry/generic/store.js';
import type { Storage } from '../../storage/interfaces.js';
import { SYSTEM_USER } from '../bootstrap-namespaces.js';
import type { Handler } from '../filters/handler.js';
import type { ServerOptions } from '../options.js';
import { withPriorityAndFairness } from '../filters/with-priority-and-fairness.js';
import { startStoreInformer } from '../store-informer.js';
import { ConfigController, withCondition } from './config-controller.js';
import { dumpFor } from './dump.js';
import { newFlowControlMetrics } from './metrics.js';
import { startObjectCounts } from './object-counts.js';

const ADJUST_PERIOD_MS = 10_000;

export interface FlowControlEnv {
  table: ResourceTable;
  stores: Map<ResourceDef, GenericStore>;
  storage: Storage;
  metrics: MetricsFactory;
  logger: Logger;
  /** (--max-requests-inflight + --max-mutating-requests-inflight), and the worker processes sharing them. */
  seats: { total: number; workers: number };
  requestTimeoutMs: number;
  chunking: boolean;
  consistentListFromCache: boolean;
}

export interface FlowControl {
  controller: ConfigController;
  filter(handler: Handler): Handler;
  /** Answers a /debug/api_priority_and_fairness/ dump; false for another path. */
  serveDump(req: IncomingMessage, res: ServerResponse): boolean;
  synced: Promise<void>;
  stop(): void;
}

export function startFlowControl(env: FlowControlEnv): FlowControl {
  const domain = env.table.domain;
  const group = domain.group('flowcontrol.apiserver.k8s.io');
  const store = (plural: string) => env.stores.get(env.table.lookup(group, 'v1beta3', plural)!)!;
  const schemas = store('flowschemas');
  const levels = store('prioritylevelconfigurations');
  const boot = flowControlBootstrap(domain);
  const mandatory = {
    priorityLevels: boot.priorityLevels
      .filter((o) => ['exempt', 'catch-all'].includes(o.metadata.name!))
      .map((o) => asKind<PriorityLevelConfiguration>(o)),
    flowSchemas: boot.flowSchemas.filter((o) => ['exempt', 'catch-all'].includes(o.metadata.name!)).map((o) => asKind<FlowSchema>(o)),
  };
  const ctx = () => ({ namespace: '', user: SYSTEM_USER, dryRun: false, now: new Date() });
  const writeDangling = (name: string, condition: FlowSchemaCondition) => {
    schemas
      .update(
        ctx(),
        name,
        (current) => {
          if (!current) throw status.notFound(schemas.groupResource, name);
          const fs = deepCopy(asKind<FlowSchema>(current));
          const have = fs.status?.conditions?.find((c) => c.type === 'Dangling');
          if (have && have.status === condition.status && have.reason === condition.reason && have.message === condition.message)
            return current;
          fs.status = { ...fs.status, conditions: withCondition(fs.status?.conditions, condition) };
          return asApiObject(fs);
        },
        { subresource: 'status' },
      )
      .catch((err: unknown) => {
        if (!status.isApiError(err, 'NotFound')) env.logger.warn('writing a FlowSchema status failed', { name, err: String(err) });
      });
  };
  const controller = new ConfigController({
    serverConcurrencyLimit: Math.max(1, Math.ceil(env.seats.total / env.seats.workers)),
    mandatory,
    writeDangling,
  });
  const informers = [startStoreInformer(levels, controller.priorityLevels, env), startStoreInformer(schemas, controller.flowSchemas, env)];
  const adjust = setInterval(() => controller.adjustConcurrency(), ADJUST_PERIOD_MS).unref();
  const counts = startObjectCounts(env.storage, () => env.stores);
  const metrics = newFlowControlMetrics(env.metrics, () => controller);
  return {
    controller,
    filter: (handler) =>
      withPriorityAndFairness(handler, {
        controller,
        metrics,
        storedObjects: counts.get,
        requestTimeoutMs: env.requestTimeoutMs,
        chunking: env.chunking,
        consistentListFromCache: env.consistentListFromCache,
      }),
    serveDump(req, res) {
      const info = requestInfoFrom(req);
      if (info.isResourceRequest) return false;
      const text = dumpFor(info.path, info.query, () => controller.levels());
      if (text === undefined) return false;
      if (req.method !== 'GET' && req.method !== 'HEAD') throw status.methodNotAllowed();
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(req.method === 'HEAD' ? undefined : text);
      return true;
    },
    synced: Promise.all(informers.map((i) => i.synced)).then(() => {}),
    stop() {
      clearInterval(adjust);
      counts.stop();
      for (const i of informers) i.stop();
    },
  };
}

/** API Priority and Fairness as the options ask: none with --enable-priority-and-fairness=false or no seats at all (0 and 0). */
export function flowControlFromOptions(
  options: ServerOptions,
  env: Pick<FlowControlEnv, 'table' | 'stores' | 'storage' | 'metrics' | 'logger'>,
  workers: number,
): FlowControl | undefined {
  const total = options.maxRequestsInflight + options.maxMutatingRequestsInflight;
  if (!options.enablePriorityAndFairness || total === 0) return undefined;
  return startFlowControl({
    ...env,
    seats: { total, workers },
    requestTimeoutMs: options.requestTimeoutMs,
    chunking: options.featureGates.enabled('APIListChunking'),
    consistentListFromCache: options.featureGates.enabled('ConsistentListFromCache'),
  });
}
