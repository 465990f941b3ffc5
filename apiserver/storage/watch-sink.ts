import type { StorageEvent, StorageWatcher, WatchHandlers } from './interfaces.js';

/**
 * The delivering end of one watch, shared by the backends. The backend pushes events in revision
 * order and at most one failure; the sink hands them to the handlers asynchronously (never on the
 * backend's stack, so a slow or throwing handler cannot hold a write or a stream) and in order.
 *
 * It ends exactly once, calling `release` (the backend frees its stream or subscription then):
 * - stop(): nothing more is delivered, not even queued events; idempotent.
 * - fail(err): the events pushed before are still delivered, then onError(err) once.
 * - a handler that throws: the watch ends and onError receives what it threw.
 */
export class WatchSink implements StorageWatcher {
  private queue: StorageEvent[] = [];
  /** Index of the next event of `queue` to deliver. */
  private head = 0;
  private failure: Error | null = null;
  private ended = false;
  private delivered = false;
  private scheduled = false;

  constructor(
    private readonly handlers: WatchHandlers,
    private readonly release: () => void,
  ) {}

  /** True once the watch has ended (stopped, failed or its handler threw). */
  get closed(): boolean {
    return this.ended;
  }

  /** Queues an event; ignored once the watch has ended. */
  push(event: StorageEvent): void {
    if (this.ended) return;
    this.queue.push(event);
    this.schedule();
  }

  /** Ends the watch with an error, delivered after the events already pushed; ignored once ended. */
  fail(err: Error): void {
    if (this.ended) return;
    this.end();
    this.failure = err;
    this.schedule();
  }

  stop(): void {
    if (this.delivered) return;
    this.delivered = true;
    this.clearQueue();
    if (!this.ended) this.end();
  }

  private clearQueue(): void {
    this.queue = [];
    this.head = 0;
  }

  private end(): void {
    this.ended = true;
    this.release();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.drain());
  }

  private drain(): void {
    this.scheduled = false;
    // Events pushed by a handler while this runs join the queue and are delivered in this loop too.
    while (!this.delivered && this.head < this.queue.length) {
      const event = this.queue[this.head++];
      try {
        this.handlers.onEvent(event);
      } catch (err) {
        this.clearQueue();
        if (!this.ended) this.end();
        this.failure = err instanceof Error ? err : new Error(String(err));
      }
    }
    this.clearQueue();
    if (this.failure && !this.delivered) {
      this.delivered = true;
      this.handlers.onError(this.failure);
    }
  }
}
