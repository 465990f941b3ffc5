/**
 * The APIServices as every handler reads them: kept in memory from the APIService store's informer,
 * looked up by group and version. A remote APIService (one with spec.service) takes its group version
 * away from the local routes; a local one leaves them where they are.
 */
import type { APIService } from '../../api/generated/types.js';
import { type ApiObject, asKind } from '../../api/object.js';

export interface ApiServiceCache {
  replace(objs: ApiObject[]): void;
  put(obj: ApiObject): void;
  remove(obj: ApiObject): void;
  all(): APIService[];
  get(name: string): APIService | undefined;
  /** The remote APIService serving `group`/`version`, if any. */
  remote(group: string, version: string): APIService | undefined;
  /** Called after every change (the availability controller queues the changed name). */
  onChange(listener: (name: string) => void): void;
}

/** Whether an APIService's Available condition is True. */
export function isAvailable(s: APIService): boolean {
  return s.status?.conditions?.some((c) => c.type === 'Available' && c.status === 'True') ?? false;
}

export function newApiServiceCache(): ApiServiceCache {
  const byName = new Map<string, APIService>();
  const listeners: ((name: string) => void)[] = [];
  const changed = (name: string) => {
    for (const l of listeners) l(name);
  };
  const as = (o: ApiObject) => asKind<APIService>(o);
  return {
    replace(objs) {
      const before = [...byName.keys()];
      byName.clear();
      for (const o of objs) byName.set(o.metadata.name ?? '', as(o));
      for (const name of new Set([...before, ...byName.keys()])) changed(name);
    },
    put(obj) {
      byName.set(obj.metadata.name ?? '', as(obj));
      changed(obj.metadata.name ?? '');
    },
    remove(obj) {
      byName.delete(obj.metadata.name ?? '');
      changed(obj.metadata.name ?? '');
    },
    all: () => [...byName.values()],
    get: (name) => byName.get(name),
    remote(group, version) {
      const s = byName.get(`${version}.${group}`);
      return s?.spec?.service ? s : undefined;
    },
    onChange: (l) => void listeners.push(l),
  };
}
