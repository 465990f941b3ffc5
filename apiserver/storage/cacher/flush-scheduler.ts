/**
 * When watchers hand their waiting events to their clients. Each hand-over is a write to a TLS
 * socket with a fixed cost (a TLS record, a system call: ~8 µs here) on top of its bytes, so with
 * many watchers events are batched: a flush starts no sooner than `spacing` times the previous
 * flush's duration after it ended, and no later than maxDelayMs. With few watchers a flush takes
 * microseconds and events leave at once; with thousands (a flush of 1,000 takes ~10-30 ms), each
 * write carries the events of several milliseconds and the event loop keeps time for requests.
 */

export interface Flushable {
  flush(): void;
}

export class FlushScheduler {
  private readonly dirty = new Set<Flushable>();
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private running = false;
  private lastEnd = 0;
  private lastDuration = 0;

  constructor(
    private readonly spacing = 1,
    /** The longest a batch may be held back (ms). */
    private readonly maxDelayMs = 10,
  ) {}

  /** Flushes w soon. */
  add(w: Flushable): void {
    this.dirty.add(w);
    if (!this.running) this.schedule();
  }

  /** Forgets w (it stopped). */
  delete(w: Flushable): void {
    this.dirty.delete(w);
  }

  private schedule(): void {
    if (this.timer || this.immediate) return;
    const delay = Math.min(this.maxDelayMs, this.lastEnd + this.spacing * this.lastDuration - performance.now());
    if (delay <= 0) this.immediate = setImmediate(() => this.run());
    else this.timer = setTimeout(() => this.run(), delay);
  }

  private run(): void {
    this.timer = undefined;
    this.immediate = undefined;
    this.running = true;
    const started = performance.now();
    const batch = [...this.dirty];
    this.dirty.clear();
    for (const w of batch) w.flush();
    // Sinks send what they were given when they uncork, on the next tick: the flush lasts until then.
    process.nextTick(() => {
      this.running = false;
      this.lastEnd = performance.now();
      this.lastDuration = this.lastEnd - started;
      if (this.dirty.size) this.schedule();
    });
  }
}
