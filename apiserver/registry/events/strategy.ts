/**
 * events.k8s.io/v1 Event: Kubernetes' strict event validation for this request version, run on the core
 * form of the object (the form it is stored in), and the field selectors the events API accepts.
 */
import type { ApiObject } from '../../api/object.js';
import type { Strategy } from '../../api/strategy.js';
import { eventSelectableFields } from '../shared/event/selectable-fields.js';
import { EVENTS_V1_FIELD_LABELS, eventsV1ToCore } from './conversion.js';
import { validateEventCreate, validateEventUpdate, type CoreEvent } from '../shared/event/validation.js';

const asCore = (obj: ApiObject): CoreEvent => eventsV1ToCore(obj);

/** The strict rules hold for new events only: an event written through core v1 may be updated here. */
export const eventsV1Strategy: Strategy = {
  validate: (obj, ctx) => validateEventCreate(asCore(obj), ctx.domain.systemNamespace),
  validateUpdate: (obj, old, ctx) => validateEventUpdate(asCore(obj), asCore(old), ctx.domain.systemNamespace),
};

/** The field selectors of events.k8s.io/v1, each read as the core label it converts to. */
export const eventsV1SelectableFields: Record<string, (obj: ApiObject) => string | undefined> = Object.fromEntries(
  Object.entries(EVENTS_V1_FIELD_LABELS).map(([label, coreLabel]) => [
    label,
    (obj: ApiObject) => eventSelectableFields[coreLabel](asCore(obj)),
  ]),
);
