/**
 * At most MAX_UPDATE_MANAGERS update entries: past that, the oldest are merged, per API version, into
 * one `ancient-changes` entry carrying the newest merged time.
 */
import type { Managed } from './managed-fields.js';
import { managerIdentifier, OPERATION_UPDATE } from './managed-fields.js';
import type { Manager } from './manager.js';

/** Kubernetes' DefaultMaxUpdateManagers. */
export const MAX_UPDATE_MANAGERS = 10;
const ANCIENT_CHANGES = 'ancient-changes';

function seconds(time: string | undefined): number {
  const t = time ? Date.parse(time) : NaN;
  return Number.isNaN(t) ? 0 : Math.floor(t / 1000);
}

function capUpdateManagers(managed: Managed, max: number): void {
  // Counted first: nearly every write is far under the cap.
  let count = 0;
  for (const vs of managed.fields.values()) if (!vs.applied) count++;
  if (count <= max) return;
  const updaters = [...managed.fields].filter(([, vs]) => !vs.applied).map(([id]) => id);
  updaters.sort((a, b) => seconds(managed.times.get(a)) - seconds(managed.times.get(b)) || (a < b ? -1 : a > b ? 1 : 0));
  const firstOfVersion = new Map<string, string>();
  for (const id of updaters) {
    if (count <= max) break;
    const vs = managed.fields.get(id)!;
    const time = managed.times.get(id);
    const bucket = managerIdentifier({ manager: ANCIENT_CHANGES, operation: OPERATION_UPDATE, apiVersion: vs.apiVersion });
    const first = firstOfVersion.get(vs.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(vs.apiVersion, id);
      continue;
    }
    if (!managed.fields.has(bucket)) {
      managed.fields.set(bucket, managed.fields.get(first)!);
      managed.fields.delete(first);
    }
    managed.fields.set(bucket, { ...vs, set: vs.set.union(managed.fields.get(bucket)!.set) });
    managed.fields.delete(id);
    managed.times.set(bucket, time);
    count--;
  }
}

export function withCapManagers(inner: Manager, max = MAX_UPDATE_MANAGERS): Manager {
  return {
    update(live, next, managed, manager) {
      const r = inner.update(live, next, managed, manager);
      capUpdateManagers(r.managed, max);
      return r;
    },
    apply: (live, config, managed, manager, force) => inner.apply(live, config, managed, manager, force),
  };
}
