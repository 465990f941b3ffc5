/**
 * The watch cache of one resource: its current objects (decoded once, frozen, in key order), a
 * sliding window of its recent changes, and the watchers fed from both.
 *
 * It is built from one list of the store while the feed keeps running: changes that arrive during
 * the list are held back, then those newer than the list are applied, so nothing is missed or
 * applied twice. History the feed kept from before (changes of this resource while it had no
 * cache) seeds the window, so watchers can resume from revisions older than the cache itself.
 *
 * Paged lists read the resource at their first page's revision: from the current objects while no
 * change came since, else from a snapshot taken before the change (list-snapshots.ts).
 */
import type { ApiObject } from '../../api/object.js';
import { StorageError } from '../errors.js';
import type { KeyValue, Storage, StorageEvent } from '../interfaces.js';
import { deepFreeze, withRevision } from './cached-object.js';
import { CacheWatcher, type CacheWatchSink, type WatchTarget } from './cache-watcher.js';
import { EventWindow, type WindowBounds, type Windowed } from './event-window.js';
import type { FlushScheduler } from './flush-scheduler.js';
import { ListSnapshot, ListSnapshots, readPage, type CachedPage, type ListView, type PageOptions } from './list-snapshots.js';
import { SortedKeys } from './sorted-keys.js';
import type { CachedChange } from './watch-event.js';

/** A store event as the feed received it. */
export interface ReceivedEvent extends Windowed {
  event: StorageEvent;
}

/** Decodes a stored value as served (the resourceVersion: `revision`, or the value's modRevision). */
export type Decoder = (kv: KeyValue, revision?: number) => ApiObject;

export interface ResourceCacheOptions {
  storage: Storage;
  /** Every key of the resource starts with it (the list prefix of all namespaces). */
  root: string;
  decode: Decoder;
  bounds: WindowBounds;
  /** Changes of the resource the feed received before this cache existed, and since when it has all. */
  history: ReceivedEvent[];
  historyStart: number;
  /** The feed's revision: every change up to it has been applied. */
  feedRevision(): number;
  /** The BOOKMARK object of the kind, with a resourceVersion. */
  bookmark(revision: number): ApiObject;
  /** Live events, and their bytes, that may wait for a slow watcher before it is closed. */
  maxPending: number;
  maxPendingBytes: number;
  /** When watchers hand their events to their clients. */
  scheduler: FlushScheduler;
  /**
   * The least time between two snapshots for paged lists (ms): a copy costs O(objects), so writes
   * interleaved with paged lists copy at most this often; a generation not copied continues from the store.
   */
  snapshotIntervalMs: number;
}

/** Objects read per store request while loading. */
const LOAD_PAGE_SIZE = 10_000;
/** Snapshots kept for paged lists (see list-snapshots.ts): each holds two arrays the size of the resource. */
const MAX_SNAPSHOTS = 8;
/** How long a paged list may read a snapshot (ms); later pages go to the store. */
const SNAPSHOT_MAX_AGE_MS = 60_000;

export type { CachedPage, PageOptions } from './list-snapshots.js';

export class ResourceCache {
  /** Resolves once loaded; rejects when the initial list failed. */
  readonly ready: Promise<void>;
  private readonly objects = new Map<string, ApiObject>();
  private readonly keys = new SortedKeys();
  private readonly watchers = new Set<CacheWatcher>();
  private readonly window: EventWindow<CachedChange>;
  /** Feed events held back while loading; undefined once loaded. */
  private held: ReceivedEvent[] | undefined = [];
  private listRevision = 0;
  /** The current objects are the store's at every revision from here to `revision` (none before loading). */
  private generationStart = Number.POSITIVE_INFINITY;
  /** A continue token reads the current generation: the next change snapshots it first. */
  private pinned = false;
  private readonly snapshots = new ListSnapshots({ maxCount: MAX_SNAPSHOTS, maxAgeMs: SNAPSHOT_MAX_AGE_MS });
  /** The current objects as a list view. */
  private readonly current: ListView = {
    keys: this.keys,
    object: (i) => this.objects.get(this.keys.at(i))!,
  };

  constructor(private readonly options: ResourceCacheOptions) {
    this.window = new EventWindow(options.bounds, options.historyStart);
    this.ready = this.load();
    this.ready.catch(() => {});
  }

  /** The prefix of every key of the resource. */
  get root(): string {
    return this.options.root;
  }

  /** The revision the cache shows the resource at. */
  get revision(): number {
    return Math.max(this.listRevision, this.options.feedRevision());
  }

  /** True once loaded. */
  get loaded(): boolean {
    return this.held === undefined;
  }

  /** Watchers currently attached. */
  get watcherCount(): number {
    return this.watchers.size;
  }

  /** The objects held now (none before it is loaded). */
  get size(): number {
    return this.objects.size;
  }

  /**
   * A change of the resource from the feed, in revision order. One the initial list already showed
   * (the feed can deliver it after the list returned) only joins the window.
   */
  apply(received: ReceivedEvent): void {
    if (this.held) {
      this.held.push(received);
      return;
    }
    const change = received.event.kv.modRevision <= this.listRevision ? this.historical(received) : this.update(received);
    this.window.push(change);
    for (const w of this.watchers) w.offer(change);
  }

  /** The object at key as of the cache's revision. */
  get(key: string): ApiObject | undefined {
    return this.objects.get(key);
  }

  /** Objects under prefix in key order, filtered, cut at the limit, as of the cache's revision. */
  list(prefix: string, options: PageOptions): CachedPage {
    return this.pin(readPage(this.current, this.revision, prefix, options));
  }

