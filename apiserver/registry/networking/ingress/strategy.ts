/** Ingress (networking/v1): validation, generation, and the status subresource with its own rules. */
import type { Strategy, SubresourceStrategy } from '../../../api/strategy.js';
import { statusSubresource } from '../../status-subresource.js';
import { validateIngress, validateIngressClassAnnotation, validateIngressStatus } from './validation.js';

export const ingressStrategy: Strategy = {
  validate: (obj, ctx) => [...validateIngress(obj), ...validateIngressClassAnnotation(obj, ctx.domain)],
  validateUpdate: (obj) => validateIngress(obj),
};

/** /status: only the load-balancer status changes, and it is validated. */
export const ingressStatusStrategy: SubresourceStrategy = {
  prepareForUpdate: statusSubresource.prepareForUpdate,
  validateUpdate: validateIngressStatus,
};
