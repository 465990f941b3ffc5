/**
 * WATCH straight from the store: optional initial state as ADDED events, then every change after a
 * revision, filtered per watcher (an object leaving the selection is sent as DELETED, one entering it
 * as ADDED), with periodic BOOKMARKs when asked.
 */
import type { ApiObject, WatchEvent } from '../../api/object.js';
import * as status from '../../api/status.js';
import { isStorageError } from '../../storage/errors.js';
import type { StorageEvent, StorageWatcher } from '../../storage/interfaces.js';
import type { ReadSource } from './read-source.js';
import type { RequestContext } from './request-context.js';
import { planWatch, type ListOptions } from './list-options.js';
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
}

export const DEFAULT_BOOKMARK_INTERVAL_MS = 60_000;

function toWatchEvent(store: ReadSource, selection: Selection, ev: StorageEvent): WatchEvent | undefined {
  const deleted = ev.type === 'delete';
  // A delete's kv carries the deletion's revision; prev is shown at the event's revision.
  const change = { deleted, object: store.decode(ev.kv), prev: !deleted && ev.prev ? store.decode(ev.prev, ev.kv.modRevision) : undefined };
  const visible = visibleAs(change, selection.matches);
  return visible && { type: visible.type, object: visible.of === 'object' ? change.object : change.prev! };
}

/** The watch served from the resource's cache; undefined when the store has to serve it. */
async function watchFromCache(
  store: ReadSource,
  opts: ListOptions,
  after: number | undefined,
  target: { prefix: string; exactKey: boolean; matches: Selection['matches'] },
  sink: WatchSink,
  config: WatchConfig,
): Promise<Watch | undefined> {
  // rv unset: start at the most recent state (a consistent read); "0": at any state; N: after N.
  const cache = await config.cacher!.readable(store, after === undefined && !opts.resourceVersion ? 'latest' : 'any');
  if (!cache) return undefined;
  try {
    return cache.watch(target, after, sink, opts.allowWatchBookmarks ? config.bookmarkIntervalMs : 0);
  } catch (err) {
    if (isStorageError(err, 'Compacted')) throw status.expired(`too old resource version: ${after} (${err.revision ?? 0})`);
    throw err;
  }
}

export async function watchObjects(
  store: ReadSource,
  ctx: RequestContext,
  opts: ListOptions,
  sink: WatchSink,
  config: WatchConfig,
): Promise<Watch> {
  const after = planWatch(opts);
  const selection = newSelection(store.def, opts.labelSelector, opts.fieldSelector);
  const listPrefix = store.keys.listPrefix(ctx.namespace);
  const oneObject = selection.name !== undefined && (ctx.namespace !== '' || !store.def.namespaced);
  const prefix = oneObject ? store.keys.objectKey(ctx.namespace, selection.name!) : listPrefix;
  if (config.cacher) {
    const cached = await watchFromCache(store, opts, after, { prefix, exactKey: oneObject, matches: selection.matches }, sink, config);
    if (cached) return cached;
  }

  let revision: number;
  const initial: ApiObject[] = [];
  try {
    if (after === undefined) {
      const page = await store.storage.list(listPrefix, oneObject ? { startKey: prefix, limit: 1 } : {});
      revision = page.revision;
      for (const kv of page.items) {
        if (oneObject && kv.key !== prefix) continue;
        const obj = store.decode(kv);
        if (selection.matches(obj)) initial.push(obj);
      }
    } else {
      revision = after;
      const compacted = await store.storage.compactedRevision();
      if (after + 1 < compacted) throw status.expired(`too old resource version: ${after} (${compacted})`);
    }
  } catch (err) {
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

  for (const obj of initial) sink.send({ type: 'ADDED', object: obj });
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
      onError(err) {
        if (stopped) return;
        const apiErr = isStorageError(err, 'Compacted')
          ? status.expired(`too old resource version: ${after ?? revision} (${err.revision ?? 0})`)
          : status.internal(err);
        sink.send({ type: 'ERROR', object: apiErr.status });
        stop();
        sink.close();
      },
    },
  );
  if (opts.allowWatchBookmarks) {
    bookmarks = setInterval(() => {
      sink.send({
        type: 'BOOKMARK',
        object: { kind: store.def.kind, apiVersion: store.def.apiVersion, metadata: { resourceVersion: String(revision) } },
      });
    }, config.bookmarkIntervalMs);
    bookmarks.unref();
  }
  return { stop };
}
