import { requestInfoFrom } from '../../endpoints/request/request-info.js';
import { isLongRunning } from '../../endpoints/request/long-running.js';
import { userFrom } from '../../endpoints/request/request-user.js';
import type { Handler } from './handler.js';

/** Requests that only read; every other verb is mutating. */
const READ_ONLY_VERBS = new Set(['get', 'list', 'watch']);
/** The group whose members are always answered (Kubernetes' system:masters). */
const PRIVILEGED_GROUP = 'system:masters';

export interface InFlightLimits {
  /** --max-requests-inflight: read-only requests served at once; 0 = unlimited. */
  readOnly: number;
  /** --max-mutating-requests-inflight: mutating requests served at once; 0 = unlimited. */
  mutating: number;
}

export interface MaxInFlightLimit {
  /** The filter that limits the requests of `handler`. */
  filter(handler: Handler): Handler;
  /**
   * The most requests served at once, by kind, since the last call (apiserver_current_inflight_requests,
   * which Kubernetes reports as a watermark); the next period starts from what is in flight now.
   */
  watermark(): { readOnly: number; mutating: number };
}

/**
 * Kubernetes' max-in-flight filter: a request beyond its kind's limit is answered at once with 429
 * and `Retry-After: 1` (plain text, as kube-apiserver answers), so an overloaded server sheds load
 * instead of queueing it in memory. Long-running requests (watch, proxy, exec, logs) are not
 * counted; members of system:masters are answered even when the limit is reached.
 */
export function newMaxInFlightLimit(limits: InFlightLimits): MaxInFlightLimit {
  const current = { readOnly: 0, mutating: 0 };
  const peak = { readOnly: 0, mutating: 0 };
  // One release function per kind, made once: a request adds a listener, not a closure.
  const release = { readOnly: () => current.readOnly--, mutating: () => current.mutating-- };
  return {
    watermark() {
      const out = { ...peak };
      Object.assign(peak, current);
      return out;
    },
    filter(handler) {
      return (req, res) => {
        const info = requestInfoFrom(req);
        if (isLongRunning(info)) return handler(req, res);
        const kind = READ_ONLY_VERBS.has(info.verb) ? 'readOnly' : 'mutating';
        const limit = limits[kind];
        if (limit === 0) return handler(req, res);
        if (current[kind] >= limit && !userFrom(req).groups.includes(PRIVILEGED_GROUP)) {
          res.writeHead(429, {
            'Retry-After': '1',
            'Cache-Control': 'no-cache, private',
            'Content-Type': 'text/plain; charset=utf-8',
            'X-Content-Type-Options': 'nosniff',
          });
          res.end('Too many requests, please try again later.\n');
          return;
        }
        if (++current[kind] > peak[kind]) peak[kind] = current[kind];
        res.on('close', release[kind]);
        return handler(req, res);
      };
    },
  };
}
