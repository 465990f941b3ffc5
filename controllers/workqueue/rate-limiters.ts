/**
 * client-go's workqueue rate limiters: how long an item waits before it is retried.
 */

export interface RateLimiter<T> {
  /** The delay before `item` is handed out again (each call counts a failure). */
  when(item: T): number;
  /** Stops tracking `item` (it succeeded). */
  forget(item: T): void;
  /** Failures counted for `item` since it was last forgotten. */
  numRequeues(item: T): number;
}

/** baseMs · 2^failures, capped at maxMs, per item. */
export class ItemExponentialFailureRateLimiter<T> implements RateLimiter<T> {
  private readonly failures = new Map<T, number>();

  constructor(
    private readonly baseMs: number,
    private readonly maxMs: number,
  ) {}

  when(item: T): number {
    const n = this.failures.get(item) ?? 0;
    this.failures.set(item, n + 1);
    return Math.min(this.baseMs * 2 ** n, this.maxMs);
  }

  forget(item: T): void {
    this.failures.delete(item);
  }

  numRequeues(item: T): number {
    return this.failures.get(item) ?? 0;
  }
}

/** A token bucket shared by all items: `qps` tokens a second, at most `burst` saved up. */
export class BucketRateLimiter<T> implements RateLimiter<T> {
  private tokens: number;
  private last: number;

  constructor(
    private readonly qps: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = burst;
    this.last = now();
  }

  /** Reserves one token; the wait is how long until it is there. */
  when(_item: T): number {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.qps) * 1000;
  }

  forget(_item: T): void {}

  numRequeues(_item: T): number {
    return 0;
  }
}

/** The longest delay any of the limiters asks for. */
export class MaxOfRateLimiter<T> implements RateLimiter<T> {
  private readonly limiters: RateLimiter<T>[];

  constructor(...limiters: RateLimiter<T>[]) {
    this.limiters = limiters;
  }

  when(item: T): number {
    return Math.max(...this.limiters.map((l) => l.when(item)));
  }

  forget(item: T): void {
    for (const l of this.limiters) l.forget(item);
  }

  numRequeues(item: T): number {
    return Math.max(...this.limiters.map((l) => l.numRequeues(item)));
  }
}

/** client-go's DefaultControllerRateLimiter: 5ms doubling to 1000s per item, 10 qps (burst 100) overall. */
export function defaultControllerRateLimiter<T>(): RateLimiter<T> {
  return new MaxOfRateLimiter<T>(new ItemExponentialFailureRateLimiter<T>(5, 1_000_000), new BucketRateLimiter<T>(10, 100));
}
