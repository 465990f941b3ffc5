/**
 * client-go's work queue, with its delaying and rate-limiting layers:
 *
 * - an item added while it waits is not added twice (de-duplication);
 * - an item is handed to one worker at a time: added again while being processed, it waits until the
 *   worker calls done() and is then queued once more;
 * - addAfter() queues an item later (the earliest of several requests wins);
 * - addRateLimited() queues it after the rate limiter's delay (per-item exponential backoff), and
 *   forget() resets that backoff once the item succeeds.
 *
 * Items are compared by identity (Set semantics): strings by value, objects by reference.
 */
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiters.js';

/** What a queue reports, e.g. to Prometheus. */
export interface QueueMetrics {
  added(): void;
  depth(n: number): void;
  retried(): void;
}

export interface WorkQueueOptions<T> {
  rateLimiter?: RateLimiter<T>;
  metrics?: QueueMetrics;
}

export class WorkQueue<T> {
  private readonly queue: T[] = [];
  private readonly dirty = new Set<T>();
  private readonly processing = new Set<T>();
  private readonly waiters: (() => void)[] = [];
  private readonly delayed = new Map<T, { timer: NodeJS.Timeout; readyAt: number }>();
  private shuttingDown = false;
  private readonly limiter: RateLimiter<T>;
  private readonly metrics?: QueueMetrics;

  constructor(opts: WorkQueueOptions<T> = {}) {
    this.limiter = opts.rateLimiter ?? defaultControllerRateLimiter<T>();
    this.metrics = opts.metrics;
  }

  /** Queues `item` unless it is already waiting. */
  add(item: T): void {
    if (this.shuttingDown || this.dirty.has(item)) return;
    this.metrics?.added();
    this.dirty.add(item);
    if (this.processing.has(item)) return;
    this.queue.push(item);
    this.metrics?.depth(this.queue.length);
    this.waiters.shift()?.();
  }

  /** The next item, waiting for one; undefined once the queue is shut down. */
  async get(): Promise<T | undefined> {
    while (this.queue.length === 0 && !this.shuttingDown) await new Promise<void>((resolve) => this.waiters.push(resolve));
    if (this.shuttingDown) return undefined;
    const item = this.queue.shift()!;
    this.metrics?.depth(this.queue.length);
    this.processing.add(item);
    this.dirty.delete(item);
    return item;
  }

  /** Marks `item` processed; if it was added meanwhile, it is queued again. */
  done(item: T): void {
    this.processing.delete(item);
    if (!this.dirty.has(item) || this.shuttingDown) return;
    this.queue.push(item);
    this.metrics?.depth(this.queue.length);
    this.waiters.shift()?.();
  }

  /** Queues `item` after `delayMs` (at once when ≤ 0); an earlier pending request for it wins. */
  addAfter(item: T, delayMs: number): void {
    if (this.shuttingDown) return;
    if (delayMs <= 0) {
      this.add(item);
      return;
    }
    const readyAt = Date.now() + delayMs;
    const pending = this.delayed.get(item);
    if (pending && pending.readyAt <= readyAt) return;
    if (pending) clearTimeout(pending.timer);
    const timer = setTimeout(() => {
      this.delayed.delete(item);
      this.add(item);
    }, delayMs);
    timer.unref();
    this.delayed.set(item, { timer, readyAt });
  }

  /** Queues `item` after the rate limiter's delay for it. */
  addRateLimited(item: T): void {
    this.metrics?.retried();
    this.addAfter(item, this.limiter.when(item));
  }

  /** Resets the rate limiter's backoff for `item`. */
  forget(item: T): void {
    this.limiter.forget(item);
  }

  numRequeues(item: T): number {
    return this.limiter.numRequeues(item);
  }

  /** Items waiting to be handed out. */
  len(): number {
    return this.queue.length;
  }

  /** Refuses new items and hands out no more: every get() resolves undefined from now on. */
  shutDown(): void {
    this.shuttingDown = true;
    for (const { timer } of this.delayed.values()) clearTimeout(timer);
    this.delayed.clear();
    this.waiters.splice(0).forEach((wake) => wake());
  }

  isShuttingDown(): boolean {
    return this.shuttingDown;
  }
}
