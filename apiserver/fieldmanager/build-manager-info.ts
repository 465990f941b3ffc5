/**
 * Turns the manager name of a request into its identifier: name (`unknown` when empty), operation,
 * subresource and, for updates, the API version.
 */
import type { Manager } from './manager.js';
import { managerIdentifier, OPERATION_APPLY, OPERATION_UPDATE } from './managed-fields.js';

export function withManagerInfo(inner: Manager, apiVersion: string, subresource: string): Manager {
  const id = (manager: string, operation: string) =>
    managerIdentifier({ manager: manager || 'unknown', operation, apiVersion, subresource });
  return {
    update: (live, next, managed, manager) => inner.update(live, next, managed, id(manager, OPERATION_UPDATE)),
    apply: (live, config, managed, manager, force) => inner.apply(live, config, managed, id(manager, OPERATION_APPLY), force),
  };
}
