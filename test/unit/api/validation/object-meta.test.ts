import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errorMessage, fieldPath } from '../../../../apiserver/api/field-errors.js';
import type { ObjectMeta } from '../../../../apiserver/api/object-meta.js';
import { nameIsDNSLabel, nameIsDNSSubdomain } from '../../../../apiserver/api/validation/names.js';
import { type ObjectMetaOptions, validateObjectMeta, validateObjectMetaUpdate } from '../../../../apiserver/api/validation/object-meta.js';

const NAMESPACED: ObjectMetaOptions = { namespaced: true, nameFn: nameIsDNSSubdomain };
const CLUSTER: ObjectMetaOptions = { namespaced: false, nameFn: nameIsDNSLabel };

const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART_MSG =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

function messages(meta: ObjectMeta, opts: ObjectMetaOptions = NAMESPACED): string[] {
  return validateObjectMeta(meta, opts).map(errorMessage);
}

const valid: ObjectMeta = { name: 'cm', namespace: 'default' };

test('valid metadata has no errors', () => {
  assert.deepEqual(messages(valid), []);
  assert.deepEqual(messages({ name: 'node-1' }, CLUSTER), []);
  assert.deepEqual(
    messages({
      name: 'a.b',
      namespace: 'ns',
      labels: { app: 'web', 'example.com/tier': '' },
      annotations: { 'Example.com/Note': 'anything at all' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'u1', controller: true }],
      finalizers: ['example.com/cleanup', 'kubernetes'],
      managedFields: [{ manager: 'kubectl', operation: 'Update', fieldsType: 'FieldsV1' }],
    }),
    [],
  );
});

test('name or generateName is required', () => {
  assert.deepEqual(messages({ namespace: 'default' }), ['metadata.name: Required value: name or generateName is required']);
});

test('name is checked by the kind name function', () => {
  assert.deepEqual(messages({ name: 'A_b', namespace: 'default' }), [`metadata.name: Invalid value: "A_b": ${SUBDOMAIN_MSG}`]);
  assert.deepEqual(messages({ name: 'a.b' }, CLUSTER), ['metadata.name: Invalid value: "a.b": must not contain dots']);
});

test('generateName is checked as a prefix', () => {
  assert.deepEqual(messages({ generateName: 'web-', name: 'web-x7k2p', namespace: 'default' }), []);
  assert.deepEqual(messages({ generateName: 'Web-', name: 'web-x7k2p', namespace: 'default' }), [
    `metadata.generateName: Invalid value: "Web-": ${SUBDOMAIN_MSG}`,
  ]);
  assert.deepEqual(messages({ generateName: 'web-', namespace: 'default' }), [
    'metadata.name: Required value: name or generateName is required',
  ]);
});

test('namespace is required, a DNS label, or forbidden for cluster-scoped kinds', () => {
  assert.deepEqual(messages({ name: 'a' }), ['metadata.namespace: Required value']);
  assert.deepEqual(messages({ name: 'a', namespace: 'Bad_NS' }), [`metadata.namespace: Invalid value: "Bad_NS": ${LABEL_MSG}`]);
  assert.deepEqual(messages({ name: 'a', namespace: 'default' }, CLUSTER), ['metadata.namespace: Forbidden: not allowed on this type']);
});

test('generation may not be negative', () => {
  assert.deepEqual(messages({ ...valid, generation: -1 }), ['metadata.generation: Invalid value: -1: must be greater than or equal to 0']);
});

test('labels: keys are qualified names, values label values', () => {
  assert.deepEqual(messages({ ...valid, labels: { _bad: 'ok', good: 'bad value' } }), [
    `metadata.labels: Invalid value: "_bad": ${NAME_PART_MSG}`,
    `metadata.labels: Invalid value: "bad value": ${LABEL_VALUE_MSG}`,
  ]);
  assert.deepEqual(messages({ ...valid, labels: { a: 'x'.repeat(64) } }), [
    `metadata.labels: Invalid value: "${'x'.repeat(64)}": must be no more than 63 characters`,
  ]);
});

