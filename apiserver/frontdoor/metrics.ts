/**
 * The front door's own metrics, in the binary's registry: what each replica answered, how long it
 * took, retries, failed forwards, requests in flight and which replicas are ready.
 */
import client from 'prom-client';
import type { Registry } from '../component-base/metrics/registry.js';

export interface ProxyMetrics {
  /** Answers to clients by replica ("none" when no replica answered), method and status code. */
  requests: client.Counter<'backend' | 'method' | 'code'>;
  /** Time until the answer's headers (watches included: their time to first byte). */
  duration: client.Histogram<'backend' | 'method'>;
  /** Requests tried again on another replica, by the replica that failed. */
  retries: client.Counter<'backend'>;
  /** Forwards that failed, by replica and phase: connect (no byte sent), request (no answer), response (cut mid-answer). */
  errors: client.Counter<'backend' | 'phase'>;
  inflight: client.Gauge<'backend'>;
  /** 1 while the replica gets new requests. */
  ready: client.Gauge<'backend'>;
}

export function newProxyMetrics(registry: Registry): ProxyMetrics {
  const registers = [registry];
  return {
    requests: new client.Counter({
      name: 'orch_proxy_requests_total',
      help: 'Requests answered through the front door, by replica, method and HTTP status code.',
      labelNames: ['backend', 'method', 'code'],
      registers,
    }),
    duration: new client.Histogram({
      name: 'orch_proxy_request_duration_seconds',
      help: "Seconds from a request's arrival to its answer's headers, by replica and method.",
      labelNames: ['backend', 'method'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    }),
    retries: new client.Counter({
      name: 'orch_proxy_retries_total',
      help: 'Requests tried again on another replica, by the replica that failed them.',
      labelNames: ['backend'],
      registers,
    }),
    errors: new client.Counter({
      name: 'orch_proxy_backend_errors_total',
      help: 'Forwards that failed, by replica and phase (connect, request, response).',
      labelNames: ['backend', 'phase'],
      registers,
    }),
    inflight: new client.Gauge({
      name: 'orch_proxy_inflight_requests',
      help: 'Requests being forwarded to each replica, watches included.',
      labelNames: ['backend'],
      registers,
    }),
    ready: new client.Gauge({
      name: 'orch_proxy_backend_ready',
      help: '1 while the replica passes its /readyz checks and gets new requests, else 0.',
      labelNames: ['backend'],
      registers,
    }),
  };
}
