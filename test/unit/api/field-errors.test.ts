import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  aggregateMessage,
  duplicate,
  errorBody,
  errorMessage,
  fieldPath,
  forbidden,
  formatGoNumber,
  goQuote,
  goTyped,
  invalid,
  notFound,
  notSupported,
  reasonOf,
  required,
  tooLong,
  tooMany,
  typeInvalid,
} from '../../../apiserver/api/field-errors.js';

test('path builder prints like field.Path', () => {
  assert.equal(fieldPath('spec').child('ports').index(0).key('x').toString(), 'spec.ports[0][x]');
  assert.equal(fieldPath('metadata', 'labels').key('app').toString(), 'metadata.labels[app]');
  assert.equal(
    fieldPath('spec').child('template', 'spec').child('containers').index(2).child('name').toString(),
    'spec.template.spec.containers[2].name',
  );
  assert.equal(String(fieldPath('data')), 'data');
});

test('paths are immutable values', () => {
  const base = fieldPath('spec');
  const a = base.child('a');
  const b = base.child('b');
  assert.equal(base.toString(), 'spec');
  assert.equal(a.toString(), 'spec.a');
  assert.equal(b.toString(), 'spec.b');
});

test('factories take a path or its text', () => {
  assert.deepEqual(required(fieldPath('data')), { type: 'FieldValueRequired', field: 'data', badValue: '', detail: '' });
  assert.deepEqual(invalid('metadata.name', 'A_b', 'bad'), {
    type: 'FieldValueInvalid',
    field: 'metadata.name',
    badValue: 'A_b',
    detail: 'bad',
  });
});

test('Required, Forbidden, TooLong and Internal errors never print the value', () => {
  assert.equal(errorMessage(required('data')), 'data: Required value');
  assert.equal(
    errorMessage(required('metadata.name', 'name or generateName is required')),
    'metadata.name: Required value: name or generateName is required',
  );
  assert.equal(
    errorMessage(forbidden('metadata.namespace', 'not allowed on this type')),
    'metadata.namespace: Forbidden: not allowed on this type',
  );
  assert.equal(
    errorMessage(tooLong('metadata.annotations', 'x'.repeat(10), 262144)),
    'metadata.annotations: Too long: may not be more than 262144 bytes',
  );
  assert.equal(errorMessage(tooLong('a', '', 1)), 'a: Too long: may not be more than 1 byte');
  assert.equal(errorMessage(tooLong('a', '', -1)), 'a: Too long: value is too long');
  assert.equal(errorMessage({ type: 'InternalError', field: 'a', badValue: 'x', detail: 'boom' }), 'a: Internal error: boom');
});

test('Invalid prints the value: strings as %q, numbers and booleans plainly, null, string slices and named maps as %#v, JSON otherwise', () => {
  const long =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
  assert.equal(errorMessage(invalid('metadata.name', 'A_b', long)), `metadata.name: Invalid value: "A_b": ${long}`);
  assert.equal(
    errorMessage(invalid('metadata.generation', -1, 'must be greater than or equal to 0')),
    'metadata.generation: Invalid value: -1: must be greater than or equal to 0',
  );
  assert.equal(errorMessage(invalid('f', 0.5, 'd')), 'f: Invalid value: 0.5: d');
  assert.equal(errorMessage(invalid('f', true, 'd')), 'f: Invalid value: true: d');
  assert.equal(errorMessage(invalid('f', null, 'd')), 'f: Invalid value: null: d');
  assert.equal(errorMessage(invalid('f', undefined, 'd')), 'f: Invalid value: null: d');
  assert.equal(errorMessage(invalid('f', ['a', 'b'], 'd')), 'f: Invalid value: []string{"a", "b"}: d');
  assert.equal(errorMessage(invalid('f', [], 'd')), 'f: Invalid value: []string{}: d');
  assert.equal(
    errorMessage(invalid('f', goTyped('[]core.ResourceQuotaScope', ['X']), 'd')),
    'f: Invalid value: []core.ResourceQuotaScope{"X"}: d',
  );
  assert.equal(
    errorMessage(invalid('f', goTyped('map[string]string', { b: '2', a: '"' }), 'd')),
    'f: Invalid value: map[string]string{"a":"\\"", "b":"2"}: d',
  );
  assert.equal(errorMessage(invalid('f', [1, 2], 'd')), 'f: Invalid value: [1,2]: d');
  assert.equal(errorMessage(invalid('f', Buffer.from('-\n'), 'd')), 'f: Invalid value: []byte{0x2d, 0xa}: d');
  assert.equal(errorMessage(invalid('f', goTyped('[]byte', null), 'd')), 'f: Invalid value: []byte(nil): d');
  assert.equal(errorMessage(invalid('f', { a: '<&>' }, 'd')), 'f: Invalid value: {"a":"\\u003c\\u0026\\u003e"}: d');
  assert.equal(errorMessage(invalid('f', 'x', '')), 'f: Invalid value: "x"');
});

