/**
 * The watch cache of a server: one storage watch (the feed) over everything under the storage
 * prefix, fanned out to one ResourceCache per resource, created on first use.
 *
 * Changes of resources without a cache yet are kept for a while (bounded like a cache's window), so
 * a cache created later can still replay them to watchers resuming from before it existed.
 *
 * Freshness: a consistent read (resourceVersion unset) asks the store for its current revision R
 * (RevisionBarrier) and waits until the feed has delivered R; then every change up to R is in the
 * caches, and the cache answers exactly what the store would at R or later. When the feed idles
 * below R (R was a write outside the prefix), the progress marker is written to move it past R.
 * When the feed is down or does not get there in time, the read goes to the store instead.
 */
import type { Logger } from 'winston';
import type { ApiObject } from '../../api/object.js';
import type { Storage, StorageEvent } from '../interfaces.js';
import { EventWindow } from './event-window.js';
import { FlushScheduler } from './flush-scheduler.js';
import { ProgressMarker, PROGRESS_MARKER } from './progress-marker.js';
import { ResourceCache, type Decoder, type ReceivedEvent } from './resource-cache.js';
import { RevisionBarrier } from './revision-barrier.js';
import { StoreFeed } from './store-feed.js';

export interface CacherConfig {
  storage: Storage;
  /** The storage prefix every resource lives under (--etcd-prefix). */
  prefix: string;
  /** The most changes a resource's window keeps (--default-watch-cache-size). */
  windowSize: number;
  /** Live events that may wait for a slow watcher before it is closed; default 1000. */
  maxPendingEvents?: number;
  /** Their bytes (as stored) that may wait for it; default 16 MiB (one event of any size always may). */
  maxPendingBytes?: number;
  /** How long a read waits for the caches to catch up before reading the store (ms); default 1 s. */
  freshnessTimeoutMs?: number;
  /** The least time between two snapshots a resource keeps for paged lists (ms); default 100. */
  snapshotIntervalMs?: number;
  /** false: consistent reads go to the store (the ConsistentListFromCache feature gate); default true. */
  consistentReads?: boolean;
  logger?: Logger;
}

/**
 * Follows the feed (Cacher.follow): told of every change routed, in revision order, and of every loss
 * of history (changes may then have been missed).
 */
export interface ChangeListener {
  change(key: string, revision: number): void;
  reset(): void;
}

/** What the cacher needs of a served resource (a GenericStore has it). */
export interface CachedKind {
  def: { kind: string; apiVersion: string };
  keys: { listPrefix(namespace: string): string };
  decode: Decoder;
}

/**
 * What a read needs of the cache: 'any' — whatever it holds (resourceVersion "0"); 'latest' — a
 * consistent read; a number — at least that revision (which the store is known to have).
 */
export type Freshness = 'any' | 'latest' | number;

/** How long changes stay in a window (the count bound may drop them sooner). */
const WINDOW_MS = 5 * 60_000;
/** How long the feed may idle below a revision a reader waits for before the marker is written. */
const PROGRESS_IDLE_MS = 10;

export class Cacher {
  private readonly feed: StoreFeed;
  private readonly barrier: RevisionBarrier;
  private readonly marker: ProgressMarker;
  /** By kind: kinds sharing storage (a storage conversion) share keys but decode differently. */
  private readonly caches = new Map<CachedKind, ResourceCache>();
  /** Per kind: the window of a re-created cache must start after what its failed load swallowed. */
  private readonly lostHistory = new Map<CachedKind, number>();
  private history: EventWindow<ReceivedEvent>;
  private started: Promise<boolean>;
  private nudger: NodeJS.Timeout | undefined;
  private readonly bounds;
  private readonly scheduler = new FlushScheduler();
  private readonly listeners = new Set<ChangeListener>();

  constructor(private readonly config: CacherConfig) {
    const root = `${config.prefix.replace(/\/+$/, '')}/`;
    this.bounds = { maxEvents: config.windowSize, maxAgeMs: WINDOW_MS };
    this.history = new EventWindow(this.bounds, 0);
    this.barrier = new RevisionBarrier(() => config.storage.currentRevision());
    this.marker = new ProgressMarker(config.storage, root + PROGRESS_MARKER);
    this.feed = new StoreFeed(
      config.storage,
      root,
      { onEvent: (e) => this.route(e), onReset: (r) => this.reset(r) },
      { logger: config.logger },
    );
    this.started = this.start();
  }

  /**
   * The resource's cache, created on first use, when it can serve a read of the given freshness;
   * undefined when the store must answer instead. With `wait: false` a cache still loading is not
   * waited for.
   */
  async readable(kind: CachedKind, freshness: Freshness, { wait = true } = {}): Promise<ResourceCache | undefined> {
    const cache = await this.resource(kind);
    if (!cache || (!wait && !cache.loaded)) return undefined;
    try {
      await cache.ready;
    } catch {
      return undefined;
    }
    if (freshness === 'any') return cache;
    if (!this.feed.running || (freshness === 'latest' && this.config.consistentReads === false)) return undefined;
    let revision = freshness;
    if (revision === 'latest') {
      try {
        revision = await this.barrier.current();
      } catch {
        return undefined;
      }
    }
    return (await this.caughtUp(revision)) ? cache : undefined;
  }

