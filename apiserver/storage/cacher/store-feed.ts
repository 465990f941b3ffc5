/**
 * The one storage watch behind every cache of a server: every key under the root, in revision order.
 *
 * It follows the store from the revision it started at. When the watch fails (etcd unavailable, a
 * stream ended) it resumes after the last revision delivered, so nothing is skipped or repeated; when
 * that revision has been compacted away meanwhile, the history is lost and it restarts at the current
 * revision after telling its handler to start over (onReset).
 *
 * `revision` is the revision of the last event delivered: every event under the root up to it has
 * been handed to onEvent. Readers wait on it (waitFor) to know the caches have caught up.
 */
import type { Logger } from 'winston';
import { isStorageError } from '../errors.js';
import type { Storage, StorageEvent, StorageWatcher } from '../interfaces.js';

export interface FeedHandler {
  onEvent(event: StorageEvent): void;
  /** History was lost: the feed continues after `revision`; everything cached must be rebuilt. */
  onReset(revision: number): void;
}

export interface FeedOptions {
  /** The first delay before resuming a failed watch (ms); doubles up to 5 s. */
  retryDelayMs?: number;
  logger?: Logger;
}

const MAX_RETRY_DELAY_MS = 5000;

interface Waiter {
  revision: number;
  resolve(reached: boolean): void;
  timer: NodeJS.Timeout;
}

export class StoreFeed {
  private current = 0;
  private watcher: StorageWatcher | undefined;
  private live = false;
  private closed = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryDelay: number;
  private waiters: Waiter[] = [];
  private lastEventAt = 0;

  constructor(
    private readonly storage: Storage,
    private readonly root: string,
    private readonly handler: FeedHandler,
    private readonly options: FeedOptions = {},
  ) {
    this.retryDelay = options.retryDelayMs ?? 100;
  }

  /** Every event up to this revision has been delivered. */
  get revision(): number {
    return this.current;
  }

  /** True while the storage watch is open (false before start, while resuming, after close). */
  get running(): boolean {
    return this.live;
  }

  /** When the last event arrived (Date.now()), 0 before any. */
  get lastEventTime(): number {
    return this.lastEventAt;
  }

  /** Starts following the store from its current revision. */
  async start(): Promise<void> {
    this.current = await this.storage.currentRevision();
    this.open();
  }

  /** Resolves true once `revision` has been delivered, false after timeoutMs or when closed. */
  waitFor(revision: number, timeoutMs: number): Promise<boolean> {
    if (this.current >= revision) return Promise.resolve(true);
    if (this.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        revision,
        resolve,
        timer: setTimeout(() => {
          this.waiters = this.waiters.filter((w) => w !== waiter);
          resolve(false);
        }, timeoutMs),
      };
      this.waiters.push(waiter);
    });
  }

  /** True when some reader waits for a revision not delivered yet. */
  get behind(): boolean {
    return this.waiters.length > 0;
  }

  close(): void {
    this.closed = true;
    this.live = false;
    clearTimeout(this.retryTimer);
    this.watcher?.stop();
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.resolve(false);
    }
  }

  private open(): void {
    if (this.closed) return;
    this.live = true;
    // Only the current watch may deliver: a replaced one is stopped, this guards against stragglers.
    const watcher: StorageWatcher = this.storage.watch(
      this.root,
      { afterRevision: this.current },
      {
        onEvent: (event) => {
          if (this.watcher === watcher) this.deliver(event);
        },
        onError: (err) => {
          if (this.watcher === watcher) this.failed(err);
        },
      },
    );
    this.watcher = watcher;
  }

  private deliver(event: StorageEvent): void {
    this.handler.onEvent(event);
    this.current = event.kv.modRevision;
    this.lastEventAt = Date.now();
    this.retryDelay = this.options.retryDelayMs ?? 100;
    if (this.waiters.length) this.release();
  }

  private release(): void {
    const still: Waiter[] = [];
    for (const w of this.waiters) {
      if (w.revision <= this.current) {
        clearTimeout(w.timer);
        w.resolve(true);
      } else still.push(w);
    }
    this.waiters = still;
  }

  private failed(err: Error): void {
    this.live = false;
    this.watcher?.stop();
    this.watcher = undefined;
    if (this.closed) return;
    if (isStorageError(err, 'Compacted')) {
      this.options.logger?.warn('watch cache fell behind a compaction; rebuilding', { revision: this.current, error: String(err) });
      void this.restart();
      return;
    }
    this.options.logger?.warn('watch cache storage watch failed; resuming', { revision: this.current, error: String(err) });
    this.retryLater(() => this.open());
  }

  /** After lost history: continue from the store's current revision and have everything rebuilt. */
  private async restart(): Promise<void> {
    try {
      const revision = await this.storage.currentRevision();
      if (this.closed) return;
      this.current = revision;
      this.handler.onReset(revision);
      this.open();
      this.release();
    } catch (err) {
      this.options.logger?.warn('watch cache restart failed; retrying', { error: String(err) });
      this.retryLater(() => void this.restart());
    }
  }

  private retryLater(fn: () => void): void {
    const delay = this.retryDelay;
    this.retryDelay = Math.min(this.retryDelay * 2, MAX_RETRY_DELAY_MS);
    this.retryTimer = setTimeout(fn, delay);
    this.retryTimer.unref();
  }
}
