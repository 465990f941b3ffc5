/**
 * APIService (kube-aggregator's apiServerStrategy): the service port defaults to 443; a create starts
 * with an empty status, and a local APIService (no service) is Available at once; updates keep the
 * status, /status keeps the spec and the stored metadata.
 */
import { typedStrategy, typedSubresource } from '../../../api/strategy.js';
import type { APIService, APIServiceCondition } from '../../../api/generated/types.js';
import { withStatusOf, STORED_METADATA } from '../../generic/status-subresource.js';
import { validateAPIService, validateAPIServiceStatus } from './validation.js';

/** The Available condition of a local APIService (NewLocalAvailableAPIServiceCondition). */
export function localAvailableCondition(now: Date): APIServiceCondition {
  return {
    type: 'Available',
    status: 'True',
    lastTransitionTime: now.toISOString().replace(/\.\d+Z$/, 'Z'),
    reason: 'Local',
    message: 'Local APIServices are always available',
  };
}

export const apiServiceStrategy = typedStrategy<APIService>({
  applyDefaults(obj) {
    if (obj.spec?.service && obj.spec.service.port === undefined) obj.spec.service.port = 443;
  },
  prepareForCreate(obj, ctx) {
    obj.status = {};
    if (!obj.spec?.service) obj.status.conditions = [localAvailableCondition(ctx.now)];
  },
  validate: (obj) => validateAPIService(obj),
  validateUpdate: (obj) => validateAPIService(obj),
});

export const apiServiceStatusStrategy = typedSubresource<APIService>({
  prepareForUpdate: (obj, old) => withStatusOf(obj, old, STORED_METADATA),
  validateUpdate: (obj) => validateAPIServiceStatus(obj),
});
