/**
 * WATCH from the watch cache, or straight from the store: optional initial state as ADDED events
 * (streamed at the client's pace: from the store a page at a time), with sendInitialEvents and
 * bookmarks a BOOKMARK marking their end, then every change after their revision, filtered per
 * watcher (an object leaving the selection is sent as DELETED, one entering it as ADDED), with
 * periodic BOOKMARKs when asked.
 */
import type { WatchEvent } from '../../api/object.js';
import * as status from '../../api/status.js';
import { isStorageError } from '../../storage/errors.js';
import type { ListResult, StorageEvent, StorageWatcher } from '../../storage/interfaces.js';
import type { ReadSource } from './read-source.js';
import type { RequestContext } from './request-context.js';
import { planWatch, type ListOptions, type WatchPlan } from './list-options.js';
import { waitForRevision } from './wait-for-revision.js';
import { newSelection, type Selection } from './selection.js';
import type { Cacher } from '../../storage/cacher/cacher.js';
import { visibleAs } from '../../storage/cacher/watch-event.js';
import type { FrameEncoder } from '../../storage/cacher/cached-object.js';

export interface WatchSink {
  /**
   * Sends one event; `frame`, when given, is the event encoded as a JSON stream line (or the
   * encoder's frame) and shared with other watchers. Returns false when the client is behind (the cache then waits for drained()).
   */
  send(event: WatchEvent, frame?: (encoder?: FrameEncoder) => Buffer): unknown;
  /** The watch ended from the server side (after an ERROR event, or `unresponsive`: a watcher too slow to follow). */
  close(reason?: 'unresponsive'): void;
  /** Resolves once a client that was behind has caught up. */
  drained?(): Promise<void>;
}

export interface Watch {
  stop(): void;
}

export interface WatchConfig {
  /** How often BOOKMARK events go out when the client allows them. */
  bookmarkIntervalMs: number;
  /** The watch cache serving lists, gets and watches; absent: everything is read from the store. */
  cacher?: Cacher;
  /**
   * The annotation ("true") of the BOOKMARK ending a watch's initial events: Kubernetes'
   * `k8s.io/initial-events-end`, under the API domain (`orch.io/initial-events-end` by default).
   */
  initialEventsEndAnnotation: string;
}

export const DEFAULT_BOOKMARK_INTERVAL_MS = 60_000;

function toWatchEvent(store: ReadSource, selection: Selection, ev: StorageEvent): WatchEvent | undefined {
  const deleted = ev.type === 'delete';
  // A delete's kv carries the deletion's revision; prev is shown at the event's revision.
  const change = { deleted, object: store.decode(ev.kv), prev: !deleted && ev.prev ? store.decode(ev.prev, ev.kv.modRevision) : undefined };
  const visible = visibleAs(change, selection.matches);
  return visible && { type: visible.type, object: visible.of === 'object' ? change.object : change.prev! };
}

/** Objects read per store request while a watch's initial state streams from the store. */
export const INITIAL_EVENTS_PAGE_SIZE = 500;

/** The watch served from the resource's cache; undefined when the store has to serve it. */
async function watchFromCache(
  store: ReadSource,
  plan: WatchPlan,
  target: { prefix: string; exactKey: boolean; matches: Selection['matches'] },
  sink: WatchSink,
  config: WatchConfig,
): Promise<Watch | undefined> {
  const { start } = plan;
  const cache = await config.cacher!.readable(store, start.kind === 'after' ? 'any' : start.freshness);
  if (!cache) return undefined;
  const after = start.kind === 'after' ? start.revision : start.kind === 'now' ? cache.revision : undefined;
  const end = plan.initialEventsEnd ? config.initialEventsEndAnnotation : undefined;
  try {
    return cache.watch(target, after, sink, plan.bookmarks ? config.bookmarkIntervalMs : 0, end);
  } catch (err) {
    if (isStorageError(err, 'Compacted')) throw status.expired(`too old resource version: ${after} (${err.revision ?? 0})`);
    throw err;
  }
}

/** A watch that is over before it began: one ERROR event (Kubernetes' error watcher). */
function failedWatch(sink: WatchSink, err: status.ApiError): Watch {
  sink.send({ type: 'ERROR', object: err.status });
  sink.close();
  return { stop() {} };
}

