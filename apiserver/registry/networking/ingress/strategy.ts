/** Ingress (networking/v1): validation, generation, and the status subresource with its own rules. */
import { typedStrategy, typedSubresource } from '../../../api/strategy.js';
import type { Ingress } from '../../../api/generated/types.js';
import { withStatusOf } from '../../generic/status-subresource.js';
import { ingressClassAnnotation, validateIngress, validateIngressClassAnnotation, validateIngressStatus } from './validation.js';

export const ingressStrategy = typedStrategy<Ingress>({
  warningsOnCreate(obj, ctx) {
    const annotation = ingressClassAnnotation(ctx.domain);
    if (obj.metadata.annotations?.[annotation] === undefined || obj.spec?.ingressClassName !== undefined) return [];
    return [`annotation "${annotation}" is deprecated, please use 'spec.ingressClassName' instead`];
  },
  validate: (obj, ctx) => [...validateIngress(obj), ...validateIngressClassAnnotation(obj, ctx.domain)],
  validateUpdate: (obj) => validateIngress(obj),
});

/** /status: only the load-balancer status changes, and it is validated. */
export const ingressStatusStrategy = typedSubresource<Ingress>({
  prepareForUpdate: (obj, old) => withStatusOf(obj, old),
  validateUpdate: validateIngressStatus,
});
