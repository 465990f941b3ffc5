/**
 * The first apply to an object nobody owns fields of (managedFields were cleared): everything the
 * object holds is first recorded as owned by `before-first-apply`, so the apply conflicts with values
 * it would change instead of silently taking them.
 */
import type { ApiObject } from '../api/object.js';
import type { Manager } from './manager.js';

const BEFORE_FIRST_APPLY = 'before-first-apply';

export function withSkipNonApplied(inner: Manager, emptyObject: () => ApiObject): Manager {
  return {
    update: (live, next, managed, manager) => inner.update(live, next, managed, manager),
    apply(live, config, managed, manager, force) {
      if (managed.fields.size === 0) ({ managed } = inner.update(emptyObject(), live, managed, BEFORE_FIRST_APPLY));
      return inner.apply(live, config, managed, manager, force);
    },
  };
}
