/** core/v1 Event: Kubernetes' legacy event validation (involvedObject namespace, reporting fields). */
import type { Strategy } from '../../../api/strategy.js';
import { legacyValidateEvent } from '../../shared/event/validation.js';

export const eventStrategy: Strategy = {
  validate: (obj, ctx) => legacyValidateEvent(obj, ctx.domain.systemNamespace, 'reportingComponent'),
  validateUpdate: (obj, _old, ctx) => legacyValidateEvent(obj, ctx.domain.systemNamespace, 'reportingComponent'),
};