  /**
   * The objects of the kind's cache while it is loaded and fed; undefined when the kind has no such
   * cache (none is created for asking).
   */
  objectCount(kind: CachedKind): number | undefined {
    const cache = this.caches.get(kind);
    return cache?.loaded && this.feed.running ? cache.size : undefined;
  }

  /**
   * The store's current revision once the feed has routed every change up to it (so every cache and
   * listener has seen them); undefined when the feed is down or does not get there in time.
   */
  async caughtUpWithStore(): Promise<number | undefined> {
    if (!(await this.started) || !this.feed.running) return undefined;
    try {
      const revision = await this.barrier.current();
      return (await this.caughtUp(revision)) ? revision : undefined;
    } catch {
      return undefined;
    }
  }

  /** Tells `listener` of every change from now on (and of lost history); returns a stop function. */
  follow(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Watchers attached to all caches. */
  get watcherCount(): number {
    let n = 0;
    for (const cache of this.caches.values()) n += cache.watcherCount;
    return n;
  }

  /** A kind is no longer served (a custom resource's definition went or changed): its cache and watchers are closed. */
  forget(kind: CachedKind): void {
    this.caches.get(kind)?.close();
    this.caches.delete(kind);
    this.lostHistory.delete(kind);
  }

  /** Stops the feed and closes every watcher. */
  async close(): Promise<void> {
    clearTimeout(this.nudger);
    await this.started;
    this.feed.close();
    for (const cache of this.caches.values()) cache.close();
    this.caches.clear();
  }

  private async start(): Promise<boolean> {
    try {
      await this.feed.start();
      this.history = new EventWindow(this.bounds, this.feed.revision);
      return true;
    } catch (err) {
      this.config.logger?.warn('watch cache could not start; reads go to the store until it does', { error: String(err) });
      return false;
    }
  }

  private async resource(kind: CachedKind): Promise<ResourceCache | undefined> {
    const started = this.started;
    if (!(await started)) {
      // The feed could not start (the store was down): one of the readers tries again.
      if (this.started === started) this.started = this.start();
      if (!(await this.started)) return undefined;
    }
    let cache = this.caches.get(kind);
    if (cache) return cache;
    const root = kind.keys.listPrefix('');
    const history = this.history.after(this.history.startRevision).filter((r) => r.event.kv.key.startsWith(root));
    cache = new ResourceCache({
      storage: this.config.storage,
      root,
      decode: (kv, revision) => kind.decode(kv, revision),
      bounds: this.bounds,
      history,
      historyStart: Math.max(this.history.startRevision, this.lostHistory.get(kind) ?? 0),
      feedRevision: () => this.feed.revision,
      bookmark: (revision) =>
        ({ kind: kind.def.kind, apiVersion: kind.def.apiVersion, metadata: { resourceVersion: String(revision) } }) as ApiObject,
      maxPending: this.config.maxPendingEvents ?? 1000,
      maxPendingBytes: this.config.maxPendingBytes ?? 16 * 1024 * 1024,
      scheduler: this.scheduler,
      snapshotIntervalMs: this.config.snapshotIntervalMs ?? 100,
    });
    this.caches.set(kind, cache);
    const created = cache;
    cache.ready.catch((err: unknown) => {
      this.config.logger?.warn('watch cache could not load; reads go to the store', { root, error: String(err) });
      if (this.caches.get(kind) !== created) return;
      this.caches.delete(kind);
      this.lostHistory.set(kind, this.feed.revision);
    });
    return cache;
  }

  /** A change from the feed: to the caches of its resource, or to the history while there are none. */
  private route(event: StorageEvent): void {
    const received = { event, revision: event.kv.modRevision, receivedAt: Date.now() };
    for (const l of this.listeners) l.change(event.kv.key, event.kv.modRevision);
    let cached = false;
    for (const cache of this.caches.values()) {
      if (!event.kv.key.startsWith(cache.root)) continue;
      cache.apply(received);
      cached = true;
    }
    if (!cached) this.history.push(received);
  }

  /** The feed lost history: every watcher is closed and every cache rebuilt on next use. */
  private reset(revision: number): void {
    this.history = new EventWindow(this.bounds, revision);
    this.lostHistory.clear();
    for (const l of this.listeners) l.reset();
    for (const cache of this.caches.values()) cache.close();
    this.caches.clear();
  }

  /** Waits until the feed has delivered `revision`, writing the progress marker if it idles below. */
  private caughtUp(revision: number): Promise<boolean> {
    const reached = this.feed.waitFor(revision, this.config.freshnessTimeoutMs ?? 1000);
    if (this.feed.revision < revision) this.nudgeWhileBehind();
    return reached;
  }

  private nudgeWhileBehind(): void {
    if (this.nudger) return;
    this.nudger = setTimeout(() => {
      this.nudger = undefined;
      if (!this.feed.behind || !this.feed.running) return;
      if (Date.now() - this.feed.lastEventTime >= PROGRESS_IDLE_MS) {
        this.marker
          .bump()
          .catch((err: unknown) => this.config.logger?.warn('watch cache progress marker write failed', { error: String(err) }));
      }
      this.nudgeWhileBehind();
    }, PROGRESS_IDLE_MS);
    this.nudger.unref();
  }
}
