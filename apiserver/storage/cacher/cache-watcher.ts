/**
 * One client's watch on a resource cache: its selection, its initial events, the live changes the
 * cache offers it, and bookmarks — delivered in order to its sink at the pace the client reads.
 *
 * Live events wait in the watcher's queue (references to events shared by all watchers, encoded
 * once) until the flush scheduler hands them over, several at a time when many watchers are busy.
 * Memory stays bounded: while the client is behind (its sink said so), nothing more is handed over;
 * when more than `maxPending` events (or `maxPendingBytes` of them) wait, the client cannot keep up and the watch is closed (it
 * resumes from the last resourceVersion it got, or re-lists) rather than buffering without bound.
 * Initial events are produced from the snapshot only as fast as the client takes them, and do not
 * count against the limit; live events arriving meanwhile wait under it, so a watcher that cannot
 * take its initial events while changes come is closed like any other slow one. When asked, the
 * BOOKMARK ending the initial events goes out right after the last of them, before any live event.
 */
import type { ApiObject, WatchEvent } from '../../api/object.js';
import type { FlushScheduler } from './flush-scheduler.js';
import type { FrameEncoder } from './cached-object.js';
import { initialEvent, shownEvent, visibleAs, type CachedChange, type SharedEvent } from './watch-event.js';

/** Where a cache watcher's events go: the HTTP stream, in production. */
export interface CacheWatchSink {
  /**
   * Sends one event; `frame` gives it encoded as a JSON stream line (or the encoder's frame), shared
   * with other watchers.
   * Returns false when the client is behind: nothing more is sent until drained() resolves (any
   * other result: go on).
   */
  send(event: WatchEvent, frame?: (encoder?: FrameEncoder) => Buffer): unknown;
  /** The watch ended from the server side; `unresponsive`: because the client did not keep up. */
  close(reason?: 'unresponsive'): void;
  /** Resolves once a client that was behind has caught up. */
  drained?(): Promise<void>;
}

/** Which changes one watcher gets. */
export interface WatchTarget {
  /** Keys under this prefix, or only this key when `exactKey`. */
  prefix: string;
  exactKey: boolean;
  matches(obj: ApiObject): boolean;
  /** Only changes with a higher revision. */
  afterRevision: number;
}

export interface WatcherLimits {
  /** Live events that may wait for a client that is behind; one more closes the watch. */
  maxPending: number;
  /** Their bytes (as stored, SharedEvent.bytes) that may wait; more closes the watch, unless one event alone. */
  maxPendingBytes: number;
  /** How often a BOOKMARK goes out; 0 = never (the client did not allow them). */
  bookmarkIntervalMs: number;
}

type Pending = SharedEvent | { event: WatchEvent; frame?: undefined; bytes?: undefined };

export class CacheWatcher {
  private initial: readonly ApiObject[] = [];
  private initialSent = 0;
  /** The BOOKMARK to send once the initial events are out (a watch-list's end); undefined when sent or not asked. */
  private initialEventsEnd: ApiObject | undefined;
  private queue: Pending[] = [];
  private queueHead = 0;
  /** Bytes of queue[queueHead…]. */
  private queuedBytes = 0;
  private behind = false;
  private stopped = false;
  private bookmarks: NodeJS.Timeout | undefined;

  constructor(
    private readonly sink: CacheWatchSink,
    private readonly target: WatchTarget,
    private readonly limits: WatcherLimits,
    private readonly scheduler: FlushScheduler,
    /** The BOOKMARK object to send now, carrying the cache's revision. */
    private readonly bookmark: () => ApiObject,
    private readonly onStop: (w: CacheWatcher) => void,
  ) {}

  /** True once stopped (by the client, as slow, or by the cache). */
  get closed(): boolean {
    return this.stopped;
  }

  /**
   * Starts delivery at once: the initial objects as ADDED, then `initialEventsEnd` (a BOOKMARK) when
   * given, then the replayed changes; live ones follow.
   */
  start(initial: readonly ApiObject[], replay: CachedChange[], initialEventsEnd?: ApiObject): void {
    this.initial = initial;
    this.initialEventsEnd = initialEventsEnd;
    for (const change of replay) this.offer(change);
    this.flush();
    if (this.limits.bookmarkIntervalMs > 0) {
      this.bookmarks = setInterval(() => {
        const object = this.bookmark();
        // Not before the revision the client started from (it watches from a future one).
        if (Number(object.metadata.resourceVersion) >= this.target.afterRevision) this.enqueue({ event: { type: 'BOOKMARK', object } });
      }, this.limits.bookmarkIntervalMs);
      this.bookmarks.unref();
    }
  }

  /** A change of the resource, in revision order; ignored unless this watcher selects it. */
  offer(change: CachedChange): void {
    if (this.stopped || change.revision <= this.target.afterRevision) return;
    const { prefix, exactKey, matches } = this.target;
    if (exactKey ? change.key !== prefix : !change.key.startsWith(prefix)) return;
    const visible = visibleAs(change, matches);
    if (visible) this.enqueue(shownEvent(change, visible));
  }

  /** Hands what waits to the sink, in order, until the client is behind. */
  flush(): void {
    while (!this.stopped && !this.behind) {
      let item: Pending;
      if (this.initialSent < this.initial.length) item = initialEvent(this.initial[this.initialSent++]);
      else if (this.initialEventsEnd) {
        item = { event: { type: 'BOOKMARK', object: this.initialEventsEnd } };
        this.initialEventsEnd = undefined;
      } else if (this.queueHead < this.queue.length) {
        item = this.queue[this.queueHead++];
        this.queuedBytes -= item.bytes ?? 0;
      } else {
        this.initial = [];
        this.initialSent = 0;
        this.queue = [];
        this.queueHead = 0;
        this.queuedBytes = 0;
        return;
      }
      if (this.sink.send(item.event, item.frame) === false) this.waitForClient();
    }
  }

  /** Ends the watch from the client side (no close() on the sink). */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.bookmarks);
    this.scheduler.delete(this);
    this.initial = [];
    this.queue = [];
    this.onStop(this);
  }

  /** Ends the watch from the server side: the sink is closed, the client resumes or re-lists. */
  terminate(reason?: 'unresponsive'): void {
    if (this.stopped) return;
    this.stop();
    this.sink.close(reason);
  }

  private enqueue(item: Pending): void {
    if (this.stopped) return;
    this.queue.push(item);
    this.queuedBytes += item.bytes ?? 0;
    if (this.behind) this.closeIfTooFarBehind();
    else this.scheduler.add(this);
  }

  /**
   * While the client is behind, at most maxPending live events, of at most maxPendingBytes, may wait
   * (a burst between flushes may): the events are shared, but a watcher far behind holds on to ones
   * the window let go, and its client is better served re-watching.
   */
  private closeIfTooFarBehind(): void {
    const waiting = this.queue.length - this.queueHead;
    if (waiting > this.limits.maxPending || (waiting > 1 && this.queuedBytes > this.limits.maxPendingBytes)) this.terminate('unresponsive');
  }

  private waitForClient(): void {
    if (!this.sink.drained) return;
    this.behind = true;
    this.closeIfTooFarBehind();
    if (this.stopped) return;
    this.sink.drained().then(
      () => {
        this.behind = false;
        this.flush();
      },
      () => this.stop(),
    );
  }
}
