/** The API server's Prometheus metrics: the component-base registry plus Kubernetes-named request metrics. */
import type { Request, Response, NextFunction } from 'express';
import client from 'prom-client';
import { newRegistry, serveMetrics } from '../component-base/metrics/registry.js';
import { requestInfoFrom } from '../endpoints/request/request-info.js';

export interface Metrics {
  middleware(): (req: Request, res: Response, next: NextFunction) => void;
  handle(req: Request, res: Response): Promise<void>;
}

export function newMetrics(): Metrics {
  const registry = newRegistry();
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
  return {
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
    handle: (_req, res) => serveMetrics(registry, res),
  };
}
