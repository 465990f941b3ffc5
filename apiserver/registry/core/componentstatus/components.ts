/**
 * ComponentStatus (core v1, deprecated since 1.19, read-only): not stored — each read asks the
 * server's probes (the storage, the controller manager, the scheduler) how their components are.
 * The server provides the probes (COMPONENT_PROBES); the registry only shapes the answers.
 */
import type { ApiObject } from '../../../api/object.js';
import { NULL_TIME } from '../../../api/object-meta.js';
import type { ComputedObjectsFactory } from '../../generic/actions.js';
import type { HookDependency } from '../../generic/store-hooks.js';

/** One component's health, as a probe finds it. */
export interface ComponentHealth {
  name: string;
  healthy: boolean;
  /** What the component answered ("ok"). */
  message: string;
  /** Why it could not be asked, when it could not. */
  error?: string;
}

/** Probes every component the server knows of. */
export type ComponentProbes = () => Promise<ComponentHealth[]>;

export const COMPONENT_PROBES: HookDependency<ComponentProbes> = { name: 'component probes' };

export const COMPONENT_STATUS_DEPRECATION = 'v1 ComponentStatus is deprecated in v1.19+';

export function componentStatusObject(h: ComponentHealth): ApiObject {
  const condition: Record<string, string> = { type: 'Healthy', status: h.healthy ? 'True' : 'False' };
  if (h.message) condition.message = h.message;
  if (h.error) condition.error = h.error;
  return { metadata: { name: h.name, creationTimestamp: NULL_TIME }, conditions: [condition] };
}

export const componentStatuses: ComputedObjectsFactory = (env) => {
  const probes = env.need(COMPONENT_PROBES);
  return { list: async () => (await probes()).map(componentStatusObject) };
};
