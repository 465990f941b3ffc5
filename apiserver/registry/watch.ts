/**
 * WATCH straight from the store: optional initial state as ADDED events, then every change after a
 * revision, filtered per watcher (an object leaving the selection is sent as DELETED, one entering it
 * as ADDED), with periodic BOOKMARKs when asked.
 */
import type { ApiObject, WatchEvent } from '../api/object.js';
import * as status from '../api/status.js';
import { isStorageError } from '../storage/errors.js';
import type { StorageEvent, StorageWatcher } from '../storage/interfaces.js';
import type { GenericStore } from './store.js';
import type { RequestContext } from './request-context.js';
import { planWatch, type ListOptions } from './list-options.js';
import { newSelection, type Selection } from './selection.js';

export interface WatchSink {
  send(event: WatchEvent): void;
  /** The watch ended from the server side (after an ERROR event). */
  close(): void;
}

export interface Watch {
  stop(): void;
}

export interface WatchConfig {
  /** How often BOOKMARK events go out when the client allows them. */
  bookmarkIntervalMs: number;
}

export const DEFAULT_BOOKMARK_INTERVAL_MS = 60_000;

function toWatchEvent(store: GenericStore, selection: Selection, ev: StorageEvent): WatchEvent | undefined {
  const rv = ev.kv.modRevision;
  if (ev.type === 'delete') {
    const last = store.decode(ev.kv, rv);
    return selection.matches(last) ? { type: 'DELETED', object: last } : undefined;
  }
  const cur = store.decode(ev.kv);
  const curMatch = selection.matches(cur);
  const prev = ev.prev ? store.decode(ev.prev, rv) : undefined;
  const prevMatch = prev !== undefined && selection.matches(prev);
  if (curMatch) return { type: prevMatch ? 'MODIFIED' : 'ADDED', object: cur };
  if (prevMatch) return { type: 'DELETED', object: prev };
  return undefined;
}

export async function watchObjects(store: GenericStore, ctx: RequestContext, opts: ListOptions, sink: WatchSink, config: WatchConfig): Promise<Watch> {
  const after = planWatch(opts);
  const selection = newSelection(store.def, opts.labelSelector, opts.fieldSelector);
  const listPrefix = store.keys.listPrefix(ctx.namespace);
  const oneObject = selection.name !== undefined && (ctx.namespace !== '' || !store.def.namespaced);
  const prefix = oneObject ? store.keys.objectKey(ctx.namespace, selection.name!) : listPrefix;

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
  watcher = store.storage.watch(prefix, { afterRevision: revision }, {
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
      sink.send({ type: 'ERROR', object: apiErr.status as unknown as Record<string, unknown> });
      stop();
      sink.close();
    },
  });
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
