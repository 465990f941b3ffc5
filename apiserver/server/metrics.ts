/**
 * The API server's Prometheus metrics, with Kubernetes' names, labels and stability levels: requests
 * (count, latency, in flight, long-running), deprecated APIs requested, watch events, stored
 * objects, storage latency and admission webhooks. Everything else in the process reports through
 * the small interfaces below, so nothing outside server/ knows prom-client.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MetricsFactory, isHidden, newRegistry, serveMetrics, useInClusterAggregation } from '../component-base/metrics/registry.js';
import { requestInfoFrom, type RequestInfo } from '../endpoints/request/request-info.js';
import { isLongRunning } from '../endpoints/request/long-running.js';
import type { AdmissionMetrics } from '../admission/interfaces.js';
import type { EndpointMetrics } from '../endpoints/handlers/scope.js';
import type { StorageObserver } from '../storage/instrumented-storage.js';
import type { Handler } from './filters/handler.js';

export interface Metrics {
  /** The filter that counts and times the requests of `handler`. */
  filter(handler: Handler): Handler;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** What admission reports. */
  admission: AdmissionMetrics;
  /** What the REST handlers report. */
  endpoints: EndpointMetrics;
  /** Declares more metrics in this registry (API Priority and Fairness'). */
  factory: MetricsFactory;
  /** Times storage requests (etcd_request_duration_seconds); typeOf comes from the sources. */
  storage(typeOf: (key: string) => string): StorageObserver;
}

export interface MetricsSources {
  /** --show-hidden-metrics-for-version. */
  showHiddenForVersion: string;
  /** Whether the resource of a request is served (only those are labelled by resource: bounded cardinality). */
  served(info: RequestInfo): boolean;
  /** The most requests in flight at once by kind since the last scrape (the max-in-flight filter's watermark). */
  inFlight(): { readOnly: number; mutating: number };
  /** Stored objects by resource ("pods", "deployments.apps"), exact when scraped (storage-metrics.ts). */
  storedObjects(): Promise<Map<string, number>>;
  /**
   * In a worker process (--workers): what /metrics answers, the sum over all workers, which the
   * supervisor collects; this worker's registry joins that aggregation.
   */
  clusterMetrics?: () => Promise<string>;
}

/** Kubernetes' request latency buckets. */
const REQUEST_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
const ETCD_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 10, 15, 20, 25, 30, 40, 50, 60];
/** apiserver_request_slo_duration_seconds was deprecated in 1.27 (hidden in 1.28 unless shown). */
const SLO_DEPRECATED_IN = '1.27.0';
const REQUEST_LABELS = ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'] as const;