  /**
   * A page as the store shows it at `revision` (a continue token's), when the cache still holds that
   * revision: in its current objects or a snapshot, and in its window. Undefined when the store must
   * answer (the revision is newer than the cache, older than its window, or its snapshot is gone).
   */
  listAt(revision: number, prefix: string, options: PageOptions): CachedPage | undefined {
    if (revision > this.revision || revision < this.window.startRevision) return undefined;
    if (revision >= this.generationStart) return this.pin(readPage(this.current, revision, prefix, options));
    const snapshot = this.snapshots.find(revision);
    return snapshot && readPage(snapshot, revision, prefix, options);
  }

  /** Snapshots kept for paged lists. */
  get snapshotCount(): number {
    return this.snapshots.size;
  }

  /**
   * Starts a watcher: from the current objects (as ADDED) when `afterRevision` is undefined, else
   * with the changes after it. With `initialEventsEnd` (an annotation key), the initial objects are
   * followed by a BOOKMARK at their revision carrying that annotation "true" (a watch-list's end).
   * Throws StorageError 'Compacted' for a revision older than the window.
   */
  watch(
    target: Omit<WatchTarget, 'afterRevision'>,
    afterRevision: number | undefined,
    sink: CacheWatchSink,
    bookmarkIntervalMs: number,
    initialEventsEnd?: string,
  ): CacheWatcher {
    let initial: ApiObject[] = [];
    let replay: CachedChange[] = [];
    let after: number;
    let end: ApiObject | undefined;
    if (afterRevision === undefined) {
      after = this.revision;
      // References to the frozen current objects (no copies); the watcher encodes each as the client takes it.
      if (target.exactKey) {
        const obj = this.objects.get(target.prefix);
        if (obj && target.matches(obj)) initial = [obj];
      } else {
        initial = this.list(target.prefix, { limit: 0, matches: target.matches }).items;
      }
      if (initialEventsEnd) {
        const bookmark = this.options.bookmark(after);
        end = { ...bookmark, metadata: { ...bookmark.metadata, annotations: { [initialEventsEnd]: 'true' } } };
      }
    } else {
      if (afterRevision < this.window.startRevision) {
        throw new StorageError('Compacted', target.prefix, { revision: this.window.startRevision, requestedRevision: afterRevision });
      }
      after = afterRevision;
      replay = this.window.after(afterRevision);
    }
    const watcher = new CacheWatcher(
      sink,
      { ...target, afterRevision: after },
      { maxPending: this.options.maxPending, maxPendingBytes: this.options.maxPendingBytes, bookmarkIntervalMs },
      this.options.scheduler,
      () => this.options.bookmark(this.revision),
      (w) => this.watchers.delete(w),
    );
    this.watchers.add(watcher);
    watcher.start(initial, replay, end);
    return watcher;
  }

  /** A page with a continue token pins the current generation, so the next change snapshots it. */
  private pin(page: CachedPage): CachedPage {
    if (page.lastKey !== undefined) this.pinned = true;
    return page;
  }

  /** Before a change at `revision`: the current generation ends; pinned, it is kept as a snapshot. */
  private nextGeneration(revision: number): void {
    if (this.pinned && this.snapshots.lastTakenAt <= Date.now() - this.options.snapshotIntervalMs) {
      const keys = this.keys.toArray();
      const objects = keys.map((k) => this.objects.get(k)!);
      this.snapshots.add(new ListSnapshot(this.generationStart, revision - 1, keys, objects));
    }
    this.pinned = false;
    this.generationStart = revision;
    this.snapshots.expire(this.window.startRevision);
  }

  /** Closes every watcher (their clients resume or re-list); the cache is not used any more. */
  close(): void {
    for (const w of [...this.watchers]) w.terminate();
  }

  /** Applies a change to the current objects. */
  private update({ event, receivedAt }: ReceivedEvent): CachedChange {
    const { key, modRevision: revision } = event.kv;
    this.nextGeneration(revision);
    const prev = this.objects.get(key) ?? (event.prev && this.decode(event.prev));
    if (event.type === 'delete') {
      if (this.objects.delete(key)) this.keys.delete(key);
      const bytes = event.prev?.value.length ?? event.kv.value.length;
      return { key, revision, receivedAt, bytes, deleted: true, object: prev ? withRevision(prev, revision) : this.decode(event.kv) };
    }
    const object = this.decode(event.kv);
    if (!this.objects.has(key)) this.keys.add(key);
    this.objects.set(key, object);
    return { key, revision, receivedAt, bytes: event.kv.value.length, deleted: false, object, prev };
  }

  private decode(kv: KeyValue, revision?: number): ApiObject {
    return deepFreeze(this.options.decode(kv, revision));
  }

  private async load(): Promise<void> {
    const { storage, root } = this.options;
    let revision = 0;
    let startKey: string | undefined;
    for (;;) {
      const page = await storage.list(root, { revision, limit: LOAD_PAGE_SIZE, startKey });
      revision = page.revision;
      for (const kv of page.items) {
        this.objects.set(kv.key, this.decode(kv));
        this.keys.add(kv.key);
      }
      if (!page.more || page.items.length === 0) break;
      startKey = `${page.items[page.items.length - 1].key}\u0000`;
    }
    this.listRevision = revision;
    this.generationStart = revision;
    for (const received of this.options.history) this.window.push(this.historical(received));
    const held = this.held!;
    this.held = undefined;
    for (const received of held) this.apply(received);
  }

  /** A change from before the list: for the window only, decoded on its own. */
  private historical({ event, receivedAt }: ReceivedEvent): CachedChange {
    const deleted = event.type === 'delete';
    return {
      key: event.kv.key,
      revision: event.kv.modRevision,
      receivedAt,
      bytes: event.kv.value.length,
      deleted,
      object: this.decode(event.kv),
      prev: !deleted && event.prev ? this.decode(event.prev) : undefined,
    };
  }
}
