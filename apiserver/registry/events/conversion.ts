/**
 * events.k8s.io/v1 Event ↔ core v1 Event, as Kubernetes converts them (pkg/apis/events/v1/conversion.go):
 * the same fields under other names — note↔message, regarding↔involvedObject, reportingController↔
 * reportingComponent (core's JSON name), deprecatedSource/FirstTimestamp/LastTimestamp/Count ↔
 * source/firstTimestamp/lastTimestamp/count — and the rest (metadata, eventTime, series, action, reason,
 * type, related, reportingInstance) as they are.
 */
import type { ApiObject } from '../../api/object.js';
import type { StorageConversion } from '../../api/resource.js';

/** events.k8s.io/v1 field name → core v1 field name, for the fields whose names differ. */
const EVENTS_TO_CORE: Readonly<Record<string, string>> = {
  note: 'message',
  regarding: 'involvedObject',
  reportingController: 'reportingComponent',
  deprecatedSource: 'source',
  deprecatedFirstTimestamp: 'firstTimestamp',
  deprecatedLastTimestamp: 'lastTimestamp',
  deprecatedCount: 'count',
};

const CORE_TO_EVENTS: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(EVENTS_TO_CORE).map(([e, c]) => [c, e]));

function renameFields(obj: ApiObject, names: Readonly<Record<string, string>>): ApiObject {
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [Object.hasOwn(names, k) ? names[k] : k, v])) as ApiObject;
}

/** An events.k8s.io/v1 Event's fields as core v1 names them. */
export function eventsV1ToCore(obj: ApiObject): ApiObject {
  return renameFields(obj, EVENTS_TO_CORE);
}

/** A core v1 Event's fields as events.k8s.io/v1 names them. */
export function coreToEventsV1(obj: ApiObject): ApiObject {
  return renameFields(obj, CORE_TO_EVENTS);
}

/** events.k8s.io/v1 Events are core v1 Events in storage (`/registry/events/<ns>/<name>`). */
export const eventsV1Conversion: StorageConversion = {
  storage: { kubernetesGroup: '', version: 'v1', kind: 'Event', resource: 'events' },
  toStorage: eventsV1ToCore,
  fromStorage: coreToEventsV1,
};

/** The served field-selector label → the core label it stands for (Kubernetes' field label conversion). */
export const EVENTS_V1_FIELD_LABELS: Readonly<Record<string, string>> = {
  'regarding.kind': 'involvedObject.kind',
  'regarding.namespace': 'involvedObject.namespace',
  'regarding.name': 'involvedObject.name',
  'regarding.uid': 'involvedObject.uid',
  'regarding.apiVersion': 'involvedObject.apiVersion',
  'regarding.resourceVersion': 'involvedObject.resourceVersion',
  'regarding.fieldPath': 'involvedObject.fieldPath',
  reason: 'reason',
  reportingController: 'reportingComponent',
  type: 'type',
  'metadata.namespace': 'metadata.namespace',
  'metadata.name': 'metadata.name',
};
