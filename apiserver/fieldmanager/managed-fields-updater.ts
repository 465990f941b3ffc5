/**
 * The time of a manager's entry: set to the request's time when the write changed fields for it
 * (an update merges into the manager's previous fields), left alone when it changed nothing. An apply
 * that changes nothing answers the live object.
 */
import { deepCopy } from '../api/object.js';
import { timestamp } from '../api/object-meta.js';
import type { Manager } from './manager.js';

/** The identifier the current update runs under, to see whether it took any fields. */
const CURRENT_OPERATION = 'current-operation';

export function withManagedFieldsUpdater(inner: Manager, now: Date): Manager {
  const time = timestamp(now);
  return {
    update(live, next, managed, manager) {
      const r = inner.update(live, next, managed, CURRENT_OPERATION);
      const taken = r.managed.fields.get(CURRENT_OPERATION);
      if (taken) {
        r.managed.fields.delete(CURRENT_OPERATION);
        const previous = r.managed.fields.get(manager);
        r.managed.fields.set(manager, previous ? { ...taken, set: taken.set.union(previous.set) } : taken);
        r.managed.times.set(manager, time);
      }
      return r;
    },
    apply(live, config, managed, manager, force) {
      const r = inner.apply(live, config, managed, manager, force);
      if (r.object) r.managed.times.set(manager, time);
      else {
        r.object = deepCopy(live);
        delete r.object.metadata.managedFields;
      }
      return r;
    },
  };
}
