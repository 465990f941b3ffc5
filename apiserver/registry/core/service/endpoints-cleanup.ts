/**
 * A deleted Service takes its Endpoints (same namespace and name) along, as Kubernetes' Service
 * registry does after a delete (the endpoints controller would too, later). The server provides the
 * deletion; a missing Endpoints is no error.
 */
import type { HookDependency } from '../../generic/store-hooks.js';

export interface ServiceEndpointsCleanup {
  /** Deletes the Endpoints `namespace/name`, if there is one. */
  deleteEndpoints(namespace: string, name: string): Promise<void>;
}

export const SERVICE_ENDPOINTS_CLEANUP: HookDependency<ServiceEndpointsCleanup> = { name: "the deletion of a Service's Endpoints" };
