/**
 * Kubernetes' WithPriorityAndFairness, in the in-flight filter's place: a request is classified by
 * the FlowSchemas into a priority level, its seats estimated, and it runs, waits in its flow's
 * queues, or is answered 429 with Retry-After (plain text, as kube-apiserver; a flow that comes back
 * within the Retry-After it was given gets its next 429s after that long, reject-hold.ts). Every
 * answer names the matched FlowSchema and level by UID (X-Kubernetes-PF-*-UID). A watch holds its seat only
 * until it is initialized (the handler's promise settles once its storage watch is set up); other
 * long-running requests are not limited. A wait lasts at most a quarter of the request's timeout
 * (`?timeout=`, else --request-timeout), and never beyond a minute.
 */
import { parseGoDuration } from '../../component-base/flag/go-duration.js';
import { isLongRunning } from '../../endpoints/request/long-running.js';
import { requestInfoFrom } from '../../endpoints/request/request-info.js';
import { userFrom } from '../../endpoints/request/request-user.js';
import type { ConfigController } from '../flowcontrol/config-controller.js';
import type { FlowControlMetrics } from '../flowcontrol/metrics.js';
import type { Ticket } from '../flowcontrol/queue-set.js';
import { RejectHold } from '../flowcontrol/reject-hold.js';
import { RetryAfter } from '../flowcontrol/retry-after.js';
import { hashFlow } from '../flowcontrol/shuffle-shard.js';
import { estimateSeats } from '../flowcontrol/work-estimate.js';
import type { Handler } from './handler.js';

export const FLOW_SCHEMA_UID_HEADER = 'X-Kubernetes-PF-FlowSchema-UID';
export const PRIORITY_LEVEL_UID_HEADER = 'X-Kubernetes-PF-PriorityLevel-UID';
const MAX_WAIT_MS = 60_000;

export interface PriorityAndFairnessDeps {
  controller: ConfigController;
  metrics: FlowControlMetrics;
  /** Objects stored of a resource (by API group and resource), when known. */
  storedObjects(group: string, resource: string): number | undefined;
  /** --request-timeout. */
  requestTimeoutMs: number;
  chunking: boolean;
  consistentListFromCache: boolean;
}

function waitLimitMs(query: URLSearchParams, watch: boolean, requestTimeoutMs: number): number {
  let deadline = requestTimeoutMs;
  const timeout = watch ? null : query.get('timeout');
  if (timeout) {
    try {
      const ms = parseGoDuration(timeout);
      if (ms > 0) deadline = ms;
    } catch {
      // An unparsable timeout leaves the default.
    }
  }
  return Math.min(MAX_WAIT_MS, deadline / 4);
}

