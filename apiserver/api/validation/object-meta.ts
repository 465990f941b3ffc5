// Ports of apimachinery's ValidateObjectMeta / ValidateObjectMetaUpdate (api/validation/objectmeta.go) and the
// metav1 helpers they call (ValidateLabels, ValidateManagedFields), with Kubernetes' exact messages.

import {
  type FieldError,
  type FieldPath,
  errorMessage,
  fieldPath,
  forbidden,
  goQuote,
  invalid,
  required,
  tooLong,
} from '../field-errors.js';
import type { ManagedFieldsEntry, ObjectMeta, OwnerReference } from '../object-meta.js';
import { isQualifiedName, isValidLabelValue, nameIsDNSLabel } from './names.js';

/** A kind's name check (names.ts: nameIsDNSSubdomain, nameIsDNSLabel, ...); `prefix` is true for generateName. */
export type ValidateNameFunc = (name: string, prefix: boolean) => string[];

/** How a kind's metadata is validated. */
export interface ObjectMetaOptions {
  /** Namespaced kinds need metadata.namespace; cluster-scoped kinds may not have one. */
  namespaced: boolean;
  nameFn: ValidateNameFunc;
}

/** Kubernetes' FieldImmutableErrorMsg. */
export const FIELD_IMMUTABLE_ERROR_MSG = 'field is immutable';
/** Kubernetes' TotalAnnotationSizeLimitB: keys plus values, in bytes. */
export const TOTAL_ANNOTATION_SIZE_LIMIT_B = 256 * 1024;
const FIELD_MANAGER_MAX_LENGTH = 128;
const MAX_SUBRESOURCE_NAME_LENGTH = 256;
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** ValidateObjectMeta: an object's metadata on create (name generation already done). */
export function validateObjectMeta(meta: ObjectMeta, opts: ObjectMetaOptions, path: FieldPath = fieldPath('metadata')): FieldError[] {
  const errs: FieldError[] = [];
  const generateName = meta.generateName ?? '';
  if (generateName.length > 0) {
    for (const msg of opts.nameFn(generateName, true)) errs.push(invalid(path.child('generateName'), generateName, msg));
  }
  const name = meta.name ?? '';
  if (name.length === 0) errs.push(required(path.child('name'), 'name or generateName is required'));
  else for (const msg of opts.nameFn(name, false)) errs.push(invalid(path.child('name'), name, msg));

  const namespace = meta.namespace ?? '';
  if (opts.namespaced) {
    if (namespace.length === 0) errs.push(required(path.child('namespace')));
    else for (const msg of nameIsDNSLabel(namespace, false)) errs.push(invalid(path.child('namespace'), namespace, msg));
  } else if (namespace.length > 0) {
    errs.push(forbidden(path.child('namespace'), 'not allowed on this type'));
  }
  const generation = meta.generation ?? 0;
  if (generation < 0) errs.push(invalid(path.child('generation'), generation, 'must be greater than or equal to 0'));
  errs.push(...validateLabels(meta.labels, path.child('labels')));
  errs.push(...validateAnnotations(meta.annotations, path.child('annotations')));
  errs.push(...validateOwnerReferences(meta.ownerReferences, path.child('ownerReferences')));
  errs.push(...validateFinalizers(meta.finalizers, path.child('finalizers')));
  errs.push(...validateManagedFields(meta.managedFields, path.child('managedFields')));
  return errs;
}

/**
 * ValidateObjectMetaUpdate followed by ValidateObjectMeta on the new metadata, as a kind's ValidateUpdate
 * does: the identity fields may not change, finalizers may not be added once deleting, and the new metadata
 * must be valid. Identical errors reported by both halves appear once.
 */
