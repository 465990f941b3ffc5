/**
 * Keeps kubectl's client-side apply annotation in step: a `kubectl` server-side apply to an object
 * that has the annotation rewrites it to the configuration just applied.
 */
import type { Manager } from './manager.js';
import { KUBECTL_MANAGER, LAST_APPLIED_ANNOTATION, lastAppliedOf, lastAppliedValue } from './last-applied.js';

export function withLastAppliedUpdater(inner: Manager): Manager {
  return {
    update: (live, next, managed, manager) => inner.update(live, next, managed, manager),
    apply(live, config, managed, manager, force) {
      const r = inner.apply(live, config, managed, manager, force);
      if (manager === KUBECTL_MANAGER && r.object && lastAppliedOf(r.object)) {
        r.object.metadata.annotations = { ...r.object.metadata.annotations, [LAST_APPLIED_ANNOTATION]: lastAppliedValue(config) };
      }
      return r;
    },
  };
}
