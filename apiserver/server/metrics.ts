/** The API server's Prometheus metrics: the component-base registry plus Kubernetes-named request metrics. */
import type { Request, Response, NextFunction } from 'express';
import client from 'prom-client';
import { newRegistry, serveMetrics, useInClusterAggregation } from '../component-base/metrics/registry.js';
import { requestInfoFrom } from '../endpoints/request/request-info.js';
import type { AdmissionMetrics } from '../admission/interfaces.js';

export interface Metrics {
  middleware(): (req: Request, res: Response, next: NextFunction) => void;
  handle(req: Request, res: Response): Promise<void>;
  /** What admission reports. */
  admission: AdmissionMetrics;
}

/**
 * `clusterMetrics`: in a worker process (--workers), what /metrics answers: the sum over all workers,
 * which the supervisor collects; this worker's registry joins that aggregation.
 */
export function newMetrics(clusterMetrics?: () => Promise<string>): Metrics {
  const registry = newRegistry();
  if (clusterMetrics) useInClusterAggregation(registry);
  const requests = new client.Counter({
    name: 'apiserver_request_total',
    help: 'Requests by verb, group, version, resource, subresource, scope and HTTP code.',
    labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'code'],
    registers: [registry],
  });
  const latency = new client.Histogram({
    name: 'apiserver_request_duration_seconds',
    help: 'Response latency by verb and resource (watches excluded).',
    labelNames: ['verb', 'group', 'version', 'resource'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 60],
    registers: [registry],
  });
  const webhookRejections = new client.Counter({
    name: 'apiserver_admission_webhook_rejection_count',
    help: 'Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
    labelNames: ['name', 'type', 'operation', 'error_type', 'rejection_code'],
    registers: [registry],
  });
  const webhookLatency = new client.Histogram({
    name: 'apiserver_admission_webhook_admission_duration_seconds',
    help: 'Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
    labelNames: ['name', 'type', 'operation', 'rejected'],
    buckets: [0.005, 0.025, 0.1, 0.5, 1, 2.5, 10, 25],
    registers: [registry],
  });
  return {
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
    middleware() {
      return (req, res, next) => {
        const start = process.hrtime.bigint();
        res.on('finish', () => {
          const info = requestInfoFrom(req);
          const labels = { verb: info.verb, group: info.apiGroup, version: info.apiVersion, resource: info.resource };
          requests.inc({ ...labels, subresource: info.subresource, code: String(res.statusCode) });
          if (info.verb !== 'watch') latency.observe(labels, Number(process.hrtime.bigint() - start) / 1e9);
        });
        next();
      };
    },
    handle: (_req, res) => serveMetrics(registry, res, clusterMetrics),
  };
}
