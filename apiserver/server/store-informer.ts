/**
 * An informer inside the API server: a list of one resource through its generic store (the watch
 * cache when there is one), then its watch from that list's revision, handed to a handler as
 * replace / put / remove. When the watch ends (compaction, a cache reset) it lists again.
 * Authorizers keep their in-memory view with it, so a decision never reads storage.
 */
import type { ApiObject } from '../api/object.js';
import type { GenericStore } from '../registry/generic/store.js';
import type { Watch } from '../registry/generic/watch.js';
import type { Logger } from '../component-base/logs/logger.js';
import { SYSTEM_USER } from './bootstrap-namespaces.js';

export interface InformerHandler {
  /** Everything the resource holds now (a fresh list). */
  replace(objs: ApiObject[]): void;
  put(obj: ApiObject): void;
  remove(obj: ApiObject): void;
}

export interface StoreInformer {
  /** Resolves after the first list has been handed over. */
  readonly synced: Promise<void>;
  stop(): void;
}

export function startStoreInformer(store: GenericStore, handler: InformerHandler, env: { logger: Logger }): StoreInformer {
  let stopped = false;
  let watch: Watch | undefined;
  let retry: NodeJS.Timeout | undefined;
  let markSynced: () => void = () => {};
  const synced = new Promise<void>((resolve) => (markSynced = resolve));
  const ctx = () => ({ namespace: '', user: SYSTEM_USER, dryRun: false, now: new Date() });

  const run = async (delayMs: number): Promise<void> => {
    if (stopped) return;
    try {
      const list = await store.list(ctx(), {});
      if (stopped) return;
      handler.replace(list.items);
      markSynced();
      let ended = false;
      const restart = () => {
        if (ended || stopped) return;
        ended = true;
        watch?.stop();
        retry = setTimeout(() => void run(100), 0);
      };
      watch = await store.watch(
        ctx(),
        { resourceVersion: list.metadata.resourceVersion, watch: true },
        {
          send(event) {
            if (ended || stopped) return true;
            if (event.type === 'ADDED' || event.type === 'MODIFIED') handler.put(event.object as ApiObject);
            else if (event.type === 'DELETED') handler.remove(event.object as ApiObject);
            else if (event.type === 'ERROR') restart();
            return true;
          },
          close: restart,
        },
      );
      if (stopped) watch.stop();
    } catch (err) {
      env.logger.warn('informer list or watch failed, retrying', { resource: store.def.plural, err: String(err) });
      retry = setTimeout(() => void run(Math.min(delayMs * 2, 5000)), delayMs);
    }
  };
  void run(100);
  return {
    synced,
    stop() {
      stopped = true;
      clearTimeout(retry);
      watch?.stop();
    },
  };
}
