/** Event fields usable in field selectors, as Kubernetes' event GetAttrs lists them (both Event APIs read them). */
import { METADATA_FIELDS, typedSelectableFields } from '../../../api/strategy.js';
import type { CoreV1Event } from '../../../api/generated/types.js';

export const eventSelectableFields = typedSelectableFields<CoreV1Event>({
  'involvedObject.kind': (o) => o.involvedObject?.kind,
  'involvedObject.namespace': (o) => o.involvedObject?.namespace,
  'involvedObject.name': (o) => o.involvedObject?.name,
  'involvedObject.uid': (o) => o.involvedObject?.uid,
  'involvedObject.apiVersion': (o) => o.involvedObject?.apiVersion,
  'involvedObject.resourceVersion': (o) => o.involvedObject?.resourceVersion,
  'involvedObject.fieldPath': (o) => o.involvedObject?.fieldPath,
  reason: (o) => o.reason,
  reportingComponent: (o) => o.reportingComponent,
  source: (o) => o.source?.component,
  type: (o) => o.type,
  ...METADATA_FIELDS,
});
