/**
 * Kubernetes' event validation for requests made through events.k8s.io/v1 (ValidateEventCreate /
 * ValidateEventUpdate with that request version), over the core form of the event: field paths are
 * the core field names, as in Kubernetes, whose validation runs on the internal (core-shaped) object.
 */
import type { ApiObject } from '../../../api/object.js';
import { jsonEqual } from '../../../api/object.js';
import type { FieldError } from '../../../api/field-errors.js';
import { invalid, required } from '../../../api/field-errors.js';
import { isDNS1123Subdomain, isQualifiedName } from '../../../api/validation/names.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../../api/validation/object-meta.js';

const REPORTING_INSTANCE_LIMIT = 128;
const ACTION_LIMIT = 128;
const REASON_LIMIT = 128;
const NOTE_LIMIT = 1024;
const EVENT_TYPES = ['Normal', 'Warning'];

/** A core v1 Event's fields (what the events.k8s.io/v1 object converts to). */
export interface CoreEvent extends ApiObject {
  involvedObject?: Record<string, unknown>;
  reason?: string;
  message?: string;
  source?: { component?: string; host?: string };
  firstTimestamp?: string;
  lastTimestamp?: string;
  count?: number;
  type?: string;
  eventTime?: string;
  series?: { count?: number; lastObservedTime?: string };
  action?: string;
  related?: Record<string, unknown>;
  reportingComponent?: string;
  reportingInstance?: string;
}

/**
 * legacyValidateEvent: what every event must satisfy, whichever API wrote it. Kubernetes names the
 * reporting controller `reportingComponent` in errors for core v1 requests, `reportingController` otherwise.
 */
export function legacyValidateEvent(
  e: CoreEvent,
  systemNamespace: string,
  reportingField: 'reportingController' | 'reportingComponent',
): FieldError[] {
  const errors: FieldError[] = [];
  const ns = e.metadata.namespace ?? '';
  const involvedNs = String(e.involvedObject?.namespace ?? '');
  const mismatch = () => errors.push(invalid('involvedObject.namespace', involvedNs, 'does not match event.namespace'));
  if (!e.eventTime) {
    if (involvedNs === '' ? ns !== '' && ns !== 'default' : ns !== involvedNs) mismatch();
  } else {
    if (involvedNs === '' && ns !== 'default' && ns !== systemNamespace) mismatch();
    const controller = e.reportingComponent ?? '';
    if (!controller) errors.push(required(reportingField));
    for (const msg of isQualifiedName(controller)) errors.push(invalid(reportingField, controller, msg));
    const limited: [string, string, number][] = [
      ['reportingInstance', e.reportingInstance ?? '', REPORTING_INSTANCE_LIMIT],
      ['action', e.action ?? '', ACTION_LIMIT],
      ['reason', e.reason ?? '', REASON_LIMIT],
    ];
    for (const [field, value, limit] of limited) {
      if (!value) errors.push(required(field));
      if (value.length > limit) errors.push(invalid(field, '', `can have at most ${limit} characters`));
    }
    if ((e.message ?? '').length > NOTE_LIMIT) errors.push(invalid('message', '', `can have at most ${NOTE_LIMIT} characters`));
  }
  for (const msg of isDNS1123Subdomain(ns)) errors.push(invalid('namespace', ns, msg));
  return errors;
}

/** validateV1EventSeries: a series counts at least 2 occurrences and says when it saw the last. */
function validateSeries(e: CoreEvent): FieldError[] {
  if (!e.series) return [];
  const errors: FieldError[] = [];
  if ((e.series.count ?? 0) < 2) errors.push(invalid('series.count', '', 'should be at least 2'));
  if (!e.series.lastObservedTime) errors.push(required('series.lastObservedTime'));
  return errors;
}

/** ValidateEventCreate for events.k8s.io/v1: legacy rules, then the strict ones of the new API. */
export function validateEventCreate(e: CoreEvent, systemNamespace: string): FieldError[] {
  const errors = [...legacyValidateEvent(e, systemNamespace, 'reportingController'), ...validateSeries(e)];
  if (!e.eventTime) errors.push(required('eventTime'));
  if (!EVENT_TYPES.includes(e.type ?? '')) errors.push(invalid('type', '', `has invalid value: ${e.type ?? ''}`));
  if (e.firstTimestamp) errors.push(invalid('firstTimestamp', '', 'needs to be unset'));
  if (e.lastTimestamp) errors.push(invalid('lastTimestamp', '', 'needs to be unset'));
  if (e.count) errors.push(invalid('count', '', 'needs to be unset'));
  if (e.source?.component || e.source?.host) errors.push(invalid('source', '', 'needs to be unset'));
  return errors;
}

/** A MicroTime compared at microsecond precision, as Kubernetes tolerates finer differences in eventTime. */
function microseconds(t: string | undefined): string {
  if (!t) return '';
  const m = /^(.*?)(?:\.(\d+))?([Zz]|[+-]\d\d:\d\d)$/.exec(t);
  if (!m) return t;
  return `${Date.parse(m[1] + m[3])}.${(m[2] ?? '').padEnd(6, '0').slice(0, 6)}`;
}

/** ValidateEventUpdate for events.k8s.io/v1: legacy rules, a changed series, and what an event may never change. */
export function validateEventUpdate(e: CoreEvent, old: CoreEvent, systemNamespace: string): FieldError[] {
  const errors = legacyValidateEvent(e, systemNamespace, 'reportingController');
  if (!jsonEqual(e.series, old.series)) errors.push(...validateSeries(e));
  const immutable = (field: string, value: unknown, oldValue: unknown, zero: unknown) => {
    if (!jsonEqual(value ?? zero, oldValue ?? zero)) errors.push(invalid(field, value ?? zero, FIELD_IMMUTABLE_ERROR_MSG));
  };
  immutable('involvedObject', e.involvedObject, old.involvedObject, {});
  immutable('reason', e.reason, old.reason, '');
  immutable('message', e.message, old.message, '');
  immutable('source', e.source, old.source, {});
  immutable('firstTimestamp', e.firstTimestamp, old.firstTimestamp, null);
  immutable('lastTimestamp', e.lastTimestamp, old.lastTimestamp, null);
  immutable('count', e.count, old.count, 0);
  // Kubernetes checks reason twice; a changed reason is reported twice, as there.
  immutable('reason', e.reason, old.reason, '');
  immutable('type', e.type, old.type, '');
  if (microseconds(e.eventTime) !== microseconds(old.eventTime)) immutable('eventTime', e.eventTime, old.eventTime, null);
  immutable('action', e.action, old.action, '');
  immutable('related', e.related, old.related, null);
  immutable('reportingController', e.reportingComponent, old.reportingComponent, '');
  immutable('reportingInstance', e.reportingInstance, old.reportingInstance, '');
  return errors;
}
