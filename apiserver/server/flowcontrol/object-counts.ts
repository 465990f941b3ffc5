/**
 * Objects stored per resource, for the LIST work estimate (Kubernetes' storage object count tracker,
 * which refreshes every minute; here every `intervalMs`, default 2 s, so a LIST flood right after a
 * bulk load is estimated as such): what the resource's watch cache holds once loaded, else one
 * `limit=1` list of its key prefix, its count the items plus what remains, one list per turn of the
 * event loop. The cache's count costs nothing; counting thousands of rows of the embedded store
 * holds the event loop every request shares for tens of milliseconds.
 */
import type { ResourceDef } from '../../api/resource.js';
import type { GenericStore } from '../../registry/generic/store.js';
import type { Storage } from '../../storage/interfaces.js';

export interface ObjectCounts {
  get(group: string, resource: string): number | undefined;
  stop(): void;
}

export function startObjectCounts(
  storage: Storage,
  stores: () => ReadonlyMap<ResourceDef, GenericStore>,
  intervalMs = 2_000,
): ObjectCounts {
  const counts = new Map<string, number>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const refresh = async () => {
    const prefixes = new Map<string, string>();
    const cached = new Map<string, number>();
    for (const [def, store] of stores()) {
      if (def.notStored || def.ephemeral) continue;
      const key = `${def.group}/${def.plural}`;
      const n = store.cachedObjectCount();
      if (n !== undefined) cached.set(key, n);
      else prefixes.set(key, store.keys.listPrefix(''));
    }
    for (const [key, n] of cached) {
      counts.set(key, n);
      prefixes.delete(key);
    }
    for (const [key, prefix] of prefixes) {
      if (stopped) return;
      try {
        const r = await storage.list(prefix, { limit: 1 });
        counts.set(key, r.items.length + r.remaining);
      } catch {
        counts.delete(key);
      }
      // One count at a time: the embedded store answers synchronously, and dozens in a row would
      // hold the event loop every request shares.
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const loop = () => {
    void refresh().finally(() => {
      if (!stopped) timer = setTimeout(loop, intervalMs).unref();
    });
  };
  loop();
  return {
    get: (group, resource) => counts.get(`${group}/${resource}`),
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
