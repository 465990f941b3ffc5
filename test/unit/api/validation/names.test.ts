import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  emptyError,
  isConfigMapKey,
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  maxLenError,
  nameIsDNS1035Label,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  regexError,
  validatePathSegmentName,
} from '../../../../apiserver/api/validation/names.js';

const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const CONFIG_KEY_MSG =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

test('message helpers', () => {
  assert.equal(maxLenError(63), 'must be no more than 63 characters');
  assert.equal(emptyError(), 'must be non-empty');
  assert.equal(regexError('msg', 'x+'), "msg (regex used for validation is 'x+')");
  assert.equal(regexError('msg', 'x+', 'a'), "msg (e.g. 'a', regex used for validation is 'x+')");
});

test('isDNS1123Label', () => {
  for (const ok of ['a', '0', 'my-name', '123-abc', 'a'.repeat(63)]) assert.deepEqual(isDNS1123Label(ok), [], ok);
  assert.deepEqual(isDNS1123Label(''), [LABEL_MSG]);
  assert.deepEqual(isDNS1123Label('A'), [LABEL_MSG]);
  assert.deepEqual(isDNS1123Label('-a'), [LABEL_MSG]);
  assert.deepEqual(isDNS1123Label('a-'), [LABEL_MSG]);
  assert.deepEqual(isDNS1123Label('a_b'), [LABEL_MSG]);
  assert.deepEqual(isDNS1123Label('a.b'), ['must not contain dots']);
  assert.deepEqual(isDNS1123Label('a'.repeat(64)), ['must be no more than 63 characters']);
  assert.deepEqual(isDNS1123Label('A'.repeat(64)), ['must be no more than 63 characters', LABEL_MSG]);
});

test('isDNS1123Subdomain', () => {
  for (const ok of ['a', 'example.com', 'a-b.c-d', 'a'.repeat(253)]) assert.deepEqual(isDNS1123Subdomain(ok), [], ok);
  assert.deepEqual(isDNS1123Subdomain('A_b'), [SUBDOMAIN_MSG]);
  assert.deepEqual(isDNS1123Subdomain('a..b'), [SUBDOMAIN_MSG]);
  assert.deepEqual(isDNS1123Subdomain('.a'), [SUBDOMAIN_MSG]);
  assert.deepEqual(isDNS1123Subdomain(''), [SUBDOMAIN_MSG]);
  assert.deepEqual(isDNS1123Subdomain('a'.repeat(254)), ['must be no more than 253 characters']);
});

test('isDNS1035Label', () => {
  for (const ok of ['a', 'my-name', 'abc-123']) assert.deepEqual(isDNS1035Label(ok), [], ok);
  assert.deepEqual(isDNS1035Label('1abc'), [DNS1035_MSG]);
  assert.deepEqual(isDNS1035Label('a.b'), [DNS1035_MSG]);
  assert.deepEqual(isDNS1035Label('a'.repeat(64)), ['must be no more than 63 characters']);
});

test('isQualifiedName', () => {
  for (const ok of ['a', 'A', 'my.name', 'My_Name-1', 'example.com/MyName', 'k8s.io/a', 'a'.repeat(63)]) {
    assert.deepEqual(isQualifiedName(ok), [], ok);
  }
  assert.deepEqual(isQualifiedName(''), ['name part must be non-empty', NAME_PART_MSG]);
  assert.deepEqual(isQualifiedName('_a'), [NAME_PART_MSG]);
  assert.deepEqual(isQualifiedName('a'.repeat(64)), ['name part must be no more than 63 characters']);
  assert.deepEqual(isQualifiedName('/a'), ['prefix part must be non-empty']);
  assert.deepEqual(isQualifiedName('a/'), ['name part must be non-empty', NAME_PART_MSG]);
  assert.deepEqual(isQualifiedName('Example.com/a'), [`prefix part ${SUBDOMAIN_MSG}`]);
  assert.deepEqual(isQualifiedName('a/b/c'), [
    "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
  ]);
});

test('isValidLabelValue', () => {
  for (const ok of ['', 'a', 'MyValue', 'my_value', '12345', 'a.b-c', 'a'.repeat(63)]) assert.deepEqual(isValidLabelValue(ok), [], ok);
  assert.deepEqual(isValidLabelValue('a_'), [LABEL_VALUE_MSG]);
  assert.deepEqual(isValidLabelValue('a b'), [LABEL_VALUE_MSG]);
  assert.deepEqual(isValidLabelValue('a'.repeat(64)), ['must be no more than 63 characters']);
});

test('isConfigMapKey', () => {
  for (const ok of ['key.name', 'KEY_NAME', 'key-name', '.a', 'a..b']) assert.deepEqual(isConfigMapKey(ok), [], ok);
  assert.deepEqual(isConfigMapKey('a/b'), [CONFIG_KEY_MSG]);
  assert.deepEqual(isConfigMapKey(''), [CONFIG_KEY_MSG]);
  assert.deepEqual(isConfigMapKey('.'), ["must not be '.'"]);
  assert.deepEqual(isConfigMapKey('..'), ["must not be '..'"]);
  assert.deepEqual(isConfigMapKey('..a'), ["must not start with '..'"]);
  assert.deepEqual(isConfigMapKey('a'.repeat(254)), ['must be no more than 253 characters']);
});

test('validatePathSegmentName', () => {
  assert.deepEqual(validatePathSegmentName('ok name', false), []);
  assert.deepEqual(validatePathSegmentName('.', false), ["may not be '.'"]);
  assert.deepEqual(validatePathSegmentName('..', false), ["may not be '..'"]);
  assert.deepEqual(validatePathSegmentName('a/b%c', false), ["may not contain '/'", "may not contain '%'"]);
  assert.deepEqual(validatePathSegmentName('.', true), []);
  assert.deepEqual(validatePathSegmentName('a%', true), ["may not contain '%'"]);
});

test('name functions check generateName prefixes with a trailing dash allowed', () => {
  assert.deepEqual(nameIsDNSSubdomain('my-app', false), []);
  assert.deepEqual(nameIsDNSSubdomain('my-app-', false), [SUBDOMAIN_MSG]);
  assert.deepEqual(nameIsDNSSubdomain('my-app-', true), []);
  assert.deepEqual(nameIsDNSSubdomain('My-', true), [SUBDOMAIN_MSG]);
  assert.deepEqual(nameIsDNSLabel('ns-', true), []);
  assert.deepEqual(nameIsDNSLabel('a.b-', true), ['must not contain dots']);
  assert.deepEqual(nameIsDNSLabel('ns-', false), [LABEL_MSG]);
  assert.deepEqual(nameIsDNS1035Label('svc-', true), []);
  assert.deepEqual(nameIsDNS1035Label('1svc', false), [DNS1035_MSG]);
});