test('annotations: keys checked case-insensitively, total size limited', () => {
  assert.deepEqual(messages({ ...valid, annotations: { 'Example.COM/Upper-Case': 'x' } }), []);
  assert.deepEqual(messages({ ...valid, annotations: { 'Bad_Prefix/x': 'x' } }), [
    `metadata.annotations: Invalid value: "Bad_Prefix/x": prefix part ${SUBDOMAIN_MSG}`,
  ]);
  assert.deepEqual(messages({ ...valid, annotations: { 'bad key': 'x' } }), [
    `metadata.annotations: Invalid value: "bad key": ${NAME_PART_MSG}`,
  ]);
  assert.deepEqual(messages({ ...valid, annotations: { a: 'x'.repeat(262143) } }), []);
  assert.deepEqual(messages({ ...valid, annotations: { a: 'x'.repeat(262144) } }), [
    'metadata.annotations: Too long: may not be more than 262144 bytes',
  ]);
});

test('owner references: required fields, no Event owners, one controller', () => {
  assert.deepEqual(messages({ ...valid, ownerReferences: [{ apiVersion: '', kind: '', name: '', uid: '' }] }), [
    'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty',
    'metadata.ownerReferences.kind: Invalid value: "": must not be empty',
    'metadata.ownerReferences.name: Invalid value: "": must not be empty',
    'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
  ]);
  assert.deepEqual(messages({ ...valid, ownerReferences: [{ apiVersion: 'apps/', kind: 'X', name: 'n', uid: 'u' }] }), [
    'metadata.ownerReferences.apiVersion: Invalid value: "apps/": version must not be empty',
  ]);
  assert.deepEqual(messages({ ...valid, ownerReferences: [{ apiVersion: 'v1', kind: 'Event', name: 'e', uid: 'u' }] }), [
    'metadata.ownerReferences: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"u"}: /v1, Kind=Event is disallowed from being an owner',
  ]);
  const refs = [
    { apiVersion: 'v1', kind: 'A', name: 'a', uid: '1', controller: true },
    { apiVersion: 'v1', kind: 'B', name: 'b', uid: '2', controller: true },
  ];
  assert.deepEqual(messages({ ...valid, ownerReferences: refs }), [
    'metadata.ownerReferences: Invalid value: [{"apiVersion":"v1","kind":"A","name":"a","uid":"1","controller":true},{"apiVersion":"v1","kind":"B","name":"b","uid":"2","controller":true}]: Only one reference can have Controller set to true. Found "true" in references for A/a and B/b',
  ]);
});

test('finalizers: qualified names, not orphan together with foregroundDeletion', () => {
  assert.deepEqual(messages({ ...valid, finalizers: ['bad finalizer'] }), [
    `metadata.finalizers: Invalid value: "bad finalizer": ${NAME_PART_MSG}`,
  ]);
  assert.deepEqual(messages({ ...valid, finalizers: ['orphan', 'foregroundDeletion'] }), [
    'metadata.finalizers: Invalid value: []string{"orphan", "foregroundDeletion"}: finalizer orphan and foregroundDeletion cannot be both set',
  ]);
});

test('managed fields entries', () => {
  assert.deepEqual(
    messages({
      ...valid,
      managedFields: [
        { manager: 'm', operation: 'Patch', fieldsType: 'FieldsV2' },
        { manager: 'x'.repeat(129), operation: 'Apply', subresource: 's'.repeat(257) },
        { manager: 'a\u0007b', operation: 'Update' },
      ],
    }),
    [
      'metadata.managedFields[0].operation: Invalid value: "Patch": must be `Apply` or `Update`',
      'metadata.managedFields[0].fieldsType: Invalid value: "FieldsV2": must be `FieldsV1`',
      'metadata.managedFields[1].manager: Too long: may not be more than 128 bytes',
      'metadata.managedFields[1].subresource: Too long: may not be more than 256 bytes',
      'metadata.managedFields[2].manager: Invalid value: "a\\ab": invalid character U+0007 (at position 1)',
    ],
  );
});

