/** The Service registry's Endpoints cleanup, done with the Endpoints store as the system user. */
import type { ServiceEndpointsCleanup } from '../registry/core/service/endpoints-cleanup.js';
import type { GenericStore } from '../registry/generic/store.js';
import { SYSTEM_USER } from './bootstrap-namespaces.js';

/** `endpoints` is read at deletion time: the stores exist only after the hooks are wired. */
export function newEndpointsCleanup(endpoints: () => GenericStore | undefined): ServiceEndpointsCleanup {
  return {
    async deleteEndpoints(namespace, name) {
      try {
        await endpoints()?.delete({ namespace, user: SYSTEM_USER, dryRun: false, now: new Date() }, name, {});
      } catch {
        // NotFound, or a failure after the Service is gone: like Kubernetes (which logs it), the
        // Service's deletion stands either way.
      }
    },
  };
}