export function newMetrics(sources: MetricsSources): Metrics {
  const registry = newRegistry();
  if (sources.clusterMetrics) useInClusterAggregation(registry);
  const m = new MetricsFactory(registry, sources.showHiddenForVersion);
  const requests = m.boundCounter({
    name: 'apiserver_request_total',
    help: 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
    labelNames: ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component', 'code'],
    stabilityLevel: 'STABLE',
  });
  const latency = m.boundHistogram({
    name: 'apiserver_request_duration_seconds',
    help: 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
    labelNames: ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'],
    buckets: REQUEST_BUCKETS,
    stabilityLevel: 'STABLE',
  });
  const sloLatency = m.histogram({
    name: 'apiserver_request_slo_duration_seconds',
    help: 'Response latency distribution (not counting webhook duration and priority & fairness queue wait times) in seconds for each verb, group, version, resource, subresource, scope and component.',
    labelNames: REQUEST_LABELS,
    buckets: REQUEST_BUCKETS,
    deprecatedVersion: SLO_DEPRECATED_IN,
  });
  const sloShown = !isHidden(SLO_DEPRECATED_IN, sources.showHiddenForVersion);
  const longRunning = m.gauge({
    name: 'apiserver_longrunning_requests',
    help: 'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
    labelNames: REQUEST_LABELS,
    stabilityLevel: 'STABLE',
  });
  m.gauge({
    name: 'apiserver_current_inflight_requests',
    help: 'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
    labelNames: ['request_kind'],
    stabilityLevel: 'STABLE',
    collect() {
      const now = sources.inFlight();
      this.set({ request_kind: 'readOnly' }, now.readOnly);
      this.set({ request_kind: 'mutating' }, now.mutating);
    },
  });
  const deprecatedApis = m.gauge({
    name: 'apiserver_requested_deprecated_apis',
    aggregator: 'max',
    help: 'Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.',
    labelNames: ['group', 'version', 'resource', 'subresource', 'removed_release'],
    stabilityLevel: 'STABLE',
  });
  const watchEvents = m.boundCounter({
    name: 'apiserver_watch_events_total',
    help: 'Number of events sent in watch clients',
    labelNames: ['group', 'version', 'kind'],
  });
  const terminatedWatchers = m.counter({
    name: 'apiserver_terminated_watchers_total',
    help: 'Counter of watchers closed due to unresponsiveness broken by resource type.',
    labelNames: ['resource'],
  });
  m.gauge({
    name: 'apiserver_storage_objects',
    // Every worker counts the same store: the aggregation over workers takes one count, not the sum.
    aggregator: 'max',
    help: 'Number of stored objects at the time of last check split by kind.',
    labelNames: ['resource'],
    stabilityLevel: 'STABLE',
    async collect() {
      this.reset();
      for (const [resource, n] of await sources.storedObjects()) this.set({ resource }, n);
    },
  });
  const etcdLatency = m.boundHistogram({
    name: 'etcd_request_duration_seconds',
    help: 'Etcd request latency in seconds for each operation and object type.',
    labelNames: ['operation', 'type'],
    buckets: ETCD_BUCKETS,
  });
  const webhookRejections = m.counter({
    name: 'apiserver_admission_webhook_rejection_count',
    help: 'Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
    labelNames: ['name', 'type', 'operation', 'error_type', 'rejection_code'],
  });
  const webhookLatency = m.histogram({
    name: 'apiserver_admission_webhook_admission_duration_seconds',
    help: 'Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
    labelNames: ['name', 'type', 'operation', 'rejected'],
    buckets: [0.005, 0.025, 0.1, 0.5, 1, 2.5, 10, 25],
    stabilityLevel: 'STABLE',
  });
  return {
    factory: m,
    admission: {
      webhookRejection: (l) =>
        webhookRejections.inc({
          name: l.name,
          type: l.type,
          operation: l.operation,
          error_type: l.errorType,
          rejection_code: String(Math.min(l.code, 600)),
        }),
      webhookLatency: (l, seconds) =>
        webhookLatency.observe({ name: l.name, type: l.type, operation: l.operation, rejected: String(l.rejected) }, seconds),
    },
    endpoints: {
      watchEvents: (group, version, kind) => watchEvents.labels({ group, version, kind }),
      // Kubernetes labels it by group resource: "pods", "deployments.apps".
      terminatedWatcher: (group, resource) => terminatedWatchers.inc({ resource: group ? `${resource}.${group}` : resource }),
      deprecatedApiRequested: (l) =>
        deprecatedApis.set(
          { group: l.group, version: l.version, resource: l.resource, subresource: l.subresource, removed_release: l.removedRelease },
          1,
        ),
    },
    storage(typeOf) {
      // One labelled child per (operation, type): the hot path observes without hashing labels.
      const children = new Map<string, { observe(seconds: number): void }>();
      return {
        typeOf,
        observe(operation, type, seconds) {
          const key = `${operation}\0${type}`;
          let child = children.get(key);
          if (!child) children.set(key, (child = etcdLatency.labels({ operation, type })));
          child.observe(seconds);
        },
      };
    },
    filter(handler) {
      return (req, res) => {
        const start = process.hrtime.bigint();
        const info = requestInfoFrom(req);
        const labels = requestLabels(req, info, sources.served(info));
        if (isLongRunning(info)) {
          longRunning.inc(labels);
          res.once('close', () => longRunning.dec(labels));
        }
        // 'finish' comes once: a plain listener, without once's wrapper.
        res.on('finish', () => {
          const dryRun = info.isResourceRequest && info.query.getAll('dryRun').includes('All') ? 'All' : '';
          const { verb, group, version, resource, subresource, scope, component } = labels;
          // In Kubernetes' label order, which the exposition keeps.
          requests
            .labels({ verb, dry_run: dryRun, group, version, resource, subresource, scope, component, code: String(res.statusCode) })
            .inc();
          if (labels.verb === 'WATCH' || labels.verb === 'CONNECT') return;
          const seconds = Number(process.hrtime.bigint() - start) / 1e9;
          latency.labels({ verb, dry_run: dryRun, group, version, resource, subresource, scope, component }).observe(seconds);
          // A hidden metric is not observed at all: no cost per request.
          if (sloShown) sloLatency.observe(labels, seconds);
        });
        return handler(req, res);
      };
    },
    handle: (_req, res) => serveMetrics(registry, res, sources.clusterMetrics),
  };
}

/** The verb as Kubernetes' metrics report it. */
const METRIC_VERBS: Record<string, string> = {
  get: 'GET',
  list: 'LIST',
  watch: 'WATCH',
  create: 'POST',
  update: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
  deletecollection: 'DELETECOLLECTION',
  proxy: 'CONNECT',
};
const CONNECT_SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'portforward']);

/** A request's metric labels; resources the server does not serve are not labelled by name (user input). */
function requestLabels(req: IncomingMessage, info: RequestInfo, served: boolean): Record<(typeof REQUEST_LABELS)[number], string> {
  if (!info.isResourceRequest || !served) {
    return { verb: req.method ?? '', group: '', version: '', resource: '', subresource: '', scope: '', component: 'apiserver' };
  }
  let verb = METRIC_VERBS[info.verb] ?? req.method ?? '';
  if (CONNECT_SUBRESOURCES.has(info.subresource)) verb = 'CONNECT';
  else if (verb === 'PATCH' && req.headers['content-type']?.startsWith('application/apply-patch')) verb = 'APPLY';
  const scope = info.name || info.verb === 'create' ? 'resource' : info.namespace ? 'namespace' : 'cluster';
  return {
    verb,
    group: info.apiGroup,
    version: info.apiVersion,
    resource: info.resource,
    subresource: info.subresource,
    scope,
    component: 'apiserver',
  };
}