export function validateObjectMetaUpdate(
  newMeta: ObjectMeta,
  oldMeta: ObjectMeta,
  opts: ObjectMetaOptions,
  path: FieldPath = fieldPath('metadata'),
): FieldError[] {
  const errs: FieldError[] = [];
  if (oldMeta.deletionTimestamp !== undefined) {
    const old = new Set(oldMeta.finalizers ?? []);
    const extra = [...new Set((newMeta.finalizers ?? []).filter((f) => !old.has(f)))].sort();
    if (extra.length > 0) {
      const list = `[]string{${extra.map(goQuote).join(', ')}}`;
      errs.push(
        forbidden(path.child('finalizers'), `no new finalizers can be added if the object is being deleted, found new finalizers ${list}`),
      );
    }
  }
  const resourceVersion = newMeta.resourceVersion ?? '';
  if (resourceVersion.length === 0) {
    errs.push(invalid(path.child('resourceVersion'), resourceVersion, 'must be specified for an update'));
  }
  if ((newMeta.generation ?? 0) < (oldMeta.generation ?? 0)) {
    errs.push(invalid(path.child('generation'), newMeta.generation ?? 0, 'must not be decremented'));
  }
  const immutable: [keyof ObjectMeta, unknown, unknown][] = [
    ['name', newMeta.name ?? '', oldMeta.name ?? ''],
    ['namespace', newMeta.namespace ?? '', oldMeta.namespace ?? ''],
    ['uid', newMeta.uid ?? '', oldMeta.uid ?? ''],
    ['creationTimestamp', newMeta.creationTimestamp || null, oldMeta.creationTimestamp || null],
    ['deletionTimestamp', newMeta.deletionTimestamp ?? null, oldMeta.deletionTimestamp ?? null],
    ['deletionGracePeriodSeconds', newMeta.deletionGracePeriodSeconds ?? null, oldMeta.deletionGracePeriodSeconds ?? null],
  ];
  for (const [field, newValue, oldValue] of immutable) {
    if (newValue !== oldValue) errs.push(invalid(path.child(field), newValue, FIELD_IMMUTABLE_ERROR_MSG));
  }
  errs.push(...validateLabels(newMeta.labels, path.child('labels')));
  errs.push(...validateAnnotations(newMeta.annotations, path.child('annotations')));
  errs.push(...validateOwnerReferences(newMeta.ownerReferences, path.child('ownerReferences')));
  errs.push(...validateManagedFields(newMeta.managedFields, path.child('managedFields')));

  const seen = new Set(errs.map((e) => `${e.type} ${errorMessage(e)}`));
  for (const e of validateObjectMeta(newMeta, opts, path)) {
    const key = `${e.type} ${errorMessage(e)}`;
    if (!seen.has(key)) {
      seen.add(key);
      errs.push(e);
    }
  }
  return errs;
}

/** ValidateLabels: keys are qualified names, values are label values; errors point at the labels map. */
export function validateLabels(labels: Record<string, string> | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(labels ?? {})) {
    for (const msg of isQualifiedName(k)) errs.push(invalid(path, k, msg));
    for (const msg of isValidLabelValue(v)) errs.push(invalid(path, v, msg));
  }
  return errs;
}

/** ValidateAnnotations: keys are qualified names (case-insensitively), and keys plus values fit in 256 KiB. */
export function validateAnnotations(annotations: Record<string, string> | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(annotations ?? {})) {
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(invalid(path, k, msg));
    size += Buffer.byteLength(k, 'utf8') + Buffer.byteLength(v, 'utf8');
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT_B) errs.push(tooLong(path, '', TOTAL_ANNOTATION_SIZE_LIMIT_B));
  return errs;
}

/** The owner reference as Go's JSON encoding of metav1.OwnerReference prints it (field order, empty pointers left out). */
function ownerReferenceValue(ref: OwnerReference): Record<string, unknown> {
  const value: Record<string, unknown> = {
    apiVersion: ref.apiVersion ?? '',
    kind: ref.kind ?? '',
    name: ref.name ?? '',
    uid: ref.uid ?? '',
  };
  if (ref.controller !== undefined) value.controller = ref.controller;
  if (ref.blockOwnerDeletion !== undefined) value.blockOwnerDeletion = ref.blockOwnerDeletion;
  return value;
}

/** schema.FromAPIVersionAndKind's group and version; an unparsable apiVersion yields neither. */
function parseGroupVersion(apiVersion: string): { group: string; version: string } {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0], version: parts[1] };
  return { group: '', version: '' };
}