export function withPriorityAndFairness(handler: Handler, deps: PriorityAndFairnessDeps): Handler {
  const { controller, metrics } = deps;
  const retryAfter = new Map<string, RetryAfter>();
  const hold = new RejectHold();
  const write429 = (res: Parameters<Handler>[1], after: number) => {
    res.writeHead(429, {
      'Retry-After': String(after),
      'Cache-Control': 'no-cache, private',
      'Content-Type': 'text/plain; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
    });
    res.end('Too many requests, please try again later.\n');
  };
  const retryAfterOf = (level: string) => {
    let tracker = retryAfter.get(level);
    if (!tracker) retryAfter.set(level, (tracker = new RetryAfter()));
    return tracker.dropped();
  };
  const tooMany = (res: Parameters<Handler>[1], level: string) => write429(res, retryAfterOf(level));
  /** A rejection (the queues full): at once, or held while its flow ignores Retry-After (reject-hold.ts). */
  const rejected = (res: Parameters<Handler>[1], level: string, flow: string) => {
    const after = retryAfterOf(level);
    const ms = hold.delayFor(flow, after);
    if (ms === 0) return write429(res, after);
    const gone = () => {
      clearTimeout(timer);
      hold.release();
    };
    const timer = setTimeout(() => {
      res.off('close', gone);
      hold.release();
      if (!res.destroyed) write429(res, after);
    }, ms);
    res.once('close', gone);
  };
  return (req, res) => {
    const info = requestInfoFrom(req);
    const watch = info.verb === 'watch';
    if (!watch && isLongRunning(info)) return handler(req, res);
    const user = userFrom(req);
    const { schema, level, distinguisher } = controller.classify({
      user,
      isResourceRequest: info.isResourceRequest,
      verb: info.verb,
      apiGroup: info.apiGroup,
      namespace: info.namespace,
      resource: info.resource,
      subresource: info.subresource,
      path: info.path,
    });
    res.setHeader(PRIORITY_LEVEL_UID_HEADER, level.uid);
    res.setHeader(FLOW_SCHEMA_UID_HEADER, schema.metadata.uid ?? '');
    const fs = schema.metadata.name!;
    const pl = level.name;
    const seats = level.exempt
      ? 1
      : estimateSeats(info, {
          stored: info.verb === 'list' ? deps.storedObjects(info.apiGroup, info.resource) : undefined,
          maxSeats: level.maxSeats,
          chunking: deps.chunking,
          consistentFromCache: deps.consistentListFromCache,
        });
    metrics.estimatedSeats(pl, fs, seats);
    const qs = level.queueSet;
    let started: () => void = () => {};
    const ticket: Ticket = {
      seats,
      flowSchema: fs,
      distinguisher,
      arrivedAt: Date.now(),
      queueIndex: -1,
      request: {
        user: user.name,
        verb: info.verb,
        path: info.path,
        namespace: info.namespace,
        name: info.name,
        apiGroup: info.apiGroup,
        apiVersion: info.apiVersion,
        resource: info.resource,
        subresource: info.subresource,
      },
      onStart: () => started(),
    };
    const admission = qs.admit(ticket, () => hashFlow(fs, distinguisher));
    if (admission.outcome === 'reject') {
      metrics.rejected(pl, fs, admission.reason);
      return rejected(res, pl, `${fs}\u0000${distinguisher}`);
    }
    const run = () => {
      metrics.dispatched(pl, fs);
      metrics.executing(pl, fs, 1, seats);
      const start = Date.now();
      let done = false;
      const release = () => {
        if (done) return;
        done = true;
        qs.finish(ticket);
        metrics.executing(pl, fs, -1, seats);
        metrics.executed(pl, fs, (Date.now() - start) / 1000);
      };
      res.once('close', release);
      if (!watch) return handler(req, res);
      // A watch gives its seat back once initialized: when the handler's promise settles.
      let p: ReturnType<Handler>;
      try {
        p = handler(req, res);
      } catch (err) {
        release();
        throw err;
      }
      return Promise.resolve(p).finally(release);
    };
    if (admission.outcome === 'execute') return run();
    return (async () => {
      metrics.waiting(pl, fs, 1, seats);
      const outcome = await new Promise<'run' | 'time-out' | 'cancelled'>((resolve) => {
        const gone = () => {
          clearTimeout(timer);
          resolve('cancelled');
        };
        const timer = setTimeout(
          () => {
            req.off('close', gone);
            resolve('time-out');
          },
          waitLimitMs(info.query, watch, deps.requestTimeoutMs),
        );
        req.once('close', gone);
        started = () => {
          clearTimeout(timer);
          req.off('close', gone);
          resolve('run');
        };
      });
      metrics.waiting(pl, fs, -1, seats);
      const waited = (Date.now() - ticket.arrivedAt) / 1000;
      if (outcome !== 'run' && qs.withdraw(ticket, outcome)) {
        metrics.waited(pl, fs, false, waited);
        metrics.rejected(pl, fs, outcome);
        if (outcome === 'time-out') tooMany(res, pl);
        return;
      }
      metrics.waited(pl, fs, true, waited);
      return run();
    })();
  };
}
