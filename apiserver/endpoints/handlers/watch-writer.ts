/**
 * The byte side of one watch response: frames wait here, in order, and go to the socket in writes of
 * at most `writeBytes`, the next only once the socket took the previous one.
 *
 * Why: what is handed to a TLS socket is encrypted at once, into a copy of its own per connection,
 * held until the kernel takes it. Handing a 1 MB event to 1,000 watchers that do not read made
 * 1,000 encrypted copies (≈1 GB); handed over a slice at a time, each connection holds at most one
 * slice, and the frames waiting here are the watchers' shared encodings (the cache encodes an event
 * once), not copies.
 *
 * A client that leaves more than `maxBacklogBytes` unread (waiting here and in the response) is too
 * slow to follow: the watch is closed (it resumes from the last resourceVersion it got, or re-lists),
 * as Kubernetes' cacher closes a watcher whose buffer stays full. One frame of any size always fits.
 */

export interface WatchWriterLimits {
  /** Unread bytes (queued and in the response) past which the watch is closed; one frame always fits. */
  maxBacklogBytes: number;
  /** The most bytes handed to the socket at once (and so encrypted per connection). */
  writeBytes: number;
}

/** 64 KiB writes: large enough for few system calls, small enough that 1,000 slow watchers hold 64 MB. */
export const DEFAULT_WRITE_BYTES = 64 * 1024;
/** 4 MiB unread beyond what the kernel buffers: a client that far behind re-watches instead. */
export const DEFAULT_MAX_BACKLOG_BYTES = 4 * 1024 * 1024;

/** What the writer needs of the response (a ServerResponse has it). */
export interface WatchResponse {
  write(chunk: Buffer): boolean;
  end(): void;
  destroy(): void;
  readonly writableLength: number;
  readonly writableHighWaterMark: number;
  once(event: 'drain', listener: () => void): unknown;
}

export class WatchWriter {
  private frames: (Buffer | undefined)[] = [];
  private head = 0;
  /** Bytes of frames[head] already written. */
  private offset = 0;
  private queued = 0;
  private scheduled = false;
  private waitingForDrain = false;
  private finishing = false;
  private done = false;
  private drainWaiters: (() => void)[] = [];

  constructor(
    private readonly res: WatchResponse,
    private readonly limits: WatchWriterLimits,
    /** The client left more than maxBacklogBytes unread (given): the writer has stopped. */
    private readonly onTooSlow: (unreadBytes: number) => void,
  ) {}

  /** Unread bytes: queued here and held by the response. */
  get backlog(): number {
    return this.queued + this.res.writableLength;
  }

  /** True while more waits than the response's high-water mark: the caller should wait for drained(). */
  get behind(): boolean {
    return this.backlog >= this.res.writableHighWaterMark;
  }

  /**
   * Queues one frame (not copied: it may be shared with other watchers) to be written after the
   * current tick, with whatever else is pushed in it. Returns false when the client is behind.
   */
  push(frame: Buffer): boolean {
    if (this.done || this.finishing) return true;
    this.frames.push(frame);
    this.queued += frame.length;
    const backlog = this.backlog;
    if (backlog > this.limits.maxBacklogBytes && this.frames.length - this.head > 1) {
      this.abandon();
      this.onTooSlow(backlog);
      return true;
    }
    this.schedule();
    return !this.behind;
  }

  /** Resolves once everything queued has been handed over and the response has drained. */
  drained(): Promise<void> {
    if (this.done || (this.head === this.frames.length && !this.waitingForDrain && !this.scheduled)) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  /** Ends the response once what is queued is written. */
  finish(): void {
    if (this.done || this.finishing) return;
    this.finishing = true;
    this.schedule();
  }

  /**
   * Stops at once, dropping what is queued: the response ends cleanly when no frame is cut, else the
   * connection is closed (a half-written frame must not look whole).
   */
  abandon(): void {
    if (this.done) return;
    const cut = this.offset > 0;
    this.stop();
    if (cut) this.res.destroy();
    else this.res.end();
  }

  /** Stops without another write (the connection is gone). */
  close(): void {
    this.stop();
  }

  private stop(): void {
    this.done = true;
    this.frames = [];
    this.head = 0;
    this.offset = 0;
    this.queued = 0;
    this.resolveDrained();
  }

  private schedule(): void {
    if (this.scheduled || this.waitingForDrain) return;
    this.scheduled = true;
    process.nextTick(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    const { writeBytes } = this.limits;
    while (!this.done && this.head < this.frames.length) {
      // Whole small frames together, or one slice of a large one (a view, not a copy).
      const parts: Buffer[] = [];
      let n = 0;
      while (this.head < this.frames.length && n < writeBytes) {
        const frame = this.frames[this.head]!;
        const take = Math.min(frame.length - this.offset, writeBytes - n);
        parts.push(this.offset === 0 && take === frame.length ? frame : frame.subarray(this.offset, this.offset + take));
        n += take;
        this.offset += take;
        if (this.offset === frame.length) {
          this.frames[this.head++] = undefined;
          this.offset = 0;
        }
      }
      this.queued -= n;
      const more = this.res.write(parts.length === 1 ? parts[0] : Buffer.concat(parts, n));
      if (!more) {
        this.waitingForDrain = true;
        this.res.once('drain', () => {
          this.waitingForDrain = false;
          this.pump();
        });
        return;
      }
    }
    if (this.done) return;
    this.frames = [];
    this.head = 0;
    if (this.finishing) {
      this.stop();
      this.res.end();
      return;
    }
    this.resolveDrained();
  }

  private resolveDrained(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
