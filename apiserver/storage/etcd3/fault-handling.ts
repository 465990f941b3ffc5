/**
 * The etcd client's retry and circuit-breaker policy (given to the etcd3 client: a budgeted retry loop,
 * budgeted-retry.ts, and a cockatiel circuit breaker per host).
 *
 * The client's defaults did not fit a cluster: each of up to 3 tries had the full request deadline,
 * so a request to an unresponsive cluster took ≈3× the timeout; and a host that failed 3 times in a
 * row was refused for 5 s whatever the failure, so while a new etcd leader was elected (the members
 * answer "leader changed" / "no leader") every healthy member was shut out for 5 s after the
 * election ended. Chosen instead:
 * - one budget per request: the request timeout bounds the whole call, retries included, and each
 *   try's gRPC deadline is half of it, so a member that accepts requests but never answers (a
 *   stopped or partitioned process) leaves time for a second try on another member;
 * - retries of connection-level and transient server failures (the client's "recoverable" errors:
 *   unavailable, deadline exceeded, leader changed, …), each on a host picked afresh, after 50 ms,
 *   100 ms, 200 ms… (at most 1 s), as long as the budget lasts. A write whose first try committed
 *   comes back as KeyExists/Conflict on the retry, which the store already handles (guaranteedUpdate
 *   re-reads); a create reports AlreadyExists, never a lost or doubled write;
 * - a host's breaker opens after 3 connection failures in a row (refused, reset, unreachable: not
 *   etcd's own answers such as "leader changed", which say the member is up) and lets one request
 *   through again after 1 s, so a restarted member is used again within about a second.
 */
import { isRecoverableError, type IOptions } from 'etcd3';
import { circuitBreaker, ConsecutiveBreaker, handleWhen } from 'cockatiel';
import { BudgetedRetryPolicy } from './budgeted-retry.js';

/** Connection failures in a row that open a host's breaker. */
export const HOST_FAILURES_TO_OPEN = 3;
/** How long an open breaker refuses its host before letting one request through. */
export const HOST_HALF_OPEN_AFTER_MS = 1000;
const FIRST_RETRY_DELAY_MS = 50;
const MAX_RETRY_DELAY_MS = 1000;
/** Retries per request at most (the time budget usually ends them first). */
const MAX_RETRIES = 20;

/** The client options carrying the policy, for requests bounded by `timeoutMs` each. */
export function etcdFaultHandling(timeoutMs: number): {
  faultHandling: { global: BudgetedRetryPolicy; host: NonNullable<NonNullable<IOptions['faultHandling']>['host']> };
} {
  return {
    faultHandling: {
      // One loop and one timer per request (budgeted-retry.ts), not cockatiel's timeout and retry.
      global: new BudgetedRetryPolicy({
        budgetMs: timeoutMs,
        maxRetries: MAX_RETRIES,
        retryable: (err) => err instanceof Error && isRecoverableError(err),
        delayMs: (attempt) => Math.min(FIRST_RETRY_DELAY_MS * 2 ** (attempt - 1), MAX_RETRY_DELAY_MS),
      }),
      host: () =>
        circuitBreaker(handleWhen(isConnectionFailure), {
          halfOpenAfter: HOST_HALF_OPEN_AFTER_MS,
          breaker: new ConsecutiveBreaker(HOST_FAILURES_TO_OPEN),
        }),
    },
  };
}

/** The gRPC deadline of one try of a request whose whole budget is `timeoutMs`. */
export function perTryDeadlineMs(timeoutMs: number): number {
  return Math.ceil(timeoutMs / 2);
}

/** A failure to reach the member at all, as opposed to an answer from it (etcd's own errors say "etcdserver:"). */
export function isConnectionFailure(err: Error): boolean {
  return isRecoverableError(err) && !err.message.includes('etcdserver:');
}
