/**
 * Service: Kubernetes' defaults, linked-field handling and validation (registry/core/service), with
 * the status subresource. Cluster IPs, IP families and node ports are filled after validation by the
 * allocation hooks (allocation-hooks.ts).
 */
import type { Service } from '../../../api/generated/types.js';
import { typedStrategy, typedSubresource } from '../../../api/strategy.js';
import { withStatusOf } from '../../generic/status-subresource.js';
import { setServiceDefaults } from './defaults.js';
import { dropTypeDependentFields, normalizeClusterIPs, patchAllocatedValues } from './linked-fields.js';
import { specOf } from './service-spec.js';
import { validateService, validateServiceUpdate } from './validation.js';
import { validateServiceStatus } from './validate-status.js';

export const serviceStrategy = typedStrategy<Service>({
  applyDefaults: setServiceDefaults,
  prepareForCreate(obj) {
    // Kubernetes answers a new Service with an empty load-balancer status.
    obj.status = { loadBalancer: {} };
    normalizeClusterIPs(specOf(obj), null);
  },
  prepareForUpdate(obj, old) {
    const spec = (obj.spec ??= {});
    const oldSpec = specOf(old);
    patchAllocatedValues(spec, oldSpec);
    normalizeClusterIPs(spec, oldSpec);
    dropTypeDependentFields(spec, oldSpec, (obj.status ??= {}));
  },
  validate: (obj, ctx) => validateService(obj, ctx.domain),
  validateUpdate: (obj, old, ctx) => [...validateService(obj, ctx.domain), ...validateServiceUpdate(obj, old)],
});

/** /status: only status changes (spec and metadata come from the stored object), validated. */
export const serviceStatusStrategy = typedSubresource<Service>({
  prepareForUpdate: (obj, old) => withStatusOf(obj, old),
  validateUpdate: validateServiceStatus,
});
