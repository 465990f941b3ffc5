/**
 * A watcher as client-go's reflector behaves: watches ConfigMaps of a namespace from a
 * resourceVersion, and when the stream ends watches again from the last resourceVersion it saw;
 * only on 410 Gone (an expired resourceVersion) does it list again. It counts the 410s and keeps the
 * name of every object it saw added, so fault tests can tell a lost event from a relist storm.
 */
import type { TestClient } from './http-client.js';

export interface RelistingWatcher {
  /** Names of the ConfigMaps seen (added by an event, or present in a relist). */
  names: Set<string>;
  /** 410 answers and ERROR events with code 410. */
  gone: number;
  /** Lists made after a 410. */
  relists: number;
  /** Watch streams opened again after one ended. */
  rewatches: number;
  /** Watch requests that failed otherwise (status or connection error). */
  errors: string[];
  stop(): void;
}

export function startRelistingWatcher(client: TestClient, namespace: string, resourceVersion: string): RelistingWatcher {
  const base = `/api/v1/namespaces/${namespace}/configmaps`;
  const watcher: RelistingWatcher = { names: new Set(), gone: 0, relists: 0, rewatches: 0, errors: [], stop: () => {} };
  let running = true;
  let rv = resourceVersion;
  let current: { close(): void } | undefined;
  watcher.stop = () => {
    running = false;
    current?.close();
  };
  const relist = async (): Promise<void> => {
    watcher.relists++;
    const list = await client.get(base);
    if (list.status !== 200) throw new Error(`relist: ${list.status}`);
    for (const item of list.body.items) watcher.names.add(item.metadata.name);
    rv = list.body.metadata.resourceVersion;
  };
  const run = async (): Promise<void> => {
    for (let first = true; running; first = false) {
      if (!first) watcher.rewatches++;
      let w: Awaited<ReturnType<TestClient['watch']>>;
      try {
        w = await client.watch(`${base}?watch=1&allowWatchBookmarks=true&resourceVersion=${rv}`);
      } catch (err) {
        watcher.errors.push((err as NodeJS.ErrnoException).code ?? String(err));
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      if (w.status === 410) {
        watcher.gone++;
        await relist().catch((err: Error) => watcher.errors.push(err.message));
        continue;
      }
      if (w.status !== 200) {
        watcher.errors.push(String(w.status));
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      current = w;
      let over = false;
      void w.ended.then(() => (over = true));
      for (;;) {
        let event: { type: string; object: any };
        try {
          event = await w.next(500);
        } catch {
          if (over || !running) break;
          continue;
        }
        if (event.type === 'ERROR') {
          if (event.object?.code === 410) {
            watcher.gone++;
            w.close();
            await relist().catch((err: Error) => watcher.errors.push(err.message));
          } else {
            watcher.errors.push(`ERROR ${event.object?.code}`);
          }
          break;
        }
        rv = event.object.metadata.resourceVersion;
        if (event.type === 'ADDED') watcher.names.add(event.object.metadata.name);
      }
    }
  };
  void run();
  return watcher;
}