test('errors follow Kubernetes order and a custom root path', () => {
  const errs = validateObjectMeta({ labels: { '-': 'x' } }, NAMESPACED, fieldPath('spec', 'template', 'metadata'));
  assert.deepEqual(errs.map(errorMessage), [
    'spec.template.metadata.name: Required value: name or generateName is required',
    'spec.template.metadata.namespace: Required value',
    `spec.template.metadata.labels: Invalid value: "-": ${NAME_PART_MSG}`,
  ]);
  assert.deepEqual(
    errs.map((e) => e.type),
    ['FieldValueRequired', 'FieldValueRequired', 'FieldValueInvalid'],
  );
});

const old: ObjectMeta = {
  name: 'cm',
  namespace: 'default',
  uid: 'uid-1',
  resourceVersion: '5',
  generation: 2,
  creationTimestamp: '2024-01-01T00:00:00Z',
};

test('update: unchanged identity is valid', () => {
  assert.deepEqual(validateObjectMetaUpdate({ ...old, labels: { a: 'b' } }, old, NAMESPACED), []);
});

test('update: name, namespace, uid, timestamps and grace period are immutable', () => {
  const next: ObjectMeta = {
    ...old,
    name: 'other',
    namespace: 'kube-system',
    uid: 'uid-2',
    creationTimestamp: '2025-01-01T00:00:00Z',
    deletionTimestamp: '2025-01-02T00:00:00Z',
    deletionGracePeriodSeconds: 30,
  };
  assert.deepEqual(validateObjectMetaUpdate(next, old, NAMESPACED).map(errorMessage), [
    'metadata.name: Invalid value: "other": field is immutable',
    'metadata.namespace: Invalid value: "kube-system": field is immutable',
    'metadata.uid: Invalid value: "uid-2": field is immutable',
    'metadata.creationTimestamp: Invalid value: "2025-01-01T00:00:00Z": field is immutable',
    'metadata.deletionTimestamp: Invalid value: "2025-01-02T00:00:00Z": field is immutable',
    'metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable',
  ]);
  const cleared = validateObjectMetaUpdate({ ...old, creationTimestamp: undefined }, old, NAMESPACED).map(errorMessage);
  assert.deepEqual(cleared, ['metadata.creationTimestamp: Invalid value: null: field is immutable']);
});

test('update: resourceVersion required, generation not decremented', () => {
  assert.deepEqual(validateObjectMetaUpdate({ ...old, resourceVersion: undefined, generation: 1 }, old, NAMESPACED).map(errorMessage), [
    'metadata.resourceVersion: Invalid value: "": must be specified for an update',
    'metadata.generation: Invalid value: 1: must not be decremented',
  ]);
});

test('update: no new finalizers once deleting', () => {
  const deleting: ObjectMeta = { ...old, deletionTimestamp: '2025-01-01T00:00:00Z', finalizers: ['a.io/x'] };
  assert.deepEqual(validateObjectMetaUpdate({ ...deleting, finalizers: [] }, deleting, NAMESPACED), []);
  assert.deepEqual(
    validateObjectMetaUpdate({ ...deleting, finalizers: ['c.io/z', 'a.io/x', 'b.io/y'] }, deleting, NAMESPACED).map(errorMessage),
    [
      'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"b.io/y", "c.io/z"}',
    ],
  );
  assert.deepEqual(validateObjectMetaUpdate({ ...old, finalizers: ['b.io/y'] }, old, NAMESPACED), []);
});

test('update: create checks run on the new metadata, each error once', () => {
  assert.deepEqual(validateObjectMetaUpdate({ ...old, labels: { a: 'b c' }, finalizers: ['x y'] }, old, NAMESPACED).map(errorMessage), [
    `metadata.labels: Invalid value: "b c": ${LABEL_VALUE_MSG}`,
    `metadata.finalizers: Invalid value: "x y": ${NAME_PART_MSG}`,
  ]);
});