/** ValidateOwnerReferences: required fields, no Event owners, at most one controller. Errors point at the list. */
export function validateOwnerReferences(refs: OwnerReference[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  for (const ref of refs ?? []) {
    const apiVersion = ref.apiVersion ?? '';
    const kind = ref.kind ?? '';
    const gv = parseGroupVersion(apiVersion);
    if (gv.version.length === 0) errs.push(invalid(path.child('apiVersion'), apiVersion, 'version must not be empty'));
    if (kind.length === 0) errs.push(invalid(path.child('kind'), kind, 'must not be empty'));
    if ((ref.name ?? '').length === 0) errs.push(invalid(path.child('name'), ref.name ?? '', 'must not be empty'));
    if ((ref.uid ?? '').length === 0) errs.push(invalid(path.child('uid'), ref.uid ?? '', 'must not be empty'));
    if (gv.group === '' && gv.version === 'v1' && kind === 'Event') {
      errs.push(invalid(path, ownerReferenceValue(ref), '/v1, Kind=Event is disallowed from being an owner'));
    }
    if (ref.controller === true) {
      const current = `${kind}/${ref.name ?? ''}`;
      if (firstController === '') firstController = current;
      else {
        errs.push(
          invalid(
            path,
            (refs ?? []).map(ownerReferenceValue),
            `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`,
          ),
        );
      }
    }
  }
  return errs;
}

/** ValidateFinalizers: each a qualified name, and not both `orphan` and `foregroundDeletion`. Errors point at the list. */
export function validateFinalizers(finalizers: string[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const list = finalizers ?? [];
  for (const f of list) for (const msg of isQualifiedName(f)) errs.push(invalid(path, f, msg));
  if (list.includes('orphan') && list.includes('foregroundDeletion')) {
    errs.push(invalid(path, list, 'finalizer orphan and foregroundDeletion cannot be both set'));
  }
  return errs;
}

/** Printable ASCII only: each character one byte, and every one of them printable. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** ValidateFieldManager: at most 128 bytes of printable characters. */
function validateFieldManager(manager: string, path: FieldPath): FieldError[] {
  if (PRINTABLE_ASCII.test(manager))
    return manager.length > FIELD_MANAGER_MAX_LENGTH ? [tooLong(path, manager, FIELD_MANAGER_MAX_LENGTH)] : [];
  const errs: FieldError[] = [];
  if (Buffer.byteLength(manager, 'utf8') > FIELD_MANAGER_MAX_LENGTH) errs.push(tooLong(path, manager, FIELD_MANAGER_MAX_LENGTH));
  let position = 0;
  for (const ch of manager) {
    if (!PRINTABLE.test(ch)) {
      const code = (ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
      errs.push(invalid(path, manager, `invalid character U+${code} (at position ${position})`));
    }
    position += Buffer.byteLength(ch, 'utf8');
  }
  return errs;
}

/** ValidateManagedFields: operation, fieldsType, manager and subresource of each entry. */
export function validateManagedFields(entries: ManagedFieldsEntry[] | undefined, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  (entries ?? []).forEach((entry, i) => {
    const p = path.index(i);
    const operation = entry.operation ?? '';
    if (operation !== 'Apply' && operation !== 'Update') {
      errs.push(invalid(p.child('operation'), operation, 'must be `Apply` or `Update`'));
    }
    const fieldsType = entry.fieldsType ?? '';
    if (fieldsType.length > 0 && fieldsType !== 'FieldsV1') {
      errs.push(invalid(p.child('fieldsType'), fieldsType, 'must be `FieldsV1`'));
    }
    errs.push(...validateFieldManager(entry.manager ?? '', p.child('manager')));
    const subresource = entry.subresource ?? '';
    if (Buffer.byteLength(subresource, 'utf8') > MAX_SUBRESOURCE_NAME_LENGTH) {
      errs.push(tooLong(p.child('subresource'), subresource, MAX_SUBRESOURCE_NAME_LENGTH));
    }
  });
  return errs;
}
