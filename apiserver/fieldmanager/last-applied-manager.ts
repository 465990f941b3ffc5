/**
 * Upgrading from client-side apply: a `kubectl` apply whose only conflicts are fields the last
 * client-side apply set (and that still hold that value) takes them over as if forced.
 */
import type { Schema } from '../api/schema.js';
import type { Manager } from './manager.js';
import { fieldsStillLastApplied, KUBECTL_MANAGER } from './last-applied.js';
import type { TypeResolver } from './typed-schema.js';
import { ApplyConflicts } from './updater.js';

export function withLastAppliedManager(inner: Manager, apiVersion: string, schema: Schema, types: TypeResolver): Manager {
  return {
    update: (live, next, managed, manager) => inner.update(live, next, managed, manager),
    apply(live, config, managed, manager, force) {
      try {
        return inner.apply(live, config, managed, manager, force);
      } catch (err) {
        if (manager !== KUBECTL_MANAGER || !(err instanceof ApplyConflicts)) throw err;
        const allowed = fieldsStillLastApplied(live, apiVersion, schema, types);
        if (!allowed) throw err;
        const remaining = err.conflicts.filter((c) => !allowed.has(c.path));
        if (remaining.length) throw new ApplyConflicts(remaining);
        return inner.apply(live, config, managed, manager, true);
      }
    },
  };
}
