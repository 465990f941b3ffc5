import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffAnswers } from '../../../../scripts/compare/diff.js';

const status = (code: number, reason: string, message: string, details?: unknown) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message,
  reason,
  code,
  ...(details ? { details } : {}),
});

test('equal answers up to server-made values have no difference', () => {
  const a = { status: 201, body: { kind: 'ConfigMap', metadata: { name: 'a', uid: '1', resourceVersion: '5' } } };
  const b = { status: 201, body: { kind: 'ConfigMap', metadata: { name: 'a', uid: '2', resourceVersion: '900' } } };
  assert.deepEqual(diffAnswers(a, b), []);
});

test('a status code and a body field that differ are both reported, with their paths', () => {
  const got = diffAnswers(
    { status: 200, body: { kind: 'Service', spec: { type: 'ClusterIP' } } },
    { status: 201, body: { kind: 'Service', spec: { type: 'ClusterIP', sessionAffinity: 'None' } } },
  );
  assert.deepEqual(got, [
    { path: 'status', orch: 200, reference: 201 },
    { path: 'body.spec.sessionAffinity', orch: undefined, reference: 'None' },
  ]);
});

test('a Status is compared by reason, code and details, not by its message', () => {
  const cause = {
    reason: 'FieldValueInvalid',
    field: 'spec.ports[0].port',
    message: 'Invalid value: 0: must be between 1 and 65535, inclusive',
  };
  const orch = { status: 422, body: status(422, 'Invalid', 'one wording', { name: 's', kind: 'Service', causes: [cause] }) };
  const same = { status: 422, body: status(422, 'Invalid', 'another wording', { name: 's', kind: 'Service', causes: [cause] }) };
  assert.deepEqual(diffAnswers(orch, same), []);
  const otherCause = { ...cause, message: 'Invalid value: "0": must be between 1 and 65535, inclusive' };
  const differs = { status: 422, body: status(422, 'Invalid', 'x', { name: 's', kind: 'Service', causes: [otherCause] }) };
  assert.deepEqual(diffAnswers(orch, differs), [
    { path: 'body.details.causes.0.message', orch: cause.message, reference: otherCause.message },
  ]);
});

test('a Status against an object: the whole body differs where the kinds differ', () => {
  const got = diffAnswers(
    { status: 200, body: { kind: 'Status', status: 'Success', details: { name: 'a', kind: 'services' } } },
    { status: 200, body: { kind: 'Service', metadata: { name: 'a' } } },
  );
  assert.deepEqual(
    got.map((d) => d.path),
    ['body.details', 'body.kind', 'body.metadata', 'body.status'],
  );
});

test('arrays of different lengths are reported whole', () => {
  const got = diffAnswers({ status: 200, body: { items: [1] } }, { status: 200, body: { items: [1, 2] } });
  assert.deepEqual(got, [{ path: 'body.items', orch: [1], reference: [1, 2] }]);
});

test('watch events: the type sequence first, then each object', () => {
  const ev = (type: string, rv: string, v: string) => ({ type, object: { metadata: { name: 'a', resourceVersion: rv }, data: { v } } });
  assert.deepEqual(
    diffAnswers(
      { status: 200, body: null, events: [ev('ADDED', '1', 'x')] },
      { status: 200, body: null, events: [ev('ADDED', '7', 'x'), ev('DELETED', '8', 'x')] },
    ),
    [{ path: 'events', orch: 'ADDED', reference: 'ADDED,DELETED' }],
  );
  assert.deepEqual(
    diffAnswers({ status: 200, body: null, events: [ev('ADDED', '1', 'x')] }, { status: 200, body: null, events: [ev('ADDED', '9', 'y')] }),
    [{ path: 'events.0.data.v', orch: 'x', reference: 'y' }],
  );
});

test('Warning headers are compared as texts', () => {
  const got = diffAnswers(
    { status: 201, body: {}, warnings: '299 - "a"' },
    { status: 201, body: {}, warnings: ['299 - "a"', '299 - "b"'] },
  );
  assert.deepEqual(got, [{ path: 'warnings', orch: ['a'], reference: ['a', 'b'] }]);
});

test("a watch's initial ADDED events are compared sorted by name, later events in order", () => {
  const ev = (type: string, name: string) => ({ type, object: { metadata: { name } } });
  const orch = { status: 200, body: undefined, events: [ev('ADDED', 'b'), ev('ADDED', 'a'), ev('MODIFIED', 'b'), ev('MODIFIED', 'a')] };
  const ref = { status: 200, body: undefined, events: [ev('ADDED', 'a'), ev('ADDED', 'b'), ev('MODIFIED', 'a'), ev('MODIFIED', 'b')] };
  assert.deepEqual(
    diffAnswers(orch, ref).map((d) => d.path),
    ['events.2.metadata.name', 'events.3.metadata.name'],
  );
});