export async function watchObjects(
  store: ReadSource,
  ctx: RequestContext,
  opts: ListOptions,
  sink: WatchSink,
  config: WatchConfig,
): Promise<Watch> {
  const plan = planWatch(opts);
  const { start } = plan;
  const selection = newSelection(store.def, opts.labelSelector, opts.fieldSelector);
  const listPrefix = store.keys.listPrefix(ctx.namespace);
  const oneObject = selection.name !== undefined && (ctx.namespace !== '' || !store.def.namespaced);
  const prefix = oneObject ? store.keys.objectKey(ctx.namespace, selection.name!) : listPrefix;
  if (config.cacher) {
    const cached = await watchFromCache(store, plan, { prefix, exactKey: oneObject, matches: selection.matches }, sink, config);
    if (cached) return cached;
  }

  // From the store: the first page of the initial state is read before the watch is answered (its
  // errors are the request's); the rest streams at the client's pace.
  let revision: number;
  let first: ListResult | undefined;
  try {
    if (start.kind === 'after') {
      revision = start.revision;
      const compacted = await store.storage.compactedRevision();
      if (revision + 1 < compacted) throw status.expired(`too old resource version: ${revision} (${compacted})`);
    } else {
      if (typeof start.freshness === 'number') await waitForRevision(store.storage, start.freshness);
      if (start.kind === 'now') revision = await store.storage.currentRevision();
      else {
        first = await store.storage.list(listPrefix, oneObject ? { startKey: prefix, limit: 1 } : { limit: INITIAL_EVENTS_PAGE_SIZE });
        revision = first.revision;
      }
    }
  } catch (err) {
    if (status.isApiError(err, 'Timeout')) return failedWatch(sink, err);
    if (isStorageError(err)) throw status.internal(err);
    throw err;
  }

  let stopped = false;
  let bookmarks: NodeJS.Timeout | undefined;
  let watcher: StorageWatcher | undefined;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    if (bookmarks) clearInterval(bookmarks);
    watcher?.stop();
  };
  const bookmark = (annotations?: Record<string, string>): WatchEvent => ({
    type: 'BOOKMARK',
    object: {
      kind: store.def.kind,
      apiVersion: store.def.apiVersion,
      metadata: annotations ? { resourceVersion: String(revision), annotations } : { resourceVersion: String(revision) },
    },
  });
  const fail = (err: unknown) => {
    if (stopped) return;
    const apiErr = isStorageError(err, 'Compacted')
      ? status.expired(`too old resource version: ${start.kind === 'after' ? start.revision : revision} (${err.revision ?? 0})`)
      : status.isApiError(err)
        ? err
        : status.internal(err);
    sink.send({ type: 'ERROR', object: apiErr.status });
    stop();
    sink.close();
  };

  /** The changes after `revision`, and periodic bookmarks when allowed. */
  const follow = () => {
    watcher = store.storage.watch(
      prefix,
      { afterRevision: revision },
      {
        onEvent(ev) {
          if (stopped) return;
          revision = ev.kv.modRevision;
          const out = toWatchEvent(store, selection, ev);
          if (out) sink.send(out);
        },
        onError: fail,
      },
    );
    if (plan.bookmarks) {
      bookmarks = setInterval(() => sink.send(bookmark()), config.bookmarkIntervalMs);
      bookmarks.unref();
    }
  };

  /**
   * The initial state at `revision`, page by page, each event once the client took the previous
   * ones (memory: one page, whatever the resource's size); then its end bookmark, then the changes.
   */
  const streamInitial = async (page: ListResult) => {
    for (;;) {
      for (const kv of page.items) {
        if (oneObject && kv.key !== prefix) continue;
        const obj = store.decode(kv);
        if (!selection.matches(obj)) continue;
        if (sink.send({ type: 'ADDED', object: obj }) === false) await sink.drained?.();
        if (stopped) return;
      }
      if (oneObject || !page.more || page.items.length === 0) break;
      const startKey = `${page.items[page.items.length - 1].key}\u0000`;
      page = await store.storage.list(listPrefix, { revision, limit: INITIAL_EVENTS_PAGE_SIZE, startKey });
      if (stopped) return;
    }
    if (plan.initialEventsEnd) sink.send(bookmark({ [config.initialEventsEndAnnotation]: 'true' }));
    follow();
  };

  if (first) streamInitial(first).catch(fail);
  else follow();
  return { stop };
}
