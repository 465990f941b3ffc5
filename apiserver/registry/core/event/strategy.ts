/** core/v1 Event: Kubernetes' legacy event validation (involvedObject namespace, reporting fields). */
import type { ApiObject } from '../../../api/object.js';
import type { Strategy } from '../../../api/strategy.js';
import { legacyValidateEvent } from '../../events/validation.js';

export const eventStrategy: Strategy = {
  validate: (obj, ctx) => legacyValidateEvent(obj, ctx.domain.systemNamespace, 'reportingComponent'),
  validateUpdate: (obj, _old, ctx) => legacyValidateEvent(obj, ctx.domain.systemNamespace, 'reportingComponent'),
};

/** Event fields usable in field selectors, as Kubernetes' event GetAttrs lists them. */
export const eventSelectableFields: Record<string, (obj: ApiObject) => string | undefined> = {
  'involvedObject.kind': (o) => (o.involvedObject as Record<string, string> | undefined)?.kind,
  'involvedObject.namespace': (o) => (o.involvedObject as Record<string, string> | undefined)?.namespace,
  'involvedObject.name': (o) => (o.involvedObject as Record<string, string> | undefined)?.name,
  'involvedObject.uid': (o) => (o.involvedObject as Record<string, string> | undefined)?.uid,
  'involvedObject.apiVersion': (o) => (o.involvedObject as Record<string, string> | undefined)?.apiVersion,
  'involvedObject.resourceVersion': (o) => (o.involvedObject as Record<string, string> | undefined)?.resourceVersion,
  'involvedObject.fieldPath': (o) => (o.involvedObject as Record<string, string> | undefined)?.fieldPath,
  reason: (o) => o.reason as string | undefined,
  reportingComponent: (o) => o.reportingComponent as string | undefined,
  source: (o) => (o.source as Record<string, string> | undefined)?.component,
  type: (o) => o.type as string | undefined,
};