test('NotSupported lists the supported values quoted', () => {
  assert.equal(errorMessage(notSupported('spec.type', 'X', ['A', 'B'])), 'spec.type: Unsupported value: "X": supported values: "A", "B"');
  assert.equal(errorMessage(notSupported('spec.type', 'X', [])), 'spec.type: Unsupported value: "X"');
});

test('Duplicate, NotFound and TypeInvalid', () => {
  assert.equal(errorMessage(duplicate('spec.ports[1].name', 'http')), 'spec.ports[1].name: Duplicate value: "http"');
  assert.equal(errorMessage(notFound('spec.volumeName', 'v')), 'spec.volumeName: Not found: "v"');
  assert.equal(
    errorMessage(typeInvalid('spec.replicas', 'x', 'must be an integer')),
    'spec.replicas: Invalid value: "x": must be an integer',
  );
});

test('TooMany omits a negative actual count', () => {
  assert.equal(errorMessage(tooMany('spec.items', 5, 3)), 'spec.items: Too many: 5: must have at most 3 items');
  assert.equal(errorMessage(tooMany('spec.items', 2, 1)), 'spec.items: Too many: 2: must have at most 1 item');
  assert.equal(errorMessage(tooMany('spec.items', -1, 3)), 'spec.items: Too many: must have at most 3 items');
  assert.equal(errorMessage(tooMany('spec.items', 4, -1)), 'spec.items: Too many: 4: has too many items');
});

test('errorBody is the message without the field', () => {
  assert.equal(errorBody(invalid('metadata.name', 'x', 'bad')), 'Invalid value: "x": bad');
});

test('reasonOf is the type string', () => {
  assert.equal(reasonOf('FieldValueInvalid'), 'FieldValueInvalid');
  assert.equal(reasonOf('FieldValueRequired'), 'FieldValueRequired');
  assert.equal(reasonOf('InternalError'), 'InternalError');
});

test('aggregateMessage dedupes and brackets like utilerrors', () => {
  const a = required('a');
  const b = required('b');
  assert.equal(aggregateMessage([]), '');
  assert.equal(aggregateMessage([a]), 'a: Required value');
  assert.equal(aggregateMessage([a, a]), 'a: Required value');
  assert.equal(aggregateMessage([a, b, a]), '[a: Required value, b: Required value]');
});

test('goQuote follows strconv.Quote', () => {
  assert.equal(goQuote('plain'), '"plain"');
  assert.equal(goQuote('say "hi" \\ now'), '"say \\"hi\\" \\\\ now"');
  assert.equal(goQuote('a\nb\tc\r\u0007\b\f\v'), '"a\\nb\\tc\\r\\a\\b\\f\\v"');
  assert.equal(goQuote('\u0001\u007f'), '"\\x01\\x7f"');
  assert.equal(goQuote('héllo 世界 😀'), '"héllo 世界 😀"');
  assert.equal(goQuote('\u00a0\u200b'), '"\\u00a0\\u200b"');
  assert.equal(goQuote('\u{e0001}'), '"\\U000e0001"');
});

test('formatGoNumber prints like Go', () => {
  assert.equal(formatGoNumber(80), '80');
  assert.equal(formatGoNumber(-3), '-3');
  assert.equal(formatGoNumber(1000000), '1000000');
  assert.equal(formatGoNumber(0.5), '0.5');
  assert.equal(formatGoNumber(0.0001), '0.0001');
  assert.equal(formatGoNumber(0.00001), '1e-05');
  assert.equal(formatGoNumber(1234567.5), '1.2345675e+06');
  assert.equal(formatGoNumber(99999.5), '99999.5');
});
