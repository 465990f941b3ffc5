import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { errorMessage } from '../../../../../apiserver/api/field-errors.js';
import {
  legacyValidateEvent,
  validateEventCreate,
  validateEventUpdate,
  type CoreEvent,
} from '../../../../../apiserver/registry/shared/event/validation.js';

const messages = (errs: { field: string }[]) => errs.map((e) => errorMessage(e as never));

/** A valid event in core form, as created through events.k8s.io/v1. */
function event(fields: Partial<CoreEvent> = {}): CoreEvent {
  return {
    metadata: { name: 'e', namespace: 'ns' },
    eventTime: '2024-01-02T03:04:05.123456Z',
    reportingComponent: 'orch.io/kubelet',
    reportingInstance: 'node-1',
    action: 'Pulling',
    reason: 'Pulled',
    type: 'Normal',
    involvedObject: { kind: 'Pod', name: 'p', namespace: 'ns' },
    ...fields,
  };
}

describe('events.k8s.io/v1 create validation', () => {
  it('accepts a complete new-style event', () => {
    assert.deepEqual(validateEventCreate(event(), 'orch-system'), []);
  });

  it('requires eventTime, reporting fields, action, reason and a known type', () => {
    const e = event({
      eventTime: undefined,
      reportingComponent: undefined,
      reportingInstance: undefined,
      action: undefined,
      reason: undefined,
      type: 'Info',
    });
    assert.deepEqual(messages(validateEventCreate(e, 'orch-system')), [
      'eventTime: Required value',
      'type: Invalid value: "": has invalid value: Info',
    ]);
    const timed = event({ reportingComponent: '', reportingInstance: '', action: '', reason: '' });
    assert.deepEqual(messages(validateEventCreate(timed, 'orch-system')), [
      'reportingController: Required value',
      'reportingController: Invalid value: "": name part must be non-empty',
      "reportingController: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      'reportingInstance: Required value',
      'action: Required value',
      'reason: Required value',
    ]);
  });

  it('limits lengths', () => {
    const long = (n: number) => 'x'.repeat(n);
    const e = event({ reportingInstance: long(129), action: long(129), reason: long(129), message: long(1025) });
    assert.deepEqual(messages(validateEventCreate(e, 'orch-system')), [
      'reportingInstance: Invalid value: "": can have at most 128 characters',
      'action: Invalid value: "": can have at most 128 characters',
      'reason: Invalid value: "": can have at most 128 characters',
      'message: Invalid value: "": can have at most 1024 characters',
    ]);
  });

  it('refuses the deprecated fields and checks a series', () => {
    const e = event({
      firstTimestamp: '2024-01-01T00:00:00Z',
      lastTimestamp: '2024-01-01T00:00:00Z',
      count: 2,
      source: { host: 'h' },
      series: { count: 1 },
    });
    assert.deepEqual(messages(validateEventCreate(e, 'orch-system')), [
      'series.count: Invalid value: "": should be at least 2',
      'series.lastObservedTime: Required value',
      'firstTimestamp: Invalid value: "": needs to be unset',
      'lastTimestamp: Invalid value: "": needs to be unset',
      'count: Invalid value: "": needs to be unset',
      'source: Invalid value: "": needs to be unset',
    ]);
  });

  it('lets a regarding object without namespace report only into default or the system namespace', () => {
    const clusterScoped = { kind: 'Node', name: 'n' };
    assert.deepEqual(
      validateEventCreate(event({ metadata: { name: 'e', namespace: 'orch-system' }, involvedObject: clusterScoped }), 'orch-system'),
      [],
    );
    assert.deepEqual(messages(validateEventCreate(event({ involvedObject: clusterScoped }), 'orch-system')), [
      'involvedObject.namespace: Invalid value: "": does not match event.namespace',
    ]);
  });
});

describe('legacy event validation', () => {
  it('names the reporting controller as the request version does', () => {
    const e = event({ reportingComponent: undefined });
    assert.deepEqual(messages(legacyValidateEvent(e, 'orch-system', 'reportingComponent')).slice(0, 1), [
      'reportingComponent: Required value',
    ]);
    assert.deepEqual(messages(legacyValidateEvent(e, 'orch-system', 'reportingController')).slice(0, 1), [
      'reportingController: Required value',
    ]);
  });

  it('only checks namespaces for events without eventTime', () => {
    const old = event({
      eventTime: undefined,
      reportingComponent: undefined,
      action: undefined,
      involvedObject: { kind: 'Node', name: 'n' },
    });
    assert.deepEqual(messages(legacyValidateEvent(old, 'orch-system', 'reportingController')), [
      'involvedObject.namespace: Invalid value: "": does not match event.namespace',
    ]);
    assert.deepEqual(
      legacyValidateEvent({ ...old, metadata: { name: 'e', namespace: 'default' } }, 'orch-system', 'reportingController'),
      [],
    );
  });
});

describe('events.k8s.io/v1 update validation', () => {
  it('keeps every field of an event as it was', () => {
    const old = event({ series: { count: 2, lastObservedTime: '2024-01-02T03:04:06Z' } });
    const changed = event({
      involvedObject: { kind: 'Pod', name: 'q', namespace: 'ns' },
      reason: 'Other',
      message: 'm',
      action: 'A',
      type: 'Warning',
      eventTime: '2024-01-02T03:04:05.123457Z',
      reportingComponent: 'orch.io/other',
      reportingInstance: 'node-2',
      related: { kind: 'Node' },
      series: { count: 3, lastObservedTime: '2024-01-02T03:04:07Z' },
    });
    assert.deepEqual(messages(validateEventUpdate(changed, old, 'orch-system')), [
      'involvedObject: Invalid value: {"kind":"Pod","name":"q","namespace":"ns"}: field is immutable',
      'reason: Invalid value: "Other": field is immutable',
      'message: Invalid value: "m": field is immutable',
      'reason: Invalid value: "Other": field is immutable',
      'type: Invalid value: "Warning": field is immutable',
      'eventTime: Invalid value: "2024-01-02T03:04:05.123457Z": field is immutable',
      'action: Invalid value: "A": field is immutable',
      'related: Invalid value: {"kind":"Node"}: field is immutable',
      'reportingController: Invalid value: "orch.io/other": field is immutable',
      'reportingInstance: Invalid value: "node-2": field is immutable',
    ]);
  });

  it('tolerates eventTime differences below a microsecond and deprecated fields already stored', () => {
    const legacy = event({ count: 4, firstTimestamp: '2024-01-01T00:00:00Z', eventTime: '2024-01-02T03:04:05.1234561Z' });
    assert.deepEqual(validateEventUpdate({ ...legacy, eventTime: '2024-01-02T03:04:05.123456Z' }, legacy, 'orch-system'), []);
  });

  it('validates a series only when it changes', () => {
    const old = event({ series: { count: 1 } });
    assert.deepEqual(validateEventUpdate(event({ series: { count: 1 } }), old, 'orch-system'), []);
    assert.deepEqual(messages(validateEventUpdate(event({ series: { count: 0 } }), old, 'orch-system')), [
      'series.count: Invalid value: "": should be at least 2',
      'series.lastObservedTime: Required value',
    ]);
  });
});
